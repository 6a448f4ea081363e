"""The real anthropic SDK against the Messages API emulator over loopback: wire fidelity."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import anthropic
import httpx2
import pytest
from anthropic.types.beta import (
    BetaMCPToolListingBlock,
    BetaMCPToolResultBlock,
    BetaMCPToolUseBlock,
    BetaTextBlock,
    BetaToolUseBlock,
)

from swiggy_sandbox.emulator import (
    EmulatorServer,
    Fault,
    FunctionBrain,
    RecordedRequest,
    ScriptedBrain,
    ScriptedTurn,
    mcp_tool_listing_block,
    mcp_tool_result_block,
    mcp_tool_use_block,
    text_block,
    text_turn,
    tool_use_block,
)

MODEL = "claude-haiku-4-5"
BETAS = ["mcp-client-2025-11-20", "prompt-caching-2024-07-31"]
LONG_TEXT = "Here are three fresh options from Instamart for your breakfast this week."
SEARCH_INPUT = {"query": "masala oats", "filters": {"veg": True, "max_price": 120}, "n": [1, 2]}
LISTED_TOOL = {
    "name": "search_products",
    "description": "Search the catalog",
    "input_schema": {"type": "object", "properties": {"query": {"type": "string"}}},
}


@pytest.fixture(autouse=True)
def emu(wire_emu: EmulatorServer[ScriptedBrain]) -> Iterator[EmulatorServer[ScriptedBrain]]:
    yield wire_emu
    # Every scripted answer must have been asked for: a leftover means a missed call.
    assert wire_emu.brain.pending() == 0


@pytest.fixture(scope="module")
def client(wire_emulator: EmulatorServer[ScriptedBrain]) -> Iterator[anthropic.Anthropic]:
    base_url = wire_emulator.base_url
    with anthropic.Anthropic(api_key="sk-test", base_url=base_url, max_retries=0) as sdk:
        yield sdk


def params(**overrides: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "model": MODEL,
        "max_tokens": 256,
        "messages": [{"role": "user", "content": "find me oats"}],
    }
    return {**base, **overrides}


def stream_all(client: anthropic.Anthropic, **overrides: Any) -> tuple[list[Any], Any]:
    with client.beta.messages.stream(**params(**overrides)) as stream:
        events = list(stream)
        return events, stream.get_final_message()


def test_text_turn_streams_several_deltas_and_rebuilds_the_text(
    emu: EmulatorServer[ScriptedBrain], client: anthropic.Anthropic
) -> None:
    emu.brain.enqueue(text_turn(LONG_TEXT))
    with client.beta.messages.stream(**params()) as stream:
        pieces = list(stream.text_stream)
        final = stream.get_final_message()
        headers = stream.response.headers
    assert len(pieces) >= 3
    assert "".join(pieces) == LONG_TEXT
    assert [block.model_dump(exclude_none=True) for block in final.content] == [
        {"type": "text", "text": LONG_TEXT}
    ]
    assert final.stop_reason == "end_turn"
    assert final.model == MODEL
    assert final.id.startswith("msg_")
    assert headers["request-id"].startswith("req_")
    assert headers["anthropic-ratelimit-requests-limit"].isdigit()
    assert "anthropic-ratelimit-tokens-remaining" in headers
    assert headers["content-type"].startswith("text/event-stream")


def test_connector_blocks_round_trip_with_inputs_intact(
    emu: EmulatorServer[ScriptedBrain], client: anthropic.Anthropic
) -> None:
    content = [
        text_block("Let me look that up."),
        mcp_tool_use_block("mcptoolu_01", "search_products", "swiggy-instamart", SEARCH_INPUT),
        mcp_tool_result_block("mcptoolu_01", '{"success": true, "data": []}'),
        mcp_tool_listing_block("swiggy-instamart", [LISTED_TOOL]),
        text_block("Nothing matched; try another brand?"),
    ]
    emu.brain.enqueue(ScriptedTurn(content=content))
    events, final = stream_all(client, betas=BETAS)

    text, use, result, listing, closing = final.content
    assert isinstance(text, BetaTextBlock) and text.text == "Let me look that up."
    assert isinstance(use, BetaMCPToolUseBlock)
    assert (use.id, use.name, use.server_name) == (
        "mcptoolu_01",
        "search_products",
        "swiggy-instamart",
    )
    assert use.input == SEARCH_INPUT
    assert isinstance(result, BetaMCPToolResultBlock)
    assert result.tool_use_id == "mcptoolu_01" and result.is_error is False
    assert [item.text for item in result.content] == ['{"success": true, "data": []}']
    assert isinstance(listing, BetaMCPToolListingBlock)
    assert listing.mcp_server_name == "swiggy-instamart"
    assert listing.tools[0].name == "search_products"
    assert listing.tools[0].input_schema == LISTED_TOOL["input_schema"]
    assert isinstance(closing, BetaTextBlock)
    # The tool input was streamed in pieces, not sent whole.
    json_deltas = [e for e in events if e.type == "input_json"]
    assert len(json_deltas) >= 2

    # The assistant message goes back unchanged, exactly as the connector engine will send it.
    emu.brain.enqueue(text_turn("ok"))
    follow_up = [
        {"role": "user", "content": "find me oats"},
        final.to_param(),
        {"role": "user", "content": "thanks"},
    ]
    stream_all(client, betas=BETAS, messages=follow_up)
    sent_back = emu.requests[-1].body["messages"][1]["content"]
    assert [block["type"] for block in sent_back] == [block["type"] for block in content]
    assert sent_back[1]["input"] == SEARCH_INPUT


def test_tool_use_turn_stops_for_tool_use(
    emu: EmulatorServer[ScriptedBrain], client: anthropic.Anthropic
) -> None:
    emu.brain.enqueue(
        ScriptedTurn(
            content=[tool_use_block("toolu_01", "search_products", {})],
            stop_reason="tool_use",
        )
    )
    _, final = stream_all(client)
    (block,) = final.content
    assert isinstance(block, BetaToolUseBlock)
    assert (block.id, block.name, block.input) == ("toolu_01", "search_products", {})
    assert final.stop_reason == "tool_use"


def test_create_returns_the_same_turn_without_streaming(
    emu: EmulatorServer[ScriptedBrain], client: anthropic.Anthropic
) -> None:
    emu.brain.enqueue(
        ScriptedTurn(
            content=[text_block("pong"), tool_use_block("toolu_02", "get_cart", {"id": 7})],
            stop_reason="tool_use",
            model="claude-opus-5-5",
        )
    )
    message = client.beta.messages.create(**params())
    assert message.content[0].type == "text" and message.content[0].text == "pong"
    assert message.content[1].type == "tool_use" and message.content[1].input == {"id": 7}
    assert message.stop_reason == "tool_use"
    assert message.model == "claude-opus-5-5"
    assert message.usage.output_tokens >= 1
    assert "stream" not in emu.requests[-1].body


def test_usage_is_estimated_or_taken_from_the_script(
    emu: EmulatorServer[ScriptedBrain], client: anthropic.Anthropic
) -> None:
    emu.brain.enqueue(text_turn(LONG_TEXT))
    _, estimated = stream_all(client)
    assert estimated.usage.input_tokens >= 1
    assert estimated.usage.output_tokens == len(LONG_TEXT) // 4
    assert estimated.usage.cache_creation_input_tokens == 0
    assert estimated.usage.cache_read_input_tokens == 0

    scripted_usage = {"input_tokens": 1200, "output_tokens": 42, "cache_read_input_tokens": 900}
    emu.brain.enqueue(ScriptedTurn(content=[text_block("hi")], usage=scripted_usage))
    _, scripted = stream_all(client)
    assert scripted.usage.input_tokens == 1200
    assert scripted.usage.output_tokens == 42
    assert scripted.usage.cache_read_input_tokens == 900


def test_request_is_recorded_with_betas_auth_and_body(
    emu: EmulatorServer[ScriptedBrain], client: anthropic.Anthropic
) -> None:
    emu.brain.enqueue(text_turn("ok"))
    mcp_servers = [
        {"type": "url", "url": "https://mcp.swiggy.com/im", "name": "swiggy-instamart"},
    ]
    tools = [{"type": "mcp_toolset", "mcp_server_name": "swiggy-instamart"}]
    system = [{"type": "text", "text": "You shop.", "cache_control": {"type": "ephemeral"}}]
    stream_all(client, betas=BETAS, system=system, mcp_servers=mcp_servers, tools=tools)

    (recorded,) = emu.requests
    assert isinstance(recorded, RecordedRequest)
    assert (recorded.method, recorded.path) == ("POST", "/v1/messages")
    assert recorded.headers["anthropic-beta"] == ",".join(BETAS)
    assert recorded.betas == BETAS
    assert recorded.headers["authorization"] == "Bearer sk-test"
    assert recorded.api_key == "sk-test"
    assert recorded.headers["anthropic-version"]
    assert recorded.body["system"] == system
    assert recorded.body["mcp_servers"] == mcp_servers
    assert recorded.body["tools"] == tools
    assert recorded.body["stream"] is True


HTTP_FAULTS = [
    ("rate_limit", anthropic.RateLimitError, 429, "rate_limit_error"),
    ("overloaded", anthropic.OverloadedError, 529, "overloaded_error"),
    ("server_error", anthropic.InternalServerError, 500, "api_error"),
    ("auth", anthropic.AuthenticationError, 401, "authentication_error"),
    ("permission", anthropic.PermissionDeniedError, 403, "permission_error"),
    ("bad_request", anthropic.BadRequestError, 400, "invalid_request_error"),
]


@pytest.mark.parametrize(("kind", "error_class", "status", "error_type"), HTTP_FAULTS)
@pytest.mark.parametrize("streaming", [True, False], ids=["stream", "create"])
def test_http_fault_raises_the_sdk_class_for_its_status(
    emu: EmulatorServer[ScriptedBrain],
    client: anthropic.Anthropic,
    kind: Any,
    error_class: type[anthropic.APIStatusError],
    status: int,
    error_type: str,
    streaming: bool,
) -> None:
    emu.brain.enqueue(Fault(kind))
    with pytest.raises(error_class) as caught:
        if streaming:
            stream_all(client)
        else:
            client.beta.messages.create(**params())
    err = caught.value
    assert type(err) is error_class
    assert err.status_code == status
    assert err.type == error_type
    assert err.request_id is not None and err.request_id.startswith("req_")
    assert isinstance(err.body, dict) and err.body["request_id"] == err.request_id


def test_overloaded_is_an_internal_server_error_subclass() -> None:
    # Retry code that catches InternalServerError also catches 529.
    assert issubclass(anthropic.OverloadedError, anthropic.InternalServerError)


def test_rate_limit_carries_retry_after_and_exhausted_limits(
    emu: EmulatorServer[ScriptedBrain], client: anthropic.Anthropic
) -> None:
    emu.brain.enqueue(Fault("rate_limit", retry_after=2, message="slow down"))
    with pytest.raises(anthropic.RateLimitError) as caught:
        stream_all(client)
    headers = caught.value.response.headers
    assert headers["retry-after"] == "2"
    assert headers["anthropic-ratelimit-requests-remaining"] == "0"
    assert headers["anthropic-ratelimit-tokens-limit"].isdigit()
    assert caught.value.api_message == "slow down"


def test_error_event_after_partial_text_is_a_status_error_with_code_200(
    emu: EmulatorServer[ScriptedBrain], client: anthropic.Anthropic
) -> None:
    partial = text_turn(LONG_TEXT)
    emu.brain.enqueue(Fault("error_event", after_blocks=1, partial=partial))
    received: list[str] = []
    with (
        pytest.raises(anthropic.APIStatusError) as caught,
        client.beta.messages.stream(**params()) as stream,
    ):
        received.extend(stream.text_stream)
    assert "".join(received) == LONG_TEXT
    err = caught.value
    # No dedicated class: an in-stream error is classified by err.type, never by class.
    assert type(err) is anthropic.APIStatusError
    assert err.status_code == 200
    assert err.type == "overloaded_error"
    assert err.body == {
        "type": "error",
        "error": {"type": "overloaded_error", "message": "Overloaded"},
    }


def test_cut_stream_raises_httpx2_remote_protocol_error_not_an_sdk_error(
    emu: EmulatorServer[ScriptedBrain], client: anthropic.Anthropic
) -> None:
    emu.brain.enqueue(Fault("cut", after_blocks=1, partial=text_turn(LONG_TEXT)))
    received: list[str] = []
    with (
        pytest.raises(httpx2.RemoteProtocolError, match="incomplete chunked read") as caught,
        client.beta.messages.stream(**params()) as stream,
    ):
        received.extend(stream.text_stream)
    assert "".join(received) == LONG_TEXT
    # The SDK does not wrap errors raised while reading a stream's body.
    assert not isinstance(caught.value, anthropic.APIError)


def test_cut_without_streaming_is_an_api_connection_error(
    emu: EmulatorServer[ScriptedBrain], client: anthropic.Anthropic
) -> None:
    emu.brain.enqueue(Fault("cut"))
    with pytest.raises(anthropic.APIConnectionError) as caught:
        client.beta.messages.create(**params())
    assert type(caught.value) is anthropic.APIConnectionError


def test_malformed_event_raises_json_decode_error(
    emu: EmulatorServer[ScriptedBrain], client: anthropic.Anthropic
) -> None:
    emu.brain.enqueue(Fault("malformed", after_blocks=1, partial=text_turn("fine so far")))
    with pytest.raises(json.JSONDecodeError):
        stream_all(client)


def _raises_long_before_the_stall_ends(
    client: anthropic.Anthropic, error: type[BaseException]
) -> None:
    """A client with a 1 s timeout against a 30 s stall raises `error` well before the stall
    ends: the client's timeout, not the server, ended it."""
    started = time.monotonic()
    with pytest.raises(error):
        stream_all(client.with_options(timeout=1.0))
    assert time.monotonic() - started < 20


