"""Every sandbox tool in-process (MCP client ↔ server in memory), plus bad-call envelopes."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import anyio
from mcp import Client
from test_sandbox_scenarios import EXERCISES, EXPECTED_TOOLS, FIXED_NOW, HOME, Call, call_via

from swiggy_sandbox.servers import build_server
from swiggy_sandbox.shop import Shop


def _in_memory(key: str, body: Callable[[Call, set[str]], Awaitable[None]]) -> None:
    async def main() -> None:
        shop = Shop(clock=lambda: FIXED_NOW)
        async with Client(build_server(key, shop)) as client:
            names = {tool.name for tool in (await client.list_tools()).tools}
            await body(call_via(client), names)
        shop.close()

    anyio.run(main)


def test_every_tool_in_memory() -> None:
    for key, exercise in EXERCISES.items():

        async def body(
            call: Call, names: set[str], exercise: Any = exercise, key: str = key
        ) -> None:
            assert names == EXPECTED_TOOLS[key]
            await exercise(call)

        _in_memory(key, body)


def test_bad_calls_get_error_envelopes() -> None:
    async def body(call: Call, names: set[str]) -> None:
        envelope, is_error = await call("add_to_basket", {})
        assert (
            is_error
            and not envelope["success"]
            and "search_products" in envelope["error"]["message"]
        )
        envelope, is_error = await call("search_products", {"addressId": 7, "query": ["milk"]})
        message = envelope["error"]["message"]
        assert is_error and "Invalid addressId" in message and "Invalid query" in message
        envelope, is_error = await call("search_products", {"query": "milk"})
        assert is_error and envelope["error"]["message"].startswith("Missing addressId")
        items = [{"spinId": "x", "quantity": "lots"}]
        envelope, is_error = await call("update_cart", {"selectedAddressId": HOME, "items": items})
        assert is_error and "items.0.quantity" in envelope["error"]["message"]

    _in_memory("instamart", body)
