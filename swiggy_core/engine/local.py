"""The local engine: the app is the MCP client and runs the model's tool calls itself.

Needed whenever Anthropic's connector cannot reach the servers (loopback, stdio) or the
model endpoint is not Anthropic's. The model gets the server's tools as ordinary client
tools (never the spending ones) plus the approval tool; every `tool_use` is executed here
through the `McpManager`. A spending call is never executed here: only the app runs one,
after the person confirmed a stored approval. A `request_confirmation` call ends the turn
unanswered, as in the connector engine. The stored result looks exactly like a connector
turn, so everything downstream is shared. A result with structuredContent is kept whole:
its summary text and then its JSON object, as two text blocks (the model gets both).
Every call passes the session's hooks (`swiggy_core.hooks`); the tools of the page's
extra servers are offered under prefixed names (`swiggy_core.engine.local_tools`).
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from swiggy_core.constants import APPROVAL_TOOL_NAME
from swiggy_core.conversation import StreamParams, sanitize_assistant_blocks
from swiggy_core.engine.events import (
    RetryScheduled,
    StreamEvent,
    StreamFailed,
    TextDelta,
    ToolFinished,
    ToolStarted,
    TurnDone,
)
from swiggy_core.engine.exchanges import conversation_exchanges
from swiggy_core.engine.local_history import (
    to_client_tool_messages,
    to_stored_blocks,
    tool_result_block,
    with_round_breakpoint,
)
from swiggy_core.engine.local_tools import HELD_MESSAGE, LocalTools
from swiggy_core.engine.requests import TurnRequest
from swiggy_core.engine.setup import TurnSetup, build_turn_params
from swiggy_core.engine.stream import run_message_stream
from swiggy_core.engine.tool_error_budget import ToolErrorBudget
from swiggy_core.hooks import NO_HOOKS, CallScope
from swiggy_core.mcp.client import McpCallError
from swiggy_core.mcp.manager import McpManager, ToolOutput, shared_manager
from swiggy_core.models import (
    ChatMessage,
    ContentBlock,
    ErrorInfo,
    McpToolUseBlock,
    ToolUseBlock,
    TurnResult,
    Usage,
)
from swiggy_core.tool_errors import category_of
from swiggy_core.verticals import get_vertical

__all__ = ["HELD_MESSAGE", "MAX_TOOL_ROUNDS", "LocalEngine", "local_params"]

# Tool rounds per turn; after the last one the model must answer without tools.
MAX_TOOL_ROUNDS = 8


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


@dataclass(frozen=True, slots=True)
class LocalEngine:
    """The app runs the model's tool calls itself, at most `max_rounds` rounds a turn."""

    max_rounds: int = MAX_TOOL_ROUNDS
    name: Literal["local"] = "local"

    def stream(self, request: TurnRequest) -> Generator[StreamEvent, None, TurnResult]:
        """Stream the reply to `request.messages`, running tool calls here."""
        setup, messages, should_stop = request.setup, request.messages, request.should_stop
        manager = request.manager or shared_manager()
        scope = request.scope or CallScope(vertical_id=setup.vertical_id)
        tools = _tools_for(setup, manager, scope, messages)
        turn = _Turn()
        try:
            listing = tools.listing()
        except McpCallError as error:
            turn.error = _error_info(error)
            return (yield from _finish(turn))
        params = local_params(
            setup,
            messages,
            listing,
            pending_approval=request.pending_approval,
            now=request.now,
            confirmable=tools.confirmable(),
        )
        wire: list[dict[str, Any]] = params["messages"]
        budget = ToolErrorBudget()
        for round_index in range(self.max_rounds + 1):
            round_params: StreamParams = {**params, "messages": wire}
            if listing and round_index == self.max_rounds:
                round_params["tool_choice"] = {"type": "none"}  # out of rounds: answer now
            result = yield from _relay(run_message_stream(request.model_stream(round_params)))
            turn.add(result)
            uses = [block for block in result.blocks if isinstance(block, ToolUseBlock)]
            asks = [use for use in uses if use.name == APPROVAL_TOOL_NAME]
            calls = [use for use in uses if use.name != APPROVAL_TOOL_NAME]
            final = result.error is not None or result.stopped or result.stop_reason != "tool_use"
            if final or not uses or round_index == self.max_rounds:
                turn.blocks += to_stored_blocks(result.blocks, {}, tools.server_name, keep=asks)
                break
            outputs, for_model = yield from _execute(calls, tools, budget, turn)
            turn.blocks += _stored(result.blocks, outputs, tools, asks)
            if turn.error is not None or asks or should_stop():
                # An approval request ends the turn unanswered: the person answers it.
                turn.stopped = turn.stopped or should_stop()
                break
            answers = [
                tool_result_block(
                    use.id, [p.to_param() for p in out.parts()], out.is_error, use.input
                )
                for use in calls
                if (out := for_model.get(use.id)) is not None
            ]
            assistant = {"role": "assistant", "content": [b.to_param() for b in result.blocks]}
            wire = with_round_breakpoint(
                [*wire, assistant, {"role": "user", "content": answers}],
                model=setup.model,
                tools=params.get("tools", ()),
                system=params["system"],
            )  # each tool round reads the prefix the round before wrote
        return (yield from _finish(turn))


