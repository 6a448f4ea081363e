"""The sandbox servers as subprocesses over stdio, through the real MCP stdio client."""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from test_sandbox_scenarios import EXERCISES, EXPECTED_TOOLS, FIXED_NOW_ISO, HOME, call_via, ok

from swiggy_sandbox.servers import TOKEN_ENV_VAR


@asynccontextmanager
async def stdio_session(key: str, **env: str) -> AsyncIterator[ClientSession]:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "swiggy_sandbox.servers", key, "--stdio"],
        env={**os.environ, "SWIGGY_SANDBOX_NOW": FIXED_NOW_ISO, **env},
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


@pytest.mark.parametrize("key", ["instamart", "food", "dineout"])
def test_every_tool_over_stdio(key: str) -> None:
    async def main() -> None:
        async with stdio_session(key) as session:
            assert {t.name for t in (await session.list_tools()).tools} == EXPECTED_TOOLS[key]
            await EXERCISES[key](call_via(session))

    anyio.run(main)


def test_unknown_token_answers_401_envelopes() -> None:
    async def main() -> None:
        async with stdio_session("food", **{TOKEN_ENV_VAR: "stolen"}) as session:
            envelope, is_error = await call_via(session)("get_addresses", {})
            assert is_error and envelope["success"] is False
            assert "401" in envelope["error"]["message"]

    anyio.run(main)


def test_state_persists_in_an_sqlite_file(tmp_path: Path) -> None:
    env = {
        "SWIGGY_SANDBOX_DB": f"sqlite:///{tmp_path / 'shop.db'}",
        "SWIGGY_SANDBOX_BASE_URL": "http://127.0.0.1:9999",
    }

    async def fill() -> str:
        async with stdio_session("instamart", **env) as session:
            call = call_via(session)
            found = await ok(call, "search_products", addressId=HOME, query="atta")
            pack = found["products"][0]["variations"][0]
            assert pack["imageUrl"].startswith("http://127.0.0.1:9999/img/product/")
            items = [{"spinId": pack["spinId"], "quantity": 1}]
            await ok(call, "update_cart", selectedAddressId=HOME, items=items)
            return pack["spinId"]

    async def read() -> list[str]:
        async with stdio_session("instamart", **env) as session:
            cart = await ok(call_via(session), "get_cart")
            return [item["spinId"] for item in cart["items"]]

    spin_id = anyio.run(fill)
    assert anyio.run(read) == [spin_id]
