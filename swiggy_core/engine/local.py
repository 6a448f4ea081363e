"""The local engine: the app is the MCP client and runs the model's tool calls itself.

Needed whenever Anthropic's connector cannot reach the servers (loopback, stdio) or the
model endpoint is not Anthropic's. The model gets the server's tools as ordinary client
tools (never the spending ones) plus the approval tool; every `tool_use` is executed here
through the `McpManager`. A spending call is never executed here: only the app runs one,
after the person confirmed a stored approval. A `request_confirmation` call ends the turn
unanswered, as in the connector engine. The stored result looks exactly like a connector
turn, so everything downstream is shared. A result with structuredContent is kept whole:
its summary text and then its JSON object, as two text blocks (the model gets both).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import anthropic

from swiggy_core.constants import APPROVAL_TOOL_NAME
from swiggy_core.conversation import StreamParams, sanitize_assistant_blocks
from swiggy_core.engine.errors import ToolError, classify_mcp_tool_error
from swiggy_core.engine.events import (
    RetryScheduled,
    StreamEvent,
    StreamFailed,
    TextDelta,
    ToolFinished,
    ToolStarted,
    TurnDone,
)
from swiggy_core.engine.local_history import (
    to_client_tool_messages,
    to_stored_blocks,
    tool_result_block,
)
from swiggy_core.engine.retry import RetryPolicy
from swiggy_core.engine.setup import TurnSetup, build_turn_params
from swiggy_core.engine.stream import (
    AbortHook,
    StopCheck,
    _never,
    _ToolErrorBudget,
    run_message_stream,
)
from swiggy_core.mcp.client import McpCallError
from swiggy_core.mcp.manager import McpManager, ToolOutput
from swiggy_core.models import ChatMessage, ContentBlock, ErrorInfo, ToolUseBlock, TurnResult, Usage
from swiggy_core.tool_errors import category_of
from swiggy_core.verticals import Vertical, get_vertical
from swiggy_core.verticals.policy import ToolPolicy

# Tool rounds per turn; after the last one the model must answer without tools.
MAX_TOOL_ROUNDS = 8
HELD_MESSAGE = (
    "{tool} is not available to you: it spends money. Call "
    + APPROVAL_TOOL_NAME
    + " with the exact arguments; the person decides."
)


@dataclass
class _Turn:
    """What the rounds of one turn add up to."""

    blocks: list[ContentBlock] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    stop_reason: str | None = None
    error: ErrorInfo | None = None
    headers: dict[str, str] = field(default_factory=dict)
    attempts: int = 0
    stopped: bool = False

    def add(self, result: TurnResult) -> None:
        self.usage = self.usage + result.usage
        self.stop_reason = result.stop_reason
        self.error = result.error
        self.headers.update(result.rate_limit_headers)
        self.attempts += result.attempts
        self.stopped = self.stopped or result.stopped


@dataclass(frozen=True)
class _Tools:
    """Where and how this turn's tools run."""

    manager: McpManager
    url: str
    token: str | None = field(repr=False)
    server_name: str
    policy: ToolPolicy

    def held(self, name: str) -> bool:
        """Spending tools never run here, whatever the model asks (the approval gate)."""
        return self.policy.is_money_spending(name)


def run_local_turn(
    client: anthropic.Anthropic,
    setup: TurnSetup,
    messages: Sequence[ChatMessage],
    *,
    manager: McpManager,
    pending_approval: str | None = None,
    now: datetime | None = None,
    retry_policy: RetryPolicy | None = None,
    sleep: Callable[[float], None] = time.sleep,
    should_stop: StopCheck = _never,
    on_abortable: AbortHook | None = None,
    max_rounds: int = MAX_TOOL_ROUNDS,
) -> Generator[StreamEvent, None, TurnResult]:
    """Stream the reply to the conversation `messages`, running tool calls here."""
    vertical = get_vertical(setup.vertical_id)
    tools = _tools_for(setup, vertical, manager)
    turn = _Turn()
    try:
        listing = manager.list_tools(tools.url, tools.token) if tools.token else []
    except McpCallError as error:
        turn.error = _error_info(error)
        return (yield from _finish(turn))
    params = local_params(setup, messages, listing, pending_approval=pending_approval, now=now)
    wire: list[dict[str, Any]] = params["messages"]
    budget = _ToolErrorBudget()
    for round_index in range(max_rounds + 1):
        request: StreamParams = {**params, "messages": wire}
        if listing and round_index == max_rounds:
            request["tool_choice"] = {"type": "none"}  # out of rounds: answer now
        stream = run_message_stream(
            client,
            request,
            timeout=setup.timeout,
            retry_policy=retry_policy,
            sleep=sleep,
            should_stop=should_stop,
            on_abortable=on_abortable,
        )
        result = yield from _relay(stream)
        turn.add(result)
        uses = [block for block in result.blocks if isinstance(block, ToolUseBlock)]
        asks = [use for use in uses if use.name == APPROVAL_TOOL_NAME]
        calls = [use for use in uses if use.name != APPROVAL_TOOL_NAME]
        final = result.error is not None or result.stopped or result.stop_reason != "tool_use"
        if final or not uses or round_index == max_rounds:
            turn.blocks += to_stored_blocks(result.blocks, {}, tools.server_name, keep=asks)
            break
        outputs = yield from _execute(calls, tools, budget, turn)
        turn.blocks += to_stored_blocks(result.blocks, outputs, tools.server_name, keep=asks)
        if turn.error is not None or asks or should_stop():
            # An approval request ends the turn unanswered: the person answers it.
            turn.stopped = turn.stopped or should_stop()
            break
        answers = [
            tool_result_block(use.id, out.texts(), out.is_error, use.input)
            for use in calls
            if (out := outputs.get(use.id)) is not None
        ]
        assistant = {"role": "assistant", "content": [b.to_param() for b in result.blocks]}
        wire = [*wire, assistant, {"role": "user", "content": answers}]
    return (yield from _finish(turn))