def local_params(
    setup: TurnSetup,
    messages: Sequence[ChatMessage],
    tools: Sequence[dict[str, Any]],
    *,
    pending_approval: str | None = None,
    now: datetime | None = None,
    confirmable: Sequence[dict[str, Any]] = (),
) -> StreamParams:
    """The request with the server's tools as client tools and tool rounds split."""
    params = build_turn_params(
        setup,
        messages,
        tool_mode="local",
        client_tools=tools,
        pending_approval=pending_approval,
        now=now,
        confirmable=confirmable,
    )
    params["messages"] = to_client_tool_messages(params["messages"])
    return params


def _tools_for(
    setup: TurnSetup, manager: McpManager, scope: CallScope, messages: Sequence[ChatMessage]
) -> LocalTools:
    vertical = get_vertical(setup.vertical_id)
    server = vertical.server
    return LocalTools(
        manager=manager,
        url=setup.server_url(server.key, server.url),
        token=setup.swiggy_token,
        server_key=server.key,
        server_name=server.name,
        policy=vertical.tool_policy,
        hooks=setup.hooks or NO_HOOKS,
        scope=CallScope(
            user_id=scope.user_id,
            vertical_id=scope.vertical_id or setup.vertical_id,
            conversation_id=scope.conversation_id,
            history=scope.history or conversation_exchanges(messages),
        ),
        extra_servers=setup.extra_servers,
    )


def _stored(
    blocks: Sequence[ContentBlock],
    outputs: dict[str, ToolOutput],
    tools: LocalTools,
    asks: Sequence[ToolUseBlock],
) -> list[ContentBlock]:
    """The round in the connector's format; an extra server's calls name that server."""
    stored = to_stored_blocks(blocks, outputs, tools.server_name, keep=asks)
    return [
        block.model_copy(update={"server_name": tools.server_of(block.name)})
        if isinstance(block, McpToolUseBlock) and block.name in tools.extra
        else block
        for block in stored
    ]


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
    uses: Sequence[ToolUseBlock], tools: LocalTools, budget: ToolErrorBudget, turn: _Turn
) -> Generator[StreamEvent, None, tuple[dict[str, ToolOutput], dict[str, ToolOutput]]]:
    """Run one round's calls in order: the full outputs (stored) and what the model reads.

    A held or refused call reaches the model as its error result; the server never sees it.
    The round stops early when the error budget says so.
    """
    outputs: dict[str, ToolOutput] = {}
    for_model: dict[str, ToolOutput] = {}
    for use in uses:
        held = tools.held(use.name)
        if not held:
            yield ToolStarted(use.id, use.name, tools.server_of(use.name), dict(use.input))
        call = tools.run(use)
        outputs[use.id], for_model[use.id] = call.output, call.for_model
        if held:
            continue
        yield ToolFinished(use.id, use.name, call.output.is_error, call.output.text, call.error)
        if call.error is not None and budget.record(call.error):
            turn.error = ErrorInfo(
                code=call.error.code,
                category=f"tool_{call.error.category}",
                message=call.error.message,
                retry_after_seconds=call.error.retry_after_seconds,
            )
            break
    return outputs, for_model


def _error_info(error: McpCallError) -> ErrorInfo:
    category = f"tool_{category_of(error.code)}"
    return ErrorInfo(
        code=error.code.value,
        category=category,
        message=error.message,
        retry_after_seconds=error.retry_after_seconds,
    )


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
