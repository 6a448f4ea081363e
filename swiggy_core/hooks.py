"""Pre- and post-tool hooks: what every tool call passes through, in either engine.

Pre hooks run before a call and may refuse it with a reason the model reads (as the
tool's error result; the turn goes on). Post hooks see every outcome: the audit, and what
the model gets of a large result. The server is never called for a refused call.

The default set (`default_hooks`): a switched-off server is refused, `book_table` needs a
slot some `get_available_slots` of this conversation returned, the per-user rate budget
is spent; every outcome is audited and large results are shrunk for the model.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, Protocol

from swiggy_core.errors import ErrorCode
from swiggy_core.mcp.manager import ToolOutput, shrink_for_model
from swiggy_core.models import ChatMessage, result_text, tool_pairs
from swiggy_core.store.tool_audit import Outcome, ToolCallEntry, world_of
from swiggy_core.tool_errors import classify_mcp_tool_error

logger = logging.getLogger(__name__)

SLOT_TOOL = "get_available_slots"
BOOKING_TOOL = "book_table"
SLOT_NEEDED = "book_table needs a slot from get_available_slots"
_SLOT_KEYS = ("slotId", "slot_id")


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


@dataclass(frozen=True, slots=True)
class Denial:
    """A refused call: the reason is what the model reads."""

    reason: str
    code: ErrorCode = ErrorCode.HOOK_DENIED


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
    """The pre and post hooks of a session; a hook that breaks is logged and skipped."""

    pre: tuple[PreHook, ...] = ()
    post: tuple[PostHook, ...] = ()

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
        """Run every post hook in order; the output the last one gave is what the model gets."""
        for hook in self.post:
            try:
                changed = hook(outcome)
            except Exception as error:  # an audit fault must never fail the turn
                logger.warning(
                    "post-tool hook failed for %s (%s)", outcome.info.tool, type(error).__name__
                )
                continue
            if changed is not None:
                outcome = replace(outcome, output=changed)
        return outcome.output


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
    found: list[ToolExchange] = []
    for pair in tool_pairs(messages):
        if pair.result is None:
            continue
        content = pair.result.content
        texts = (content,) if isinstance(content, str) else tuple(part.text for part in content)
        found.append(
            ToolExchange(
                tool=pair.use.name,
                arguments=dict(pair.use.input),
                texts=texts or (result_text(pair.result),),
                is_error=bool(pair.result.is_error),
            )
        )
    return tuple(found)


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
    """A refused call as an outcome: the reason as an error result, nothing was called."""
    output = ToolOutput(denial.reason, True)
    return ToolOutcome(info, output, 0.0, str(denial.code), denied=True)


# --- pre hooks ---------------------------------------------------------------------------


class Budget(Protocol):
    """`swiggy_core.mcp.budget.RateBudget`: None allows the call, else why it may not run."""

    def take(self, user: str, server: str, tool: str) -> str | None: ...


def rate_budget(budget: Budget) -> PreHook:
    """Spend one call (and one write, for a write tool) of the person's budget."""

    def hook(info: ToolCallInfo) -> Denial | None:
        refusal = budget.take(info.user_id, info.server, info.tool)
        return None if refusal is None else Denial(refusal, ErrorCode.RATE_BUDGET)

    return hook


def disabled_servers(keys: Callable[[], Collection[str]]) -> PreHook:
    """Refuse calls to a server that is switched off (`keys` is read at call time)."""

    def hook(info: ToolCallInfo) -> Denial | None:
        if info.server not in keys():
            return None
        return Denial(
            f"The server {info.server!r} is switched off, so {info.tool} cannot run. "
            "Tell the person; they can switch it on under Connections → Servers.",
            ErrorCode.SERVER_DISABLED,
        )

    return hook


def require_listed_slot(info: ToolCallInfo) -> Denial | None:
    """`book_table` only with a slot that an earlier `get_available_slots` returned."""
    if info.tool != BOOKING_TOOL:
        return None
    slot = next((info.arguments[k] for k in _SLOT_KEYS if info.arguments.get(k)), None)
    listed = _listed_slots(info.history)
    if slot is not None and str(slot) in listed:
        return None
    return Denial(
        f"{SLOT_NEEDED}: call {SLOT_TOOL} for this restaurant and date first, then use "
        "one of the slotId values it returned."
    )


def _listed_slots(history: Iterable[ToolExchange]) -> set[str]:
    slots: set[str] = set()
    for exchange in history:
        if exchange.tool != SLOT_TOOL or exchange.is_error:
            continue
        for text in exchange.texts:
            try:
                slots |= set(_values_of(json.loads(text), _SLOT_KEYS))
            except ValueError:
                continue  # a prose summary: its JSON block carries the ids
    return slots


def _values_of(node: Any, keys: Sequence[str]) -> Iterable[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key in keys and isinstance(value, str | int):
                yield str(value)
            else:
                yield from _values_of(value, keys)
    elif isinstance(node, list):
        for item in node:
            yield from _values_of(item, keys)


# --- post hooks --------------------------------------------------------------------------


def audit_to(
    record: Callable[[ToolCallEntry], None],
    *,
    world: str | None = None,
    clock: Callable[[], datetime] = lambda: datetime.now(UTC),
) -> PostHook:
    """Write each outcome to the audit; a store fault is logged (no secrets) and ignored."""

    def hook(outcome: ToolOutcome) -> None:
        info = outcome.info
        entry = ToolCallEntry(
            at=clock(),
            user_id=info.user_id,
            world=world_of(info.user_id) if world is None else world,
            vertical_id=info.vertical_id,
            conversation_id=info.conversation_id,
            server=info.server,
            tool=info.tool,
            arguments=dict(info.arguments),
            outcome=outcome.outcome,
            duration_ms=outcome.duration_ms,
            error_code=outcome.error_code,
        )
        try:
            record(entry)
        except Exception as error:
            code = getattr(error, "code", None) or type(error).__name__
            logger.warning("tool call audit not stored for %s (%s)", info.tool, code)

    return hook


def shrink_result(outcome: ToolOutcome) -> ToolOutput:
    """What the model gets of a large result (the stored result and the cards keep it all)."""
    output = outcome.output
    return output._replace(text=shrink_for_model(output.text, outcome.info.arguments))


def default_hooks(
    record: Callable[[ToolCallEntry], None],
    *,
    budget: Budget | None = None,
    disabled: Callable[[], Collection[str]] | None = None,
    world: str | None = None,
) -> ToolHooks:
    """The hooks a session uses unless its setup brings its own (the budget spends last)."""
    pre: list[PreHook] = []
    if disabled is not None:
        pre.append(disabled_servers(disabled))
    pre.append(require_listed_slot)
    if budget is not None:
        pre.append(rate_budget(budget))
    return ToolHooks(pre=tuple(pre), post=(audit_to(record, world=world), shrink_result))


def _refused_envelope(output: ToolOutput) -> bool:
    try:
        payload = json.loads(output.envelope_text())
    except ValueError:
        return False
    return isinstance(payload, dict) and payload.get("success") is False
