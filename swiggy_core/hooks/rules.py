"""The built-in tool hooks and the default set every session uses.

The default set (`default_hooks`): a switched-off server is refused, a shop's table
booking (`book_table`) needs a slot its slots read (`get_available_slots`) returned in
this conversation, the per-user rate budget is spent; every outcome is audited and large
results are shrunk for the model.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Collection, Iterable, Sequence
from datetime import UTC, datetime
from typing import Any, Final, Protocol

from swiggy_core.errors import ErrorCode
from swiggy_core.hooks import (
    Denial,
    PostHook,
    PreHook,
    ToolCallInfo,
    ToolExchange,
    ToolHooks,
    ToolOutcome,
)
from swiggy_core.mcp.manager import ToolOutput, shrink_for_model
from swiggy_core.shops import Preparation, find_spender
from swiggy_core.store.tool_audit import ToolCallEntry, world_of
from swiggy_core.verticals.policy import ToolPolicy

logger = logging.getLogger(__name__)

# Opens the refusal of a table booked without a listed slot (the tool, its slots read).
SLOT_NEEDED = "{tool} needs a slot from {slots}"
_SLOT_KEYS = ("slotId", "slot_id")
# Seconds to wait before each new try of an audit write the database was too busy for
# (each try itself waits out the store's busy timeout first): a loaded machine's queue of
# writers clears in a moment, and the entry is written rather than lost.
AUDIT_RETRY_PAUSES: Final = (0.25, 1.0)


# --- pre hooks ---------------------------------------------------------------------------


class Budget(Protocol):
    """`swiggy_core.mcp.budget.RateBudget`: None allows the call, else why it may not run."""

    def take(self, user: str, server: str, tool: str) -> str | None: ...


def rate_budget(budget: Budget) -> PreHook:
    """Spend one call (and one write, for a write tool) of the person's budget.

    A spending tool spends none: through the hooks it is only ever held (the app runs it
    after the person confirms, outside them), so a model retrying it cannot use up the
    budget the person's own cart changes need.
    """
    spending = ToolPolicy()

    def hook(info: ToolCallInfo) -> Denial | None:
        if spending.is_money_spending(info.tool):
            return None
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
    """A table booking only with a slot that an earlier read of its shop's slots returned."""
    found = find_spender(info.tool)
    if found is None:
        return None
    shop, tool = found
    if tool.preparation is not Preparation.FREE_TABLE or shop.slots is None:
        return None
    slots_tool = shop.slots.tool
    slot = next((info.arguments[k] for k in _SLOT_KEYS if info.arguments.get(k)), None)
    listed = _listed_slots(info.history, slots_tool)
    if slot is not None and str(slot) in listed:
        return None
    return Denial(
        f"{SLOT_NEEDED.format(tool=info.tool, slots=slots_tool)}: call {slots_tool} for this "
        "restaurant and date first, then use one of the slotId values it returned."
    )


def _listed_slots(history: Iterable[ToolExchange], slots_tool: str) -> set[str]:
    slots: set[str] = set()
    for exchange in history:
        if exchange.tool != slots_tool or exchange.is_error:
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
    sleep: Callable[[float], None] = time.sleep,
) -> PostHook:
    """Write each outcome to the audit before the call's result goes on.

    A busy database is tried again (`AUDIT_RETRY_PAUSES`); any other store fault, or one
    that outlasts the retries, is logged (no secrets) and never fails the call.
    """

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
        _write_entry(record, entry, sleep)

    return hook


def _write_entry(
    record: Callable[[ToolCallEntry], None], entry: ToolCallEntry, sleep: Callable[[float], None]
) -> None:
    pauses = iter(AUDIT_RETRY_PAUSES)
    while True:
        try:
            record(entry)
            return
        except Exception as error:
            code = getattr(error, "code", None) or type(error).__name__
            pause = next(pauses, None) if code == ErrorCode.STORE_BUSY else None
            if pause is None:
                logger.error("tool call audit not stored for %s (%s)", entry.tool, code)
                return
            logger.warning("tool call audit busy for %s (%s); trying again", entry.tool, code)
            sleep(pause)


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
    return ToolHooks(pre=tuple(pre), post=(audit_to(record, world=world),), shape=(shrink_result,))
