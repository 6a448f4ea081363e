"""Stream one conversation turn through the real SDK and yield typed UI events.

`run_message_stream` is a generator: pages iterate it (text deltas go straight into
`st.write_stream`); the last event is `TurnDone` carrying the `TurnResult`, which is
also the generator's return value. A broken stream never loses what already arrived.
"""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass, field
from typing import Any

import anthropic
import httpx2
from pydantic import ValidationError

from swiggy_core.constants import (
    CONNECT_TIMEOUT_SECONDS,
    MAX_PAUSE_CONTINUATIONS,
    MCP_AUTH_ERROR_LIMIT,
    MCP_TOOL_ERROR_LIMIT,
    STREAM_TIMEOUT_SECONDS,
)
from swiggy_core.conversation import sanitize_assistant_blocks
from swiggy_core.engine.connector_hooks import ConnectorCalls
from swiggy_core.engine.errors import (
    OVERLOADED,
    RATE_LIMIT,
    SERVER,
    TIMEOUT,
    ToolError,
    ToolErrorCategory,
    classify_api_error,
    classify_mcp_tool_error,
    error_info,
)
from swiggy_core.engine.events import (
    RetryScheduled,
    StreamEvent,
    StreamFailed,
    TextDelta,
    ToolFinished,
    ToolStarted,
    TurnDone,
)
from swiggy_core.engine.retry import RetryPolicy, extract_rate_limit_headers
from swiggy_core.hooks import CallScope, ToolHooks
from swiggy_core.models import ContentBlock, ErrorInfo, TurnResult, Usage, block_from_dict
from swiggy_core.tool_errors import RECONNECT_CATEGORIES, tool_error_info

Clock = Callable[[], float]
StopCheck = Callable[[], bool]
# Receives a function that aborts the open stream (None once it is closed), so Stop can
# end a reply that stalls between events.
AbortHook = Callable[[Callable[[], None] | None], None]
# In-stream errors arrive with HTTP 200; retry decisions need the status they stand for.
_CATEGORY_STATUS = {RATE_LIMIT: 429, SERVER: 500, OVERLOADED: 529}


# Nothing the model can do about these within the turn: stop and tell the person.
_STOP_AT_ONCE = frozenset({ToolErrorCategory.ADDRESS, ToolErrorCategory.RATE_LIMIT})


class _DeadlineExceeded(Exception):
    """The whole stream took longer than the turn timeout."""


class _Stopped(Exception):
    """The person pressed Stop."""


def _never() -> bool:
    return False


@dataclass
class _Outcome:
    blocks: list[ContentBlock] = field(default_factory=list)
    raw_content: list[dict[str, Any]] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    stop_reason: str | None = None
    error: ErrorInfo | None = None
    rate_limit_headers: dict[str, str] = field(default_factory=dict)
    stopped: bool = False


@dataclass
class _ToolErrorBudget:
    """Counts tool errors in one turn and says when the turn must stop."""

    total: int = 0
    auth: int = 0

    def record(self, error: ToolError) -> bool:
        """Record one error; True means abort the turn now."""
        self.total += 1
        if error.category in RECONNECT_CATEGORIES:
            self.auth += 1
            return self.auth >= MCP_AUTH_ERROR_LIMIT
        if error.category in _STOP_AT_ONCE:
            return True
        return self.total >= MCP_TOOL_ERROR_LIMIT