def test_stall_times_out_the_read_in_about_a_second(
    emu: EmulatorServer[ScriptedBrain], client: anthropic.Anthropic
) -> None:
    emu.brain.enqueue(Fault("stall", stall_seconds=30))
    # Headers already arrived, so the read timeout surfaces raw from httpx2, unwrapped.
    _raises_long_before_the_stall_ends(client, httpx2.ReadTimeout)


def test_hang_before_headers_raises_api_timeout_error(
    emu: EmulatorServer[ScriptedBrain], client: anthropic.Anthropic
) -> None:
    emu.brain.enqueue(Fault("hang", stall_seconds=30))
    _raises_long_before_the_stall_ends(client, anthropic.APITimeoutError)

    # A client patient enough to outwait the hang gets the gateway timeout.
    emu.brain.enqueue(Fault("hang", stall_seconds=0.2))
    with pytest.raises(anthropic.GatewayTimeoutError) as caught:
        stream_all(client)
    assert caught.value.type == "timeout_error"


def test_fault_rejects_more_blocks_than_its_partial_turn_has() -> None:
    with pytest.raises(ValueError, match="after_blocks=2"):
        Fault("cut", after_blocks=2, partial=text_turn("only one block"))


def test_server_stops_fast_during_a_stall() -> None:
    outcome: list[BaseException] = []
    server = EmulatorServer().start()
    server.brain.enqueue(Fault("stall", stall_seconds=60))

    def consume() -> None:
        with anthropic.Anthropic(api_key="k", base_url=server.base_url, max_retries=0) as sdk:
            try:
                stream_all(sdk)
            except Exception as exc:
                outcome.append(exc)

    reader = threading.Thread(target=consume)
    reader.start()
    deadline = time.monotonic() + 5
    while not server.requests and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.2)  # let the stall begin
    started = time.monotonic()
    server.stop()
    assert time.monotonic() - started < 30  # the stall (60 s) did not hold shutdown
    reader.join(5)
    # Shutdown ends the stalled stream like a cut: a truncated body, never a clean end.
    assert len(outcome) == 1 and isinstance(outcome[0], httpx2.RemoteProtocolError)


