"""The MCP connector emulation through the real SDK, against a tiny MCP server over HTTP.

The server here is deliberately minimal (three tools, a bearer check, a request log) so
these tests isolate the connector from the sandbox shop.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import anthropic
import pytest
from anthropic.types.beta import (
    BetaMCPToolListingBlock,
    BetaMCPToolResultBlock,
    BetaMCPToolUseBlock,
    BetaTextBlock,
)
from asgi_thread import AsgiThread
from mcp.server.mcpserver import MCPServer
from starlette.types import Receive, Scope, Send

from swiggy_sandbox.connector import (
    MAX_TOOL_CALLS,
    CallTool,
    Finish,
    ScriptedAgentBrain,
    TurnContext,
)
from swiggy_sandbox.emulator import EmulatorServer

MODEL = "claude-haiku-4-5"
BETAS = ["mcp-client-2025-11-20", "prompt-caching-2024-07-31", "context-management-2025-06-27"]
TOKEN = "mini-token"
SERVER = "swiggy-instamart"
OATS = {"productId": "p1", "displayName": "Masala Oats", "price": 120}


class MiniShop:
    """A three-tool MCP server on loopback that logs every JSON-RPC method it receives."""

    def __init__(self) -> None:
        self.log: list[tuple[str, str]] = []
        mcp = MCPServer("mini-shop")

        @mcp.tool()
        def search_products(query: str) -> str:
            """Search the catalog."""
            return json.dumps({"success": True, "data": {"query": query, "products": [OATS]}})

        @mcp.tool()
        def get_cart() -> str:
            """Read the cart."""
            return json.dumps({"success": True, "data": {"items": []}})

        @mcp.tool()
        def checkout(addressId: str) -> str:
            """Place the order."""
            return json.dumps({"success": True, "data": {"orderId": "o1", "addressId": addressId}})

        self._inner = mcp.streamable_http_app(streamable_http_path="/im")
        self._served = AsgiThread(self._app, "/im", interface="asgi3")

    @property
    def url(self) -> str:
        return self._served.url

    def methods(self, method: str) -> list[str]:
        """Tool names (or "") of every logged request with this JSON-RPC method."""
        return [name for logged, name in self.log if logged == method]

    def start(self) -> MiniShop:
        self._served.start("mini MCP server", within_seconds=10)
        return self

    def stop(self) -> None:
        self._served.stop(join_seconds=5)

    async def _app(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self._inner(scope, receive, send)
            return
        if dict(scope["headers"]).get(b"authorization") != f"Bearer {TOKEN}".encode():
            await send({"type": "http.response.start", "status": 401, "headers": []})
            await send({"type": "http.response.body", "body": b""})
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        if body:
            request = json.loads(body)
            self.log.append((request.get("method", ""), request.get("params", {}).get("name", "")))

        replayed = False

        async def replay() -> Any:
            # The body once, then the real channel (the GET stream waits for a disconnect).
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self._inner(scope, replay, send)


@pytest.fixture(scope="module")
def shop() -> Iterator[MiniShop]:
    server = MiniShop().start()
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def fresh(emu: EmulatorServer[ScriptedAgentBrain], shop: MiniShop) -> None:
    """The conftest's `emu` (emptied, and checked to be used up) and an empty shop log."""
    shop.log.clear()


# A token the shop refuses; not a dictionary word, since every token is masked in logs and
# messages for the rest of the process once it has been used.
REJECTED_TOKEN = "tok-rejected-5c1e9a"


def servers(shop: MiniShop, token: str = TOKEN) -> list[dict[str, Any]]:
    return [{"type": "url", "url": shop.url, "name": SERVER, "authorization_token": token}]


def toolset(**extra: Any) -> dict[str, Any]:
    return {"type": "mcp_toolset", "mcp_server_name": SERVER, **extra}


def params(shop: MiniShop, **overrides: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "model": MODEL,
        "max_tokens": 512,
        "messages": [{"role": "user", "content": "find masala oats"}],
        "mcp_servers": servers(shop),
        "tools": [toolset()],
        "betas": BETAS,
    }
    return {**base, **overrides}


def stream(client: anthropic.Anthropic, **request: Any) -> tuple[list[Any], Any]:
    with client.beta.messages.stream(**request) as events:
        seen = list(events)
        return seen, events.get_final_message()


def summarise(ctx: TurnContext) -> Finish:
    outcome = ctx.outcomes[-1]
    return Finish(f"{outcome.name} answered {'an error' if outcome.is_error else 'fine'}.")