def run_message_stream(
    client: anthropic.Anthropic,
    params: Mapping[str, Any],
    *,
    timeout: float = STREAM_TIMEOUT_SECONDS,
    retry_policy: RetryPolicy | None = None,
    sleep: Callable[[float], None] = time.sleep,
    clock: Clock = time.monotonic,
    should_stop: StopCheck = _never,
    on_abortable: AbortHook | None = None,
    hooks: ToolHooks | None = None,
    scope: CallScope | None = None,
) -> Generator[StreamEvent, None, TurnResult]:
    """Stream one turn: retries before any content, continues after pause_turn.

    `should_stop` is polled between events: True ends the turn, keeping what arrived.
    Every `mcp_tool_result` the connector returns goes through the post `hooks` (audit,
    error detection) as a call of `scope`.
    """
    policy = retry_policy or RetryPolicy()
    messages = list(params["messages"])
    budget = _ToolErrorBudget()
    calls = ConnectorCalls(hooks or ToolHooks(), scope or CallScope())
    blocks: list[ContentBlock] = []
    usage = Usage()
    headers: dict[str, str] = {}
    attempts = retries = continuations = 0
    while True:
        attempts += 1
        request = {**params, "messages": messages}
        outcome = yield from _stream_once(
            client, request, timeout, clock, (budget, calls), should_stop, on_abortable
        )
        headers.update(outcome.rate_limit_headers)
        delay = None if should_stop() else _retry_delay(outcome, policy, retries)
        if delay is not None and outcome.error is not None:
            yield RetryScheduled(attempt=retries + 1, delay_seconds=delay, error=outcome.error)
            sleep(delay)
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
    client: anthropic.Anthropic,
    request: dict[str, Any],
    timeout: float,
    clock: Clock,
    tracking: tuple[_ToolErrorBudget, ConnectorCalls],
    should_stop: StopCheck,
    on_abortable: AbortHook | None,
) -> Generator[StreamEvent, None, _Outcome]:
    deadline = clock() + timeout
    outcome = _Outcome()
    stream = None
    http_timeout = httpx2.Timeout(timeout, connect=min(timeout, CONNECT_TIMEOUT_SECONDS))
    try:
        with client.beta.messages.stream(**request, timeout=http_timeout) as stream:
            if on_abortable is not None:
                on_abortable(_aborter(stream))
            outcome.rate_limit_headers = extract_rate_limit_headers(stream.response.headers)
            for event in stream:
                if should_stop():
                    raise _Stopped
                if clock() > deadline:
                    raise _DeadlineExceeded
                abort = yield from _handle_event(event, stream, *tracking)
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


def _handle_event(
    event: Any, stream: Any, budget: _ToolErrorBudget, calls: ConnectorCalls
) -> Generator[StreamEvent, None, ErrorInfo | None]:
    """Yield UI events for one SDK event; return an ErrorInfo when the turn must abort."""
    if event.type == "text":
        yield TextDelta(text=event.text)
    elif event.type == "content_block_stop":
        block = stream.current_message_snapshot.content[event.index]
        if block.type in ("mcp_tool_use", "tool_use"):
            calls.started(block.id)
            # The input is complete only once the block stops (it arrives as JSON deltas).
            yield ToolStarted(
                tool_use_id=block.id,
                name=block.name,
                server_name=getattr(block, "server_name", None),
                input=dict(block.input or {}),
            )
    elif event.type == "content_block_start" and event.content_block.type == "mcp_tool_result":
        return (yield from _tool_result(event.content_block, stream, budget, calls))
    return None


def _tool_result(
    block: Any, stream: Any, budget: _ToolErrorBudget, calls: ConnectorCalls
) -> Generator[StreamEvent, None, ErrorInfo | None]:
    text = block.content if isinstance(block.content, str) else _joined_text(block.content)
    use = _tool_use(stream, block.tool_use_id)
    name = str(getattr(use, "name", ""))
    tool_error = classify_mcp_tool_error(text) if block.is_error else None
    arguments = dict(getattr(use, "input", None) or {})
    server = getattr(use, "server_name", None)
    calls.finished(block.tool_use_id, name, server, arguments, text, bool(block.is_error))
    yield ToolFinished(
        tool_use_id=block.tool_use_id,
        name=name,
        is_error=bool(block.is_error),
        content_text=text,
        error=tool_error,
    )
    if tool_error is not None and budget.record(tool_error):
        return tool_error_info(tool_error, name)
    return None


def _joined_text(parts: Any) -> str:
    return "".join(getattr(part, "text", "") for part in parts or [])


def _tool_use(stream: Any, tool_use_id: str) -> Any:
    """The use block a result answers (None when it is not in the snapshot)."""
    for block in stream.current_message_snapshot.content:
        if getattr(block, "id", None) == tool_use_id:
            return block
    return None


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
