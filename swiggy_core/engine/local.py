"""The local engine: the app is the MCP client and runs the model's tool calls itself.

Needed whenever Anthropic's connector cannot reach the servers (loopback, stdio) or the
model endpoint is not Anthropic's. The model gets the server's tools as ordinary client
tools; every `tool_use` is executed here through the `McpManager`, except money-spending
tools the person did not confirm this turn: those are held at the approval gate. The
stored result looks exactly like a connector turn, so everything downstream is shared.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Generator, Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

import anthropic

from swiggy_core.actions import confirmed_tools
from swiggy_core.constants import BETA_MCP_CLIENT, CACHE_CONTROL_EPHEMERAL
from swiggy_core.conversation import sanitize_assistant_blocks
from swiggy_core.engine.errors import ToolError, ToolErrorCategory, classify_mcp_tool_error
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
from swiggy_core.engine.stream import _ToolErrorBudget, run_message_stream
from swiggy_core.errors import ErrorCode
from swiggy_core.mcp.client import McpCallError
from swiggy_core.mcp.manager import McpManager, ToolOutput, shrink_for_model
from swiggy_core.models import ChatMessage, ContentBlock, ErrorInfo, ToolUseBlock, TurnResult, Usage
from swiggy_core.verticals import Vertical, get_vertical
from swiggy_core.verticals.policy import ToolPolicy

if TYPE_CHECKING:
    from swiggy_core.turns import TurnSetup

# Tool rounds per turn; after the last one the model must answer without tools.
MAX_TOOL_ROUNDS = 8
HELD_MESSAGE = "Held at the approval gate: the person must press Confirm before {tool} runs."
_CATEGORY_BY_CODE = {ErrorCode.TOOL_AUTH: ToolErrorCategory.AUTH}


@dataclass
class _Turn:
    """What the rounds of one turn add up to."""

    blocks: list[ContentBlock] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    stop_reason: str | None = None
    error: ErrorInfo | None = None
    headers: dict[str, str] = field(default_factory=dict)
    attempts: int = 0

    def add(self, result: TurnResult) -> None:
        self.usage = self.usage + result.usage
        self.stop_reason = result.stop_reason
        self.error = result.error
        self.headers.update(result.rate_limit_headers)
        self.attempts += result.attempts


@dataclass(frozen=True)
class _Tools:
    """Where and how this turn's tools run."""

    manager: McpManager
    url: str
    token: str | None
    server_name: str
    policy: ToolPolicy
    confirmed: Collection[str]

    def held(self, name: str) -> bool:
        """Spending tools wait for the person's Confirm (the approval gate)."""
        return self.policy.is_money_spending(name) and name not in self.confirmed


def run_local_turn(
    client: anthropic.Anthropic,
    setup: TurnSetup,
    history: Sequence[ChatMessage],
    user_message: ChatMessage,
    *,
    manager: McpManager,
    now: datetime | None = None,
    retry_policy: RetryPolicy | None = None,
    sleep: Callable[[float], None] = time.sleep,
    max_rounds: int = MAX_TOOL_ROUNDS,
) -> Generator[StreamEvent, None, TurnResult]:
    """Stream the reply to `user_message`, running tool calls here; returns the TurnResult."""
    vertical = get_vertical(setup.vertical_id)
    tools = _tools_for(setup, vertical, manager, user_message)
    turn = _Turn()
    try:
        listing = manager.list_tools(tools.url, tools.token) if tools.token else []
    except McpCallError as error:
        turn.error = _error_info(error)
        return (yield from _finish(turn))
    params = local_params(setup, history, user_message, listing, now=now)
    messages: list[dict[str, Any]] = params.pop("messages")
    budget = _ToolErrorBudget()
    for round_index in range(max_rounds + 1):
        request = {**params, "messages": messages}
        if listing and round_index == max_rounds:
            request["tool_choice"] = {"type": "none"}  # out of rounds: answer now
        stream = run_message_stream(
            client, request, timeout=setup.timeout, retry_policy=retry_policy, sleep=sleep
        )
        result = yield from _relay(stream)
        turn.add(result)
        uses = [block for block in result.blocks if isinstance(block, ToolUseBlock)]
        final = result.error is not None or result.stop_reason != "tool_use"
        if final or not uses or round_index == max_rounds:
            turn.blocks += to_stored_blocks(result.blocks, {}, tools.server_name)
            break
        outputs = yield from _execute(uses, tools, budget, turn)
        turn.blocks += to_stored_blocks(result.blocks, outputs, tools.server_name)
        if turn.error is not None:
            break
        answers = [
            tool_result_block(use.id, shrink_for_model(out.text, use.input), out.is_error)
            for use in uses
            if (out := outputs.get(use.id)) is not None
        ]
        assistant = {"role": "assistant", "content": [b.to_param() for b in result.blocks]}
        messages = [*messages, assistant, {"role": "user", "content": answers}]
    return (yield from _finish(turn))


def local_params(
    setup: TurnSetup,
    history: Sequence[ChatMessage],
    user_message: ChatMessage,
    tools: Sequence[dict[str, Any]],
    *,
    now: datetime | None = None,
) -> dict[str, Any]:
    """The connector engine's request minus MCP: client tools, split tool rounds."""
    from swiggy_core.turns import build_turn_params  # imported late: turns dispatches here

    # Without a token the request builder adds no mcp_servers and no mcp_toolset.
    params = build_turn_params(replace(setup, swiggy_token=None), history, user_message, now=now)
    params["messages"] = to_client_tool_messages(params["messages"])
    params["betas"] = [beta for beta in params["betas"] if beta != BETA_MCP_CLIENT]
    if tools:
        offered = [dict(tool) for tool in tools]
        # The tools open the prompt-cache prefix and rarely change within a session.
        offered[-1]["cache_control"] = dict(CACHE_CONTROL_EPHEMERAL)
        params["tools"] = offered
    return params


def _tools_for(
    setup: TurnSetup, vertical: Vertical, manager: McpManager, user_message: ChatMessage
) -> _Tools:
    server = vertical.server
    return _Tools(
        manager=manager,
        url=(setup.server_urls or {}).get(server.key, server.url),
        token=setup.swiggy_token,
        server_name=server.name,
        policy=vertical.tool_policy,
        confirmed=confirmed_tools(user_message),
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
        category = _CATEGORY_BY_CODE.get(error.code, ToolErrorCategory.SERVER)
        message = _error_info(error).message
        return ToolOutput(str(error), True), ToolError(category, error.code, message, str(error))
    if not output.is_error:
        return output, None
    return output, classify_mcp_tool_error(output.text)


def _error_info(error: McpCallError) -> ErrorInfo:
    category = "tool_auth" if error.code is ErrorCode.TOOL_AUTH else "tool_server"
    return ErrorInfo(code=error.code.value, category=category, message=error.message)


def _finish(turn: _Turn) -> Generator[StreamEvent, None, TurnResult]:
    result = TurnResult(
        blocks=sanitize_assistant_blocks(turn.blocks),
        usage=turn.usage,
        stop_reason=turn.stop_reason,
        error=turn.error,
        rate_limit_headers=turn.headers,
        attempts=max(turn.attempts, 1),
    )
    if result.error is not None:
        yield StreamFailed(error=result.error)
    yield TurnDone(result=result)
    return result
