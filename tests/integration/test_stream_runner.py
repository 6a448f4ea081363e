"""run_message_stream through the real anthropic SDK against the scripted emulator."""

import json

import pytest

from swiggy_core.constants import (
    APPROVAL_TOOL_NAME,
    BETA_MCP_CLIENT,
    CONTEXT_TRIGGER_INPUT_TOKENS,
    TURN_CONTEXT_HEADER,
)
from swiggy_core.conversation import build_message_stream_params
from swiggy_core.engine import (
    RetryPolicy,
    RetryScheduled,
    StreamFailed,
    StreamRequest,
    TextDelta,
    ToolFinished,
    ToolStarted,
    TurnDone,
    make_client,
    run_message_stream,
)
from swiggy_core.models import ChatMessage
from swiggy_sandbox.emulator import (
    EmulatorServer,
    Fault,
    ScriptedTurn,
    mcp_tool_result_block,
    mcp_tool_use_block,
    text_block,
)

SEARCH_INPUT = {"addressId": "addr_home", "query": "protein bar"}
SEARCH_RESULT = json.dumps(
    {"success": True, "data": {"products": [{"displayName": "Yoga Bar", "productId": "p1"}]}}
)


@pytest.fixture(scope="module")
def emulator():
    with EmulatorServer() as server:
        yield server


@pytest.fixture
def emu(emulator):
    emulator.requests.clear()
    yield emulator
    assert emulator.brain.pending() == 0, "a scripted response was not consumed"


@pytest.fixture
def client(emulator):
    return make_client("sk-ant-test-key", emulator.base_url)


def _params(**overrides):
    base = {
        "vertical_id": "food",
        "messages": [ChatMessage(role="user", content="find protein bars")],
        "swiggy_token": "swiggy-secret-token",
    }
    return build_message_stream_params(**(base | overrides))


def _run(client, params, **kwargs):
    events = list(
        run_message_stream(StreamRequest(client, params, sleep=lambda _s: None, **kwargs))
    )
    assert isinstance(events[-1], TurnDone)
    return events, events[-1].result


def _tool_turn(tool_error_text=None, stop_reason="end_turn"):
    result_text = tool_error_text or SEARCH_RESULT
    return ScriptedTurn(
        content=[
            text_block("Let me look that up for you."),
            mcp_tool_use_block("mcptoolu_01", "search_products", "swiggy-instamart", SEARCH_INPUT),
            mcp_tool_result_block("mcptoolu_01", result_text, is_error=tool_error_text is not None),
            text_block("Here are three high-protein bars under 200 rupees."),
        ],
        stop_reason=stop_reason,
    )


def test_turn_with_text_and_mcp_tool_blocks(emu, client):
    emu.brain.enqueue(_tool_turn())
    events, result = _run(client, _params())
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("ToolStarted") < kinds.index("ToolFinished") < len(kinds) - 1
    started = next(e for e in events if isinstance(e, ToolStarted))
    assert started.name == "search_products" and started.server_name == "swiggy-instamart"
    assert started.input == {"addressId": "addr_home", "query": "protein bar"}
    finished = next(e for e in events if isinstance(e, ToolFinished))
    assert not finished.is_error and finished.content_text == SEARCH_RESULT
    streamed = "".join(e.text for e in events if isinstance(e, TextDelta))
    assert streamed == result.text()
    assert sum(isinstance(e, TextDelta) for e in events) > 2  # really streamed
    assert result.ok and result.stop_reason == "end_turn"
    assert [b.type for b in result.blocks] == ["text", "mcp_tool_use", "mcp_tool_result", "text"]
    assert result.usage.input_tokens > 0 and result.usage.output_tokens > 0


def test_request_shape_is_what_the_emulator_received(emu, client):
    emu.brain.enqueue(_tool_turn())
    _run(client, _params())
    (request,) = emu.requests
    assert request.path == "/v1/messages"
    betas = request.headers["anthropic-beta"]
    for beta in (
        "mcp-client-2025-11-20",
        "prompt-caching-2024-07-31",
        "context-management-2025-06-27",
    ):
        assert beta in betas
    assert "sk-ant-test-key" in (
        request.headers.get("x-api-key", "") + request.headers.get("authorization", "")
    )
    body = request.body
    assert body["stream"] is True and body["max_tokens"] == 800
    # A first turn's prompt is under the model's minimum cacheable length: no breakpoint.
    assert "cache_control" not in json.dumps(body)
    assert body["mcp_servers"] == [
        {
            "type": "url",
            "url": "https://mcp.swiggy.com/im",
            "name": "swiggy-instamart",
            "authorization_token": "swiggy-secret-token",
        }
    ]
    toolset, approval = body["tools"]
    assert toolset["type"] == "mcp_toolset" and toolset["configs"]["checkout"] == {"enabled": False}
    # Spending goes through the approval client tool, the last tool.
    assert approval["name"] == APPROVAL_TOOL_NAME
    assert approval["input_schema"]["properties"]["tool"]["enum"] == ["checkout"]
    assert "checkout" not in [tool.get("name") for tool in body["tools"]]
    edit = body["context_management"]["edits"][0]
    assert edit["type"] == "clear_tool_uses_20250919"
    assert edit["trigger"] == {"type": "input_tokens", "value": CONTEXT_TRIGGER_INPUT_TOKENS}
    (message,) = body["messages"]
    said, context = message["content"]
    assert said == {"type": "text", "text": "find protein bars"}
    assert context["text"].startswith(TURN_CONTEXT_HEADER)  # the clock rides after it