def test_empty_queue_answers_500_loudly(client: anthropic.Anthropic) -> None:
    with pytest.raises(anthropic.InternalServerError) as caught:
        stream_all(client)
    assert caught.value.status_code == 500
    assert caught.value.api_message == "scripted brain has no queued response"


def test_missing_credentials_get_401(emu: EmulatorServer[ScriptedBrain]) -> None:
    response = httpx2.post(f"{emu.base_url}/v1/messages", json=params())
    assert response.status_code == 401
    assert response.json()["error"]["type"] == "authentication_error"
    assert response.headers["request-id"] == response.json()["request_id"]
    # Recorded even though it was refused, so tests can see what was (not) sent.
    assert emu.requests[-1].api_key is None


def test_x_api_key_header_is_accepted(emu: EmulatorServer[ScriptedBrain]) -> None:
    emu.brain.enqueue(text_turn("hi"))
    response = httpx2.post(
        f"{emu.base_url}/v1/messages", json=params(), headers={"x-api-key": "sk-x"}
    )
    assert response.status_code == 200
    assert response.json()["content"] == [{"type": "text", "text": "hi"}]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"model": MODEL, "messages": []}, "max_tokens: Field required"),
        ({"model": MODEL, "max_tokens": "9", "messages": []}, "max_tokens: Input should be"),
        ({"max_tokens": 9, "messages": []}, "model: Field required"),
        ({"model": MODEL, "max_tokens": 9}, "messages: Field required"),
    ],
)
def test_invalid_body_gets_400_naming_the_field(
    client: anthropic.Anthropic, body: dict[str, Any], message: str
) -> None:
    with pytest.raises(anthropic.BadRequestError) as caught:
        client.post("/v1/messages", cast_to=httpx2.Response, body=body)
    assert caught.value.type == "invalid_request_error"
    assert caught.value.api_message is not None
    assert caught.value.api_message.startswith(message)


def test_models_are_listed_with_auth(
    emu: EmulatorServer[ScriptedBrain], client: anthropic.Anthropic
) -> None:
    ids = [model.id for model in client.models.list()]
    assert "claude-haiku-4-5" in ids
    assert emu.requests[-1].path == "/v1/models"
    assert httpx2.get(f"{emu.base_url}/v1/models").status_code == 401


def test_function_brain_answers_from_the_request() -> None:
    def echo(request: RecordedRequest) -> ScriptedTurn:
        return text_turn(f"you said: {request.body['messages'][-1]['content']}")

    with (
        EmulatorServer(FunctionBrain(echo)) as server,
        anthropic.Anthropic(api_key="k", base_url=server.base_url, max_retries=0) as sdk,
    ):
        _, final = stream_all(sdk)
    assert final.content[0].text == "you said: find me oats"
