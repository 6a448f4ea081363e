"""Pre- and post-tool hooks: what every tool call passes through, in either engine.

Pre hooks run before a call and may refuse it with a reason the model reads (as the
tool's error result; the turn goes on). Post hooks see every outcome: the audit, and what
the model gets of a large result. The server is never called for a refused call.

The built-in hooks and the default set live in `swiggy_core.hooks.rules`.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from swiggy_core.errors import ErrorCode
from swiggy_core.mcp.manager import ToolOutput
from swiggy_core.models import ChatMessage, ToolResult, ToolUse, result_text, tool_pairs
from swiggy_core.store.tool_audit import Outcome
from swiggy_core.tool_errors import classify_mcp_tool_error

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class ToolExchange:
    """An earlier call of this conversation and its result, as hooks check against it."""

    tool: str
    arguments: Mapping[str, Any]
    texts: tuple[str, ...]
    is_error: bool = False


@dataclass(frozen=True, slots=True)
class ToolCallInfo:
    """One call about to run: who, where, which tool, with what, after which calls."""

    user_id: str
    vertical_id: str
    conversation_id: str | None
    server: str  # the server's key ("instamart", or an extra server's key)
    tool: str  # the server's own tool name (never the prefixed one)
    arguments: Mapping[str, Any]
    history: tuple[ToolExchange, ...] = ()


# What a card says of a refused call when its hook gives no words for the person.
NOT_RUN: Final = "This step was not run."


@dataclass(frozen=True, slots=True)
class Denial:
    """A refused call: `reason` is what the model reads; `shown` what its card says."""

    reason: str
    code: ErrorCode = ErrorCode.HOOK_DENIED
    shown: str = NOT_RUN


def refusal_text(shown: str, for_model: str) -> str:
    """The result of a call that did not run, as Swiggy's envelope: the person's words are
    its error (all a card shows), the model's instructions ride beside them."""
    body = {"success": False, "error": {"message": shown}, "instructions": for_model}
    return json.dumps(body, ensure_ascii=False)


@dataclass(frozen=True, slots=True)
class ToolOutcome:
    """What a call came to (a refused one too) and how long it took."""

    info: ToolCallInfo
    output: ToolOutput
    duration_ms: float
    error_code: str | None
    denied: bool = False

    @property
    def outcome(self) -> Outcome:
        if self.denied:
            return "denied"
        return "error" if self.output.is_error or self.error_code else "ok"


PreHook = Callable[[ToolCallInfo], Denial | None]
PostHook = Callable[[ToolOutcome], ToolOutput | None]


@dataclass(frozen=True)
class ToolHooks:
    """The pre and post hooks of a session; a hook that breaks is logged and skipped.

    `post` hooks see every outcome (the audit); `shape` hooks then make what the model
    gets of it, and run only where a model will read the output (`after`, not `observe`).
    """

    pre: tuple[PreHook, ...] = ()
    post: tuple[PostHook, ...] = ()
    shape: tuple[PostHook, ...] = ()

    def before(self, info: ToolCallInfo) -> Denial | None:
        """The first refusal, or None when every pre hook lets the call run."""
        for hook in self.pre:
            try:
                denial = hook(info)
            except Exception as error:  # a broken check must not block the person
                logger.warning("pre-tool hook failed for %s (%s)", info.tool, type(error).__name__)
                continue
            if denial is not None:
                return denial
        return None

    def after(self, outcome: ToolOutcome) -> ToolOutput:
        """Run every post hook, then every shape hook, in order; the output the last one
        gave is what the model gets."""
        return _run(self.shape, _run(self.post, outcome)).output

    def observe(self, outcome: ToolOutcome) -> None:
        """Run the post hooks only, for an outcome no model reads from here: a result the
        connector already gave the model, a call the app runs itself."""
        _run(self.post, outcome)


def _run(hooks: tuple[PostHook, ...], outcome: ToolOutcome) -> ToolOutcome:
    for hook in hooks:
        try:
            changed = hook(outcome)
        except Exception as error:  # an audit fault must never fail the turn
            logger.warning(
                "post-tool hook failed for %s (%s)", outcome.info.tool, type(error).__name__
            )
            continue
        if changed is not None:
            outcome = replace(outcome, output=changed)
    return outcome


NO_HOOKS = ToolHooks()


@dataclass(frozen=True, slots=True)
class CallScope:
    """Who the calls of a turn belong to (the engines add server, tool and arguments)."""

    user_id: str = ""
    vertical_id: str = ""
    conversation_id: str | None = None
    history: tuple[ToolExchange, ...] = field(default=(), repr=False)

    def info(self, server: str, tool: str, arguments: Mapping[str, Any]) -> ToolCallInfo:
        return ToolCallInfo(
            user_id=self.user_id,
            vertical_id=self.vertical_id,
            conversation_id=self.conversation_id,
            server=server,
            tool=tool,
            arguments=dict(arguments),
            history=self.history,
        )

    def with_exchange(self, exchange: ToolExchange) -> CallScope:
        """The scope after one more call of this turn (later checks see its result)."""
        return replace(self, history=(*self.history, exchange))


def exchanges_of(messages: Sequence[ChatMessage]) -> tuple[ToolExchange, ...]:
    """Every answered tool call of a conversation, oldest first."""
    return tuple(
        exchange_of(pair.use, pair.result)
        for pair in tool_pairs(messages)
        if pair.result is not None
    )


def exchange_of(use: ToolUse, result: ToolResult) -> ToolExchange:
    """One answered tool call, as the hooks check against it."""
    content = result.content
    texts = (content,) if isinstance(content, str) else tuple(part.text for part in content)
    return ToolExchange(
        tool=use.name,
        arguments=dict(use.input),
        texts=texts or (result_text(result),),
        is_error=bool(result.is_error),
    )


def error_code_of(output: ToolOutput) -> str | None:
    """The coded error of a result: its failure classified, or None when it succeeded."""
    if output.is_error or _refused_envelope(output):
        return str(classify_mcp_tool_error(output.envelope_text()).code)
    return None


def outcome_of(
    info: ToolCallInfo, output: ToolOutput, started: float, error_code: str | None = None
) -> ToolOutcome:
    """The outcome of a call that ran from `started` (a `time.perf_counter()` value) to now."""
    duration_ms = (time.perf_counter() - started) * 1000
    return ToolOutcome(info, output, duration_ms, error_code or error_code_of(output))


def denied_outcome(info: ToolCallInfo, denial: Denial) -> ToolOutcome:
    """A refused call as an outcome: an error result, nothing was called."""
    output = ToolOutput(refusal_text(denial.shown, denial.reason), True)
    return ToolOutcome(info, output, 0.0, str(denial.code), denied=True)


def _refused_envelope(output: ToolOutput) -> bool:
    """`success: false` in the result's envelope, read without parsing a successful one."""
    if output.structured is not None:
        return output.structured.get("success") is False
    if '"success"' not in output.text or not output.text.lstrip().startswith("{"):
        return False
    try:
        payload = json.loads(output.text)
    except ValueError:
        return False
    return isinstance(payload, dict) and payload.get("success") is False