def test_without_a_token_no_tools_and_no_mcp_beta_are_sent(emu, client):
    emu.brain.enqueue(ScriptedTurn(content=[{"type": "text", "text": "Hello."}]))
    _run(client, _params(swiggy_token=None))
    (request,) = emu.requests
    assert BETA_MCP_CLIENT not in request.headers["anthropic-beta"]
    assert "tools" not in request.body and "mcp_servers" not in request.body


def test_rate_limit_is_retried_then_succeeds(emu, client):
    emu.brain.enqueue(Fault(kind="rate_limit", retry_after=0.2), _tool_turn())
    waits = []
    events = list(run_message_stream(StreamRequest(client, _params(), sleep=waits.append)))
    result = events[-1].result
    assert result.ok and result.attempts == 2
    assert waits == [0.2]
    retry = next(e for e in events if isinstance(e, RetryScheduled))
    assert retry.error.code == "E-2001" and retry.attempt == 1
    assert any(k.startswith("anthropic-ratelimit-") for k in result.rate_limit_headers)
    assert len(emu.requests) == 2


@pytest.mark.parametrize(("kind", "code"), [("overloaded", "E-2003"), ("server_error", "E-2002")])
def test_server_faults_retry_twice_then_report(emu, client, kind, code):
    emu.brain.enqueue(Fault(kind=kind), Fault(kind=kind), Fault(kind=kind))
    policy = RetryPolicy(random_fn=lambda: 0.5)
    waits = []
    events = list(
        run_message_stream(
            StreamRequest(client, _params(), sleep=waits.append, retry_policy=policy)
        )
    )
    result = events[-1].result
    assert result.error.code == code and result.attempts == 3
    assert waits == [0.5, 1.0]
    assert isinstance(events[-2], StreamFailed)


def test_long_retry_after_is_reported_not_waited(emu, client):
    emu.brain.enqueue(Fault(kind="rate_limit", retry_after=30))
    _events, result = _run(client, _params())
    assert result.error.code == "E-2001" and result.error.retry_after_seconds == 30
    assert result.attempts == 1


@pytest.mark.parametrize(
    ("kind", "code", "category"),
    [("auth", "E-5001", "auth"), ("permission", "E-5002", "permission")],
)
def test_auth_faults_are_not_retried(emu, client, kind, code, category):
    emu.brain.enqueue(Fault(kind=kind))
    _events, result = _run(client, _params())
    assert (result.error.code, result.error.category, result.attempts) == (code, category, 1)


def test_error_event_mid_stream_keeps_partial_text(emu, client):
    emu.brain.enqueue(
        Fault(
            kind="error_event", after_blocks=1, error_type="overloaded_error", partial=_tool_turn()
        )
    )
    _events, result = _run(client, _params())
    assert result.error.code == "E-2003" and result.error.status == 200
    assert result.text() == "Let me look that up for you."
    assert result.attempts == 1  # content arrived: resending would repeat it


def test_cut_stream_keeps_partial_content(emu, client):
    emu.brain.enqueue(Fault(kind="cut", after_blocks=3, partial=_tool_turn()))
    _events, result = _run(client, _params())
    assert result.error is not None and result.error.category in ("network", "stream")
    assert [b.type for b in result.blocks] == ["text", "mcp_tool_use", "mcp_tool_result"]


def test_stall_past_the_timeout_returns_partial_content(emu, client):
    emu.brain.enqueue(Fault(kind="stall", after_blocks=1, stall_seconds=20, partial=_tool_turn()))
    _events, result = _run(client, _params(), timeout=1.0)
    assert result.error.code == "E-2005"
    assert result.text() == "Let me look that up for you."


def test_malformed_event_is_a_stream_error(emu, client):
    emu.brain.enqueue(Fault(kind="malformed", after_blocks=1, partial=_tool_turn()))
    _events, result = _run(client, _params())
    assert result.error is not None and result.error.code in ("E-2006", "E-2099")
    assert result.text() == "Let me look that up for you."