def test_tool_calls_stream_as_use_and_result_blocks_with_the_real_payload(
    emu: EmulatorServer[ScriptedAgentBrain], client: anthropic.Anthropic, shop: MiniShop
) -> None:
    search = CallTool(SERVER, "search_products", {"query": "masala oats"}, say_before="Looking.")
    emu.brain.enqueue(search, summarise)
    events, final = stream(client, **params(shop))

    listing, intro, use, result, closing = final.content
    assert isinstance(listing, BetaMCPToolListingBlock) and listing.mcp_server_name == SERVER
    assert {tool.name for tool in listing.tools} == {"search_products", "get_cart", "checkout"}
    assert isinstance(intro, BetaTextBlock) and intro.text == "Looking."
    assert isinstance(use, BetaMCPToolUseBlock)
    assert use.id.startswith("mcptoolu_") and use.server_name == SERVER
    assert (use.name, use.input) == ("search_products", {"query": "masala oats"})
    assert isinstance(result, BetaMCPToolResultBlock)
    assert result.tool_use_id == use.id and result.is_error is False
    assert isinstance(result.content, list)
    payload = json.loads(result.content[0].text)
    assert payload["data"]["products"] == [OATS]
    assert isinstance(closing, BetaTextBlock)
    assert closing.text == "search_products answered fine."
    assert final.stop_reason == "end_turn"
    assert any(event.type == "input_json" for event in events)
    assert shop.methods("tools/list") == [""]
    assert shop.methods("tools/call") == ["search_products"]


def test_a_disabled_tool_is_not_offered_and_never_reaches_the_server(
    emu: EmulatorServer[ScriptedAgentBrain], client: anthropic.Anthropic, shop: MiniShop
) -> None:
    emu.brain.enqueue(CallTool(SERVER, "checkout", {"addressId": "a1"}), summarise)
    request = params(shop, tools=[toolset(configs={"checkout": {"enabled": False}})])
    _, final = stream(client, **request)

    ctx = emu.brain.seen[0]
    assert [tool["name"] for tool in ctx.tools[SERVER]] == ["search_products", "get_cart"]
    assert ctx.disabled_tools[SERVER] == frozenset({"checkout"})
    result = final.content[2]
    assert isinstance(result, BetaMCPToolResultBlock) and result.is_error is True
    assert isinstance(result.content, list)
    assert result.content[0].text == "Tool 'checkout' is disabled by the toolset configuration"
    assert shop.methods("tools/call") == []


def test_default_config_off_with_one_tool_switched_back_on(
    emu: EmulatorServer[ScriptedAgentBrain], client: anthropic.Anthropic, shop: MiniShop
) -> None:
    emu.brain.enqueue(CallTool(SERVER, "get_cart"), summarise)
    only_cart = toolset(default_config={"enabled": False}, configs={"get_cart": {"enabled": True}})
    _, final = stream(client, **params(shop, tools=[only_cart]))
    assert [tool["name"] for tool in emu.brain.seen[0].tools[SERVER]] == ["get_cart"]
    assert final.content[-1].text == "get_cart answered fine."


def test_a_pinned_listing_skips_discovery_and_so_does_a_listing_sent_back(
    emu: EmulatorServer[ScriptedAgentBrain], client: anthropic.Anthropic, shop: MiniShop
) -> None:
    emu.brain.enqueue(CallTool(SERVER, "get_cart"), summarise)
    _, first = stream(client, **params(shop))
    listing = first.content[0]
    assert isinstance(listing, BetaMCPToolListingBlock)
    assert shop.methods("tools/list") == [""]

    pinned = [tool.model_dump(exclude_none=True) for tool in listing.tools]
    emu.brain.enqueue(CallTool(SERVER, "get_cart"), summarise)
    _, second = stream(client, **params(shop, tools=[toolset(tools=pinned)]))
    assert [block.type for block in second.content] == ["mcp_tool_use", "mcp_tool_result", "text"]

    history = [
        {"role": "user", "content": "find masala oats"},
        first.to_param(),
        {"role": "user", "content": "and my cart?"},
    ]
    emu.brain.enqueue(CallTool(SERVER, "get_cart"), summarise)
    _, third = stream(client, **params(shop, messages=history))
    assert third.content[0].type == "mcp_tool_use"
    assert shop.methods("tools/list") == [""], "only the first request listed tools"
    assert shop.methods("tools/call") == ["get_cart"] * 3
    # One pooled session (opened here or by an earlier test) served all three requests.
    assert len(shop.methods("initialize")) <= 1


