"""The engine boundary: `stream_turn` builds one `TurnRequest` and hands it to an engine."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Literal

from swiggy_core.engine import (
    ConnectorEngine,
    Engine,
    LocalEngine,
    RetryPolicy,
    StreamEvent,
    TextDelta,
    TurnDone,
    TurnRequest,
    TurnSetup,
    engine_named,
    make_client,
)
from swiggy_core.hooks import CallScope
from swiggy_core.mcp import McpManager
from swiggy_core.models import ChatMessage, TextBlock, TurnResult
from swiggy_core.turn.model_turn import stream_turn

NOW = datetime(2026, 11, 20, 7, 30, tzinfo=UTC)


@dataclass
class EchoEngine:
    """A toy engine: it answers with the person's last words and keeps what it was asked."""

    name: Literal["connector"] = "connector"
    asked: list[TurnRequest] = field(default_factory=list)

    def stream(self, request: TurnRequest) -> Generator[StreamEvent, None, TurnResult]:
        self.asked.append(request)
        said = str(request.messages[-1].content)
        yield TextDelta(text=said)
        result = TurnResult(blocks=[TextBlock(text=said)], stop_reason="end_turn")
        yield TurnDone(result=result)
        return result


def test_a_toy_engine_runs_a_turn_through_stream_turn() -> None:
    engine = EchoEngine()
    protocol: Engine = engine  # the type checker holds the toy to the protocol
    client = make_client("sk-ant-test-key", "http://127.0.0.1:9")
    setup = TurnSetup(vertical_id="food", model="claude-haiku-4-5", engine="local")
    messages = [ChatMessage(role="user", content="find milk")]
    manager, scope, policy = McpManager(), CallScope(user_id="u1"), RetryPolicy(max_retries=1)
    waits: list[float] = []

    turn = stream_turn(
        client,
        setup,
        messages,
        pending_approval="the cart",
        now=NOW,
        retry_policy=policy,
        sleep=waits.append,
        manager=manager,
        scope=scope,
        engine=protocol,
    )
    events = list(turn)

    assert events[0] == TextDelta(text="find milk")
    assert isinstance(events[-1], TurnDone) and events[-1].result.text() == "find milk"
    (request,) = engine.asked  # one request, carrying everything the caller gave
    assert request.client is client and request.setup is setup
    assert list(request.messages) == messages
    assert (request.pending_approval, request.now) == ("the cart", NOW)
    assert request.retry_policy is policy and request.manager is manager
    assert request.scope is scope and request.sleep == waits.append
    assert request.should_stop() is False and request.on_abortable is None


def test_the_setup_names_one_of_the_apps_engines() -> None:
    assert isinstance(engine_named("connector"), ConnectorEngine)
    assert isinstance(engine_named("local"), LocalEngine)
    assert [engine_named(name).name for name in ("connector", "local")] == ["connector", "local"]