def test_auth_tool_error_aborts_at_once(emu, client):
    emu.brain.enqueue(_tool_turn(tool_error_text="401 Unauthorized: token expired"))
    events, result = _run(client, _params())
    assert result.error.code == "E-3001" and result.error.category == "tool_auth"
    finished = next(e for e in events if isinstance(e, ToolFinished))
    assert finished.is_error and finished.error.category == "auth"
    # The text after the failed tool never arrived: the stream was stopped.
    assert result.text() == "Let me look that up for you."


def test_address_tool_error_aborts_at_once(emu, client):
    emu.brain.enqueue(_tool_turn(tool_error_text="Address with id addr_x not found"))
    _events, result = _run(client, _params())
    assert result.error.code == "E-3002"


def test_one_server_tool_error_does_not_abort(emu, client):
    emu.brain.enqueue(_tool_turn(tool_error_text="upstream 503, try again later"))
    _events, result = _run(client, _params())
    assert result.ok and result.text().endswith("under 200 rupees.")


def test_two_validation_tool_errors_abort(emu, client):
    bad = _tool_turn(tool_error_text="quantity must be positive")
    twice = ScriptedTurn(
        content=[
            *bad.content[:3],
            {**bad.content[1], "id": "mcptoolu_02"},
            {**bad.content[2], "tool_use_id": "mcptoolu_02"},
            {"type": "text", "text": "never shown"},
        ]
    )
    emu.brain.enqueue(twice)
    _events, result = _run(client, _params())
    assert result.error.code == "E-3004"
    assert "never shown" not in result.text()


def test_pause_turn_is_continued(emu, client):
    paused = ScriptedTurn(content=_tool_turn().content[:3], stop_reason="pause_turn")
    emu.brain.enqueue(paused, ScriptedTurn(content=[{"type": "text", "text": "Done."}]))
    _events, result = _run(client, _params())
    assert result.ok and result.stop_reason == "end_turn"
    assert [b.type for b in result.blocks] == ["text", "mcp_tool_use", "mcp_tool_result", "text"]
    second = emu.requests[1].body["messages"]
    assert second[-1]["role"] == "assistant"
    assert [b["type"] for b in second[-1]["content"]] == ["text", "mcp_tool_use", "mcp_tool_result"]


LONG_TEXT = " ".join(f"word{n}" for n in range(400)) + "."


def _stop_after_first_text(events):
    """A Stop button pressed as soon as the first words are on screen."""
    return lambda: any(isinstance(event, TextDelta) for event in events)


def test_stop_ends_the_turn_keeping_what_arrived(emu, client):
    emu.brain.enqueue(ScriptedTurn(content=[{"type": "text", "text": LONG_TEXT}]))
    events = []
    stream = run_message_stream(
        StreamRequest(
            client, _params(), sleep=lambda _s: None, should_stop=_stop_after_first_text(events)
        )
    )
    for event in stream:
        events.append(event)
    assert isinstance(events[-1], TurnDone)
    result = events[-1].result
    assert result.stopped is True
    assert result.stop_reason == "stopped"
    assert result.error is None and not any(isinstance(e, StreamFailed) for e in events)
    # Partial text kept: what streamed so far, never the whole answer.
    streamed = "".join(e.text for e in events if isinstance(e, TextDelta))
    assert streamed and LONG_TEXT.startswith(streamed)
    assert result.text() and LONG_TEXT.startswith(result.text())
    assert len(result.text()) < len(LONG_TEXT)
    assert sum(isinstance(e, TextDelta) for e in events) <= 2
    assert result.attempts == 1 and len(emu.requests) == 1


def test_stop_mid_tool_turn_keeps_the_blocks_so_far(emu, client):
    emu.brain.enqueue(_tool_turn(stop_reason="pause_turn"))
    events = []

    def stop_after_tool():
        return any(isinstance(e, ToolStarted) for e in events)

    for event in run_message_stream(StreamRequest(client, _params(), should_stop=stop_after_tool)):
        events.append(event)
    result = events[-1].result
    assert result.stopped and result.error is None
    assert result.text() == "Let me look that up for you."
    assert "Here are three" not in result.text()
    assert len(emu.requests) == 1  # a stopped pause_turn is not continued


def test_a_stopped_turn_is_not_retried(emu, client):
    emu.brain.enqueue(Fault(kind="rate_limit", retry_after=0.2))
    waits = []
    events = list(
        run_message_stream(
            StreamRequest(client, _params(), sleep=waits.append, should_stop=lambda: True)
        )
    )
    result = events[-1].result
    assert waits == [] and result.attempts == 1
    assert len(emu.requests) == 1