def test_a_rejected_token_is_an_error_result_when_the_listing_is_pinned(
    emu: EmulatorServer[ScriptedAgentBrain], client: anthropic.Anthropic, shop: MiniShop
) -> None:
    pinned = [{"name": "get_cart", "input_schema": {"type": "object"}}]
    emu.brain.enqueue(CallTool(SERVER, "get_cart"), summarise)
    request = params(shop, mcp_servers=servers(shop, REJECTED_TOKEN), tools=[toolset(tools=pinned)])
    _, final = stream(client, **request)
    result = final.content[1]
    assert isinstance(result, BetaMCPToolResultBlock) and result.is_error is True
    assert isinstance(result.content, list)
    assert result.content[0].text == "401 Unauthorized"
    assert final.content[-1].text == "get_cart answered an error."


def test_a_server_that_cannot_be_listed_is_a_bad_request(
    client: anthropic.Anthropic, shop: MiniShop
) -> None:
    with pytest.raises(anthropic.BadRequestError) as rejected:
        stream(client, **params(shop, mcp_servers=servers(shop, REJECTED_TOKEN)))
    assert rejected.value.type == "invalid_request_error"
    message = rejected.value.message
    assert f"Connection error while communicating with MCP server {SERVER}" in message
    assert "401 Unauthorized" in message

    dead = [{"type": "url", "url": "http://127.0.0.1:9/im", "name": SERVER}]
    with pytest.raises(anthropic.BadRequestError, match="Connection error while communicating"):
        stream(client, **params(shop, mcp_servers=dead))


@pytest.mark.parametrize(
    ("overrides", "wording"),
    [
        ({"tools": [{"type": "mcp_toolset", "mcp_server_name": "nope"}]}, "unknown MCP server"),
        ({"betas": ["prompt-caching-2024-07-31"]}, "mcp-client-2025-11-20"),
        ({"tools": []}, "no mcp_toolset references it"),
        (
            {"messages": [{"role": "user", "content": [{"type": "mystery", "text": "x"}]}]},
            "Input tag 'mystery'",
        ),
        (
            {
                "messages": [
                    {
                        "role": "user",
                        "content": [{"type": "tool_result", "tool_use_id": "toolu_x"}],
                    }
                ]
            },
            "unexpected `tool_use_id`",
        ),
        (
            {
                "messages": [
                    {"role": "user", "content": "hi"},
                    {
                        "role": "assistant",
                        "content": [{"type": "mcp_tool_result", "tool_use_id": "mcptoolu_x"}],
                    },
                ]
            },
            "mcp_tool_result",
        ),
        ({"context_management": {"edits": []}, "betas": BETAS[:2]}, "context-management"),
    ],
    ids=[
        "unknown-server",
        "missing-beta",
        "server-without-toolset",
        "unknown-block",
        "orphan-tool-result",
        "orphan-mcp-result",
        "context-without-beta",
    ],
)
def test_malformed_requests_are_rejected_before_the_brain_runs(
    emu: EmulatorServer[ScriptedAgentBrain],
    client: anthropic.Anthropic,
    shop: MiniShop,
    overrides: dict[str, Any],
    wording: str,
) -> None:
    with pytest.raises(anthropic.BadRequestError) as rejected:
        stream(client, **params(shop, **overrides))
    assert rejected.value.type == "invalid_request_error"
    assert wording in rejected.value.message
    assert emu.brain.seen == [] and shop.log == []


def test_too_many_tool_calls_pause_the_turn(
    emu: EmulatorServer[ScriptedAgentBrain], client: anthropic.Anthropic, shop: MiniShop
) -> None:
    emu.brain.enqueue(*[CallTool(SERVER, "get_cart")] * MAX_TOOL_CALLS)
    _, final = stream(client, **params(shop))
    uses = [block for block in final.content if block.type == "mcp_tool_use"]
    assert len(uses) == MAX_TOOL_CALLS
    assert final.stop_reason == "pause_turn"


def test_the_non_streaming_call_runs_the_same_loop(
    emu: EmulatorServer[ScriptedAgentBrain], client: anthropic.Anthropic, shop: MiniShop
) -> None:
    emu.brain.enqueue(CallTool(SERVER, "search_products", {"query": "oats"}), summarise)
    message = client.beta.messages.create(**params(shop))
    assert [block.type for block in message.content] == [
        "mcp_tool_listing",
        "mcp_tool_use",
        "mcp_tool_result",
        "text",
    ]
    assert message.stop_reason == "end_turn"
