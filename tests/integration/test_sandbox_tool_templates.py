"""Servers built for two shops in one process share their tool descriptions (built once)
but each calls its own shop: a cart filled through one is not seen through the other."""

from __future__ import annotations

from typing import Any

import anyio
from mcp import Client
from test_sandbox_instamart import FIXED_NOW, a_cart, envelope_of

from swiggy_sandbox.servers import build_server
from swiggy_sandbox.shop import Shop


def test_each_server_calls_its_own_shop_though_the_tools_are_built_once() -> None:
    async def main() -> None:
        first, second = Shop(clock=lambda: FIXED_NOW), Shop(clock=lambda: FIXED_NOW)
        first_server, second_server = (
            build_server("instamart", first),
            build_server("instamart", second),
        )
        # The second server's tools are copies of the first's, each with its own function.
        shared = first_server._tool_manager.get_tool("get_cart")
        copied = second_server._tool_manager.get_tool("get_cart")
        assert shared is not None and copied is not None
        assert copied.parameters is shared.parameters and copied.fn is not shared.fn
        async with Client(first_server) as one, Client(second_server) as two:

            async def call_second(name: str, **arguments: Any) -> tuple[dict[str, Any], bool]:
                result = await two.call_tool(name, arguments)
                return envelope_of(result), bool(result.is_error)

            filled = await a_cart(call_second)
            assert filled["items"], filled
            seen_first = envelope_of(await one.call_tool("get_cart", {}))["data"]
            seen_second = envelope_of(await two.call_tool("get_cart", {}))["data"]
        assert not seen_first["items"] and seen_second["items"] == filled["items"]
        first.close()
        second.close()

    anyio.run(main)
