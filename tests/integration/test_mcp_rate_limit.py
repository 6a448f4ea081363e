"""A Swiggy server's 429 through the real MCP client: its Retry-After reaches the person and
the model, and nothing more reaches that server (no retry, no reconnect) until it is over.

The sandbox's own rate limiter answers the 429; a thin wrapper around its ASGI app counts
every request it receives, so "nothing was sent" is what the server saw, not what we think.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import anthropic
import pytest
from starlette.types import Receive, Scope, Send
from turn_drain import drain

from swiggy_core.actions import typed_message
from swiggy_core.constants import SWIGGY_TZ
from swiggy_core.engine import LocalEngine, StreamFailed, TurnRequest, TurnSetup, make_client
from swiggy_core.errors import ErrorCode
from swiggy_core.mcp import McpCallError, McpManager
from swiggy_core.mcp.config import ResolvedServer, ServerConfig
from swiggy_core.mcp.transports import ServerTarget
from swiggy_core.models import McpToolResultBlock, result_text
from swiggy_sandbox.connector import CallClientTool, ScriptedAgentBrain
from swiggy_sandbox.emulator import EmulatorServer
from swiggy_sandbox.servers import RateLimits, SandboxHttpServer, runner
from swiggy_sandbox.servers.http_app import build_http_app

NOW = datetime(2026, 11, 20, 13, 0, tzinfo=SWIGGY_TZ)
PERSON = "Swiggy is limiting requests right now (429)."
FOR_MODEL = "Retry after 60 s: do not call this server's tools again before then."


class FakeTime:
    """One hand-moved clock for the sandbox's limiter and the app's manager."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Counted:
    """The sandbox app, recording each request it receives: (method, path, in a session)."""

    app: Any
    seen: list[tuple[str, str, bool]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.state = self.app.state  # the runner reads the shop from here when it stops

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            in_session = any(name == b"mcp-session-id" for name, _ in scope["headers"])
            self.seen.append((scope["method"], scope["path"], in_session))
        await self.app(scope, receive, send)

    def posts(self) -> list[tuple[str, str, bool]]:
        return [request for request in self.seen if request[0] == "POST"]


@dataclass
class Limited:
    box: SandboxHttpServer
    clock: FakeTime
    counted: Counted


@pytest.fixture
def limited(monkeypatch: pytest.MonkeyPatch) -> Iterator[Limited]:
    """The sandbox with a small limit (4 requests a minute) and a request counter."""
    built: list[Counted] = []

    def counted_app(*args: Any, **kwargs: Any) -> Counted:
        built.append(Counted(build_http_app(*args, **kwargs)))
        return built[-1]

    monkeypatch.setattr(runner, "build_http_app", counted_app)
    clock = FakeTime()
    limits = RateLimits(requests=4, writes=4)
    with SandboxHttpServer(limits=limits, limiter_clock=clock, clock=lambda: NOW) as box:
        yield Limited(box, clock, built[0])


def target_for(box: SandboxHttpServer, transport: str, token: str) -> tuple[ServerTarget, Any]:
    """How the app reaches Swiggy: a bare URL (Streamable HTTP), or a configured SSE server."""
    if transport == "http":
        return box.url_for("instamart"), token
    config = ServerConfig(key="instamart", transport="sse", url=f"{box.base_url}/sse/im")
    return ResolvedServer(config, token), None


def exhaust(manager: McpManager, target: ServerTarget, token: str | None) -> McpCallError:
    """Call until the sandbox says 429; the error the manager raised for it."""
    for _ in range(8):
        try:
            manager.call_tool(target, token, "get_cart", {}, user="asha")
        except McpCallError as error:
            return error
    raise AssertionError("the sandbox never refused")


@pytest.mark.parametrize("transport", ["http", "sse"])
def test_a_429_is_waited_out_and_nothing_reaches_the_server_meanwhile(
    limited: Limited, transport: str
) -> None:
    box, clock, counted = limited.box, limited.clock, limited.counted
    manager = McpManager(call_timeout=10, clock=clock)
    token = box.store.issue("asha")
    target, token_arg = target_for(box, transport, token)
    try:
        refused = exhaust(manager, target, token_arg)
        assert refused.code is ErrorCode.TOOL_RATE_LIMITED
        assert refused.retry_after_seconds == 60  # the sandbox's Retry-After header
        assert refused.message == PERSON
        assert FOR_MODEL in str(refused)
        sent = len(counted.posts())

        clock.now += 15
        with pytest.raises(McpCallError) as again:
            manager.call_tool(target, token_arg, "get_cart", {}, user="asha")
        assert again.value.code is ErrorCode.TOOL_RATE_LIMITED
        assert (again.value.message, again.value.retry_after_seconds) == (PERSON, 45)
        with pytest.raises(McpCallError) as listing:
            manager.list_tools(target, token_arg, user="asha", refresh=True)
        assert listing.value.retry_after_seconds == 45
        health = manager.health(target, token_arg, user="asha")
        assert (health.ok, health.code) == (False, "E-3103")
        assert health.error == f"{PERSON} Try again in 45 s."
        assert len(counted.posts()) == sent  # none of those reached the server
        ravi = box.store.issue("ravi")  # another person is not held back
        ravis, ravis_token = target_for(box, transport, ravi)
        assert not manager.call_tool(ravis, ravis_token, "get_cart", {}, user="ravi").is_error
        sent = len(counted.posts())

        clock.now += 46  # the sandbox's window is over, and so is the wait
        assert not manager.call_tool(target, token_arg, "get_cart", {}, user="asha").is_error
        after = counted.posts()[sent:]
        assert after
        if transport == "http":  # the session outlived the 429: nothing was initialised again
            assert all(in_session for _method, _path, in_session in after)
    finally:
        manager.close()


@pytest.fixture
def emu() -> Iterator[EmulatorServer[ScriptedAgentBrain]]:
    with EmulatorServer(ScriptedAgentBrain()) as server:
        yield server


def test_the_local_engine_stops_with_the_wait_and_the_model_reads_it(
    limited: Limited, emu: EmulatorServer[ScriptedAgentBrain]
) -> None:
    box, counted = limited.box, limited.counted
    manager = McpManager(call_timeout=10, clock=limited.clock)
    token = box.store.issue("asha")
    urls = {key: box.url_for(key) for key in ("instamart", "food", "dineout")}
    setup = TurnSetup(
        vertical_id="food",
        model="claude-haiku-4-5",
        swiggy_token=token,
        server_urls=urls,
        engine="local",
    )
    cart = CallClientTool("get_cart", {}, say_before="Checking your cart.")
    try:
        with make_client("sk-test", emu.base_url) as client:
            # The listing and a few calls spend the limit; the model keeps asking for the cart.
            emu.brain.enqueue(cart, cart, cart, cart)
            events, result = _drain(client, setup, manager)
            sent = len(counted.posts())
            error = result.error
            assert error is not None and error.code == "E-3103"
            assert (error.category, error.message) == ("tool_rate_limit", PERSON)
            assert error.retry_after_seconds == 60
            assert isinstance(events[-2], StreamFailed)
            stored = [b for b in result.blocks if isinstance(b, McpToolResultBlock)]
            assert stored[-1].is_error and FOR_MODEL in result_text(stored[-1])
            asked = len(emu.requests)

            limited.clock.now += 20  # the next turn, inside the window
            emu.brain.clear()
            emu.brain.enqueue(cart)
            _events, again = _drain(client, setup, manager)
            assert again.error is not None and again.error.retry_after_seconds == 40
            assert len(counted.posts()) == sent  # refused here, not by the server
            assert len(emu.requests) == asked + 1
    finally:
        manager.close()


def _drain(
    client: anthropic.Anthropic, setup: TurnSetup, manager: McpManager
) -> tuple[list[Any], Any]:
    asked = [typed_message("what is in my cart?")]
    return drain(LocalEngine().stream(TurnRequest(client, setup, asked, manager=manager)))