def local_params(
    setup: TurnSetup,
    messages: Sequence[ChatMessage],
    tools: Sequence[dict[str, Any]],
    *,
    pending_approval: str | None = None,
    now: datetime | None = None,
) -> StreamParams:
    """The request with the server's tools as client tools and tool rounds split."""
    params = build_turn_params(
        setup,
        messages,
        tool_mode="local",
        client_tools=tools,
        pending_approval=pending_approval,
        now=now,
    )
    params["messages"] = to_client_tool_messages(params["messages"])
    return params


def _tools_for(setup: TurnSetup, vertical: Vertical, manager: McpManager) -> _Tools:
    server = vertical.server
    return _Tools(
        manager=manager,
        url=(setup.server_urls or {}).get(server.key, server.url),
        token=setup.swiggy_token,
        server_name=server.name,
        policy=vertical.tool_policy,
    )


def _relay(stream: Iterator[StreamEvent]) -> Generator[StreamEvent, None, TurnResult]:
    """Pass text and retries through; tool events come from execution, the end from us."""
    result = TurnResult()
    for event in stream:
        if isinstance(event, TextDelta | RetryScheduled):
            yield event
        elif isinstance(event, TurnDone):
            result = event.result
    return result


def _execute(
    uses: Sequence[ToolUseBlock], tools: _Tools, budget: _ToolErrorBudget, turn: _Turn
) -> Generator[StreamEvent, None, dict[str, ToolOutput]]:
    """Run one round's calls in order; stop early when the error budget says so."""
    outputs: dict[str, ToolOutput] = {}
    for use in uses:
        if tools.held(use.name):
            outputs[use.id] = ToolOutput(HELD_MESSAGE.format(tool=use.name), True)
            continue
        yield ToolStarted(use.id, use.name, tools.server_name, dict(use.input))
        output, tool_error = _call(tools, use)
        outputs[use.id] = output
        yield ToolFinished(use.id, use.name, output.is_error, output.text, tool_error)
        if tool_error is not None and budget.record(tool_error):
            turn.error = ErrorInfo(
                code=tool_error.code,
                category=f"tool_{tool_error.category}",
                message=tool_error.message,
            )
            break
    return outputs


def _call(tools: _Tools, use: ToolUseBlock) -> tuple[ToolOutput, ToolError | None]:
    try:
        output = tools.manager.call_tool(tools.url, tools.token, use.name, use.input)
    except McpCallError as error:
        # The model sees what went wrong and may try again; the budget bounds that.
        category = category_of(error.code)
        message = _error_info(error).message
        return ToolOutput(str(error), True), ToolError(category, error.code, message, str(error))
    if not output.is_error:
        return output, None
    return output, classify_mcp_tool_error(output.text)


def _error_info(error: McpCallError) -> ErrorInfo:
    category = f"tool_{category_of(error.code)}"
    return ErrorInfo(code=error.code.value, category=category, message=error.message)


def _finish(turn: _Turn) -> Generator[StreamEvent, None, TurnResult]:
    result = TurnResult(
        blocks=sanitize_assistant_blocks(turn.blocks),
        usage=turn.usage,
        stop_reason=turn.stop_reason,
        error=turn.error,
        rate_limit_headers=turn.headers,
        attempts=max(turn.attempts, 1),
        stopped=turn.stopped,
    )
    if result.error is not None:
        yield StreamFailed(error=result.error)
    yield TurnDone(result=result)
    return result
