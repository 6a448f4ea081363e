"""McpManager against the sandbox servers: pooled sessions, cached listings, coded errors."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from typing import Any

import pytest

from swiggy_core.errors import ErrorCode
from swiggy_core.mcp import McpCallError, McpManager, ServerHealth, ToolOutput
from swiggy_core.mcp.manager import resolve_url
from swiggy_core.mcp.transports import Endpoint
from swiggy_core.tool_errors import RECONNECT_CATEGORIES, category_of
from swiggy_sandbox.servers import DEMO_TOKEN, SandboxHttpServer

SECRET = "sk-very-secret-token-123"


@pytest.fixture(scope="module")
def sandbox() -> Iterator[SandboxHttpServer]:
    with SandboxHttpServer() as server:
        server.store.issue("secret-user", SECRET)
        yield server


@pytest.fixture
def manager(sandbox: SandboxHttpServer) -> Iterator[McpManager]:
    pool = McpManager(call_timeout=10)
    yield pool
    pool.close()


def dead_url() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}/im"


def chain(error: BaseException) -> list[BaseException]:
    """The error and everything it was raised from or during."""
    seen: list[BaseException] = []
    current: BaseException | None = error
    while current is not None and current not in seen:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


def test_listing_is_cached_per_server_and_token(
    sandbox: SandboxHttpServer, manager: McpManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = sandbox.url_for("instamart")
    calls: list[str] = []
    original = manager._list

    async def counting(endpoint: Endpoint, key: Any, *, reconnect: bool) -> list[dict[str, Any]]:
        calls.append(endpoint.url)
        return await original(endpoint, key, reconnect=reconnect)

    monkeypatch.setattr(manager, "_list", counting)
    tools = manager.list_tools(url, DEMO_TOKEN)
    assert manager.list_tools(url, DEMO_TOKEN) == tools
    manager.list_tools(url, SECRET)  # another person: their own listing
    manager.list_tools(url, DEMO_TOKEN, refresh=True)

    assert len(calls) == 3
    search = next(tool for tool in tools if tool["name"] == "search_products")
    # The server's annotations come along (they decide what a person's server may run
    # freely); the model never gets them (`mcp.client.for_model`).
    assert set(search) == {"name", "description", "input_schema", "annotations"}
    assert search["annotations"]["readOnlyHint"] is True
    assert "query" in search["input_schema"]["properties"]


def test_calls_reuse_one_session_and_return_text_and_error_flag(
    sandbox: SandboxHttpServer, manager: McpManager
) -> None:
    url = sandbox.url_for("instamart")
    first = manager.call_tool(url, DEMO_TOKEN, "get_addresses", {})
    cart = manager.call_tool(url, DEMO_TOKEN, "get_cart", {})
    bad = manager.call_tool(url, DEMO_TOKEN, "search_products", {"query": "milk"})

    assert isinstance(first, ToolOutput) and not first.is_error
    assert json.loads(first.text)["data"]["addresses"]
    assert not cart.is_error and "items" in json.loads(cart.text)["data"]
    assert cart.structured is None, "the envelope form has no structuredContent"
    assert bad.is_error and "addressId" in bad.text
    assert repr(manager).startswith("McpManager(sessions=1,")


def test_server_keys_resolve_to_swiggy_urls() -> None:
    assert resolve_url("food") == "https://mcp.swiggy.com/food"
    assert resolve_url("http://127.0.0.1:1/im") == "http://127.0.0.1:1/im"
    with pytest.raises(McpCallError):
        resolve_url("not-a-server")


def test_a_refused_token_is_an_auth_error_that_never_shows_the_token(
    sandbox: SandboxHttpServer, manager: McpManager
) -> None:
    url = sandbox.url_for("food")
    wrong = SECRET + "-revoked"
    with pytest.raises(McpCallError) as caught:
        manager.call_tool(url, wrong, "get_addresses", {})

    error = caught.value
    assert error.code is ErrorCode.TOOL_AUTH and "401" in str(error)
    for shown in [*map(repr, chain(error)), str(error), repr(manager)]:
        assert wrong not in shown and SECRET not in shown
    manager.list_tools(url, SECRET)
    assert SECRET not in repr(manager) and SECRET not in repr(manager._listings)


def test_a_revoked_session_is_419_and_asks_for_a_full_sign_in(
    sandbox: SandboxHttpServer, manager: McpManager
) -> None:
    token = sandbox.store.issue("revoked-user")
    sandbox.store.revoke(token)
    with pytest.raises(McpCallError) as caught:
        manager.call_tool(sandbox.url_for("instamart"), token, "get_addresses", {})
    assert caught.value.code is ErrorCode.TOOL_SESSION_REVOKED and "419" in str(caught.value)
    # A reconnect category: the turn stops and the banner offers Reconnect.
    assert category_of(caught.value.code) in RECONNECT_CATEGORIES


def test_a_dead_server_is_a_coded_unreachable_error(manager: McpManager) -> None:
    url = dead_url()
    with pytest.raises(McpCallError) as caught:
        manager.list_tools(url, DEMO_TOKEN)
    assert caught.value.code is ErrorCode.SERVER_UNREACHABLE
    assert str(caught.value).startswith("[E-3202] Could not reach the MCP server at ")


def test_health_reports_tools_and_latency_or_the_coded_error(
    sandbox: SandboxHttpServer, manager: McpManager
) -> None:
    healthy = manager.health(sandbox.url_for("dineout"), DEMO_TOKEN)
    down = manager.health(dead_url(), DEMO_TOKEN)

    assert healthy.ok and healthy.tool_count > 3 and healthy.latency_ms >= 0
    assert healthy.error is None
    assert down == ServerHealth(ok=False, error=down.error, code="E-3202")
    assert down.error is not None and down.error.startswith("[E-3202]")
