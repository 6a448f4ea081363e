"""Stream one Messages API request through the real SDK and yield typed UI events.

`run_message_stream` (the connector engine's stream, and each round of the local
engine's) is a generator: pages iterate it (text deltas go straight into
`st.write_stream`); the last event is `TurnDone` carrying the `TurnResult`, which is
also the generator's return value. A broken stream never loses what already arrived.
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from swiggy_core.constants import CONNECT_TIMEOUT_SECONDS, MAX_PAUSE_CONTINUATIONS
from swiggy_core.conversation import sanitize_assistant_blocks
from swiggy_core.engine.connector_hooks import ConnectorCalls
from swiggy_core.engine.errors import (
    OVERLOADED,
    RATE_LIMIT,
    SERVER,
    TIMEOUT,
    classify_api_error,
    error_info,
)
from swiggy_core.engine.events import RetryScheduled, StreamEvent, StreamFailed, TurnDone
from swiggy_core.engine.requests import StreamRequest
from swiggy_core.engine.retry import RetryPolicy, extract_rate_limit_headers
from swiggy_core.engine.sdk_events import handle_event
from swiggy_core.engine.tool_error_budget import ToolErrorBudget
from swiggy_core.hooks import CallScope, ToolHooks
from swiggy_core.models import ContentBlock, ErrorInfo, TurnResult, Usage, block_from_dict

# In-stream errors arrive with HTTP 200; retry decisions need the status they stand for.
_CATEGORY_STATUS = {RATE_LIMIT: 429, SERVER: 500, OVERLOADED: 529}


class _DeadlineExceeded(Exception):
    """The whole stream took longer than the turn timeout."""


class _Stopped(Exception):
    """The person pressed Stop."""


@dataclass
class _Outcome:
    blocks: list[ContentBlock] = field(default_factory=list)
    raw_content: list[dict[str, Any]] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    stop_reason: str | None = None
    error: ErrorInfo | None = None
    rate_limit_headers: dict[str, str] = field(default_factory=dict)
    stopped: bool = False


def run_message_stream(request: StreamRequest) -> Generator[StreamEvent, None, TurnResult]:
    """Stream one turn: retries before any content, continues after pause_turn.

    `request.should_stop` is polled between events: True ends the turn, keeping what
    arrived. Every `mcp_tool_result` the connector returns goes through the post
    `request.hooks` (audit, error detection) as a call of `request.scope`.
    """
    policy = request.retry_policy
    should_stop = request.should_stop
    messages = list(request.params["messages"])
    budget = ToolErrorBudget()
    calls = ConnectorCalls(request.hooks or ToolHooks(), request.scope or CallScope())
    blocks: list[ContentBlock] = []
    usage = Usage()
    headers: dict[str, str] = {}
    attempts = retries = continuations = 0
    while True:
        attempts += 1
        outcome = yield from _stream_once(
            request, {**request.params, "messages": messages}, (budget, calls)
        )
        headers.update(outcome.rate_limit_headers)
        delay = None if should_stop() else _retry_delay(outcome, policy, retries)
        if delay is not None and outcome.error is not None:
            yield RetryScheduled(attempt=retries + 1, delay_seconds=delay, error=outcome.error)
            request.sleep(delay)
            retries += 1
            continue
        blocks.extend(outcome.blocks)
        usage = usage + outcome.usage
        if should_stop() and not outcome.stopped:  # Stop pressed while it failed or paused
            outcome.stopped, outcome.error = True, None
        if (
            outcome.error is None
            and not outcome.stopped
            and outcome.stop_reason == "pause_turn"
            and continuations < MAX_PAUSE_CONTINUATIONS
        ):
            # The API paused a long tool-using turn: send its content back to continue it.
            messages = [*messages, {"role": "assistant", "content": outcome.raw_content}]
            continuations += 1
            continue
        break
    result = TurnResult(
        blocks=sanitize_assistant_blocks(blocks),
        usage=usage,
        stop_reason=outcome.stop_reason,
        error=outcome.error,
        rate_limit_headers=headers,
        attempts=attempts,
        stopped=outcome.stopped,
    )
    if result.error is not None:
        yield StreamFailed(error=result.error)
    yield TurnDone(result=result)
    return result


def _retry_delay(outcome: _Outcome, policy: RetryPolicy, retries: int) -> float | None:
    """Retry only failures that delivered nothing: resending after content would repeat it."""
    error = outcome.error
    if error is None or outcome.blocks or not error.retryable:
        return None
    status = error.status if error.status not in (None, 200) else None
    status = status or _CATEGORY_STATUS.get(error.category)
    if not policy.should_retry(status, retries):
        return None
    return policy.delay(retries, error.retry_after_seconds)


def _stream_once(
    request: StreamRequest,
    params: dict[str, Any],
    tracking: tuple[ToolErrorBudget, ConnectorCalls],
) -> Generator[StreamEvent, None, _Outcome]:
    import anthropic  # loaded already: the request's client is the SDK's
    import httpx2

    clock, timeout = request.clock, request.timeout
    should_stop, on_abortable = request.should_stop, request.on_abortable
    deadline = clock() + timeout
    outcome = _Outcome()
    stream = None
    http_timeout = httpx2.Timeout(timeout, connect=min(timeout, CONNECT_TIMEOUT_SECONDS))
    try:
        with request.client.beta.messages.stream(**params, timeout=http_timeout) as stream:
            if on_abortable is not None:
                on_abortable(_aborter(stream))
            outcome.rate_limit_headers = extract_rate_limit_headers(stream.response.headers)
            for event in stream:
                if should_stop():
                    raise _Stopped
                if clock() > deadline:
                    raise _DeadlineExceeded
                abort = yield from handle_event(event, stream, *tracking)
                if abort is not None:
                    outcome.error = abort
                    _keep_snapshot(stream, outcome)
                    return outcome
            message = stream.get_final_message()
    except _Stopped:
        outcome.stopped = True
        outcome.stop_reason = "stopped"
        _keep_snapshot(stream, outcome)
        return outcome
    except _DeadlineExceeded:
        outcome.error = error_info(TIMEOUT)
        _keep_snapshot(stream, outcome)
        return outcome
    except Exception as exc:
        if should_stop():  # Stop closed the stream under the reader: not an error
            outcome.stopped = True
            outcome.stop_reason = "stopped"
            _keep_snapshot(stream, outcome)
            return outcome
        if not isinstance(exc, anthropic.APIError | httpx2.TransportError | ValueError):
            raise
        outcome.error = classify_api_error(exc)
        if isinstance(exc, anthropic.APIStatusError) and exc.status_code != 200:
            outcome.rate_limit_headers = extract_rate_limit_headers(exc.response.headers)
        _keep_snapshot(stream, outcome)
        return outcome
    finally:
        if on_abortable is not None:
            on_abortable(None)
    outcome.raw_content = [block.to_dict() for block in message.content]
    outcome.blocks = _to_blocks(outcome.raw_content)
    outcome.stop_reason = message.stop_reason
    outcome.usage = _usage_of(message.usage)
    return outcome


def _aborter(stream: Any) -> Callable[[], None]:
    """Cut the stream's connection: closing alone does not wake a reader blocked in recv."""

    def abort() -> None:
        network = stream.response.extensions.get("network_stream")
        sock = network.get_extra_info("socket") if network is not None else None
        if sock is None:
            stream.close()
            return
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)

    return abort


def _keep_snapshot(stream: Any, outcome: _Outcome) -> None:
    """Keep whatever content arrived before the failure."""
    if stream is None:
        return
    try:
        snapshot = stream.current_message_snapshot
    except (AssertionError, AttributeError, RuntimeError):
        return  # nothing arrived: no message_start yet
    outcome.raw_content = [block.to_dict() for block in snapshot.content]
    outcome.blocks = _to_blocks(outcome.raw_content)
    outcome.usage = _usage_of(snapshot.usage)


def _to_blocks(raw_content: list[dict[str, Any]]) -> list[ContentBlock]:
    blocks: list[ContentBlock] = []
    for raw in raw_content:
        try:
            blocks.append(block_from_dict(raw))
        except ValidationError:
            continue  # block types we do not store (thinking, server tools, ...)
    return blocks


def _usage_of(usage: Any) -> Usage:
    return Usage(
        input_tokens=usage.input_tokens or 0,
        output_tokens=usage.output_tokens or 0,
        cache_creation_input_tokens=usage.cache_creation_input_tokens or 0,
        cache_read_input_tokens=usage.cache_read_input_tokens or 0,
    )
