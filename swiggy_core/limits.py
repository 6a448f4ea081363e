"""Spending limits: a per-order and a per-day cap the person sets, and what today has used.

The limits are a per-user preference (the store's user id already names the person *and*
the world, so the sandbox and real Swiggy each have their own). Today's spending is read
from the audit trail of executed spends: every `spend_call` entry carries the amount and
the India date it ran on; a later `spend_settled` entry decides an unclear one. A spend
still running (in another tab) has no audit entry yet: its approval, marked "executing"
with its amount and day before the call, counts instead, so two tabs confirming at once
cannot both fit under the daily limit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from swiggy_core.conversation._context import LOCAL_TZ
from swiggy_core.errors import ErrorCode, SwiggyAssistantError
from swiggy_core.formatting import MAX_RUPEES, rupees
from swiggy_core.store import ChatStore

LIMITS_PREFERENCE: Final = "spending_limits"
SPEND_AUDIT: Final = "spend_call"
SETTLED_AUDIT: Final = "spend_settled"
_WHERE = "Nothing was placed. The limits can be changed on the Connections page."
# An unclear spend ("unknown") may have gone through, so it counts until it is settled.
_COUNTED_OUTCOMES: Final = frozenset({"done", "unknown"})
# Approvals whose call is running or may have run; counted until the audit says otherwise.
_IN_FLIGHT: Final = ("executing", "done", "unknown")


class SpendingLimitExceeded(SwiggyAssistantError):
    """The total is above the per-order limit or would take today past the per-day one."""

    code = ErrorCode.SPENDING_LIMIT


@dataclass(frozen=True, slots=True)
class SpendingLimits:
    """Rupee caps; None is "no limit"."""

    per_order: float | None = None
    per_day: float | None = None

    @property
    def any(self) -> bool:
        return self.per_order is not None or self.per_day is not None


@dataclass(frozen=True, slots=True)
class Budget:
    """The limits and what today (India date) has already spent, at one moment."""

    limits: SpendingLimits
    spent_today: float

    def summary(self) -> str:
        """'Your limits: ₹X per order · ₹Y per day (₹Z used today)'."""
        used = f"({rupees(self.spent_today)} used today)"
        if not self.limits.any:
            return f"No spending limits set {used}"
        order = self.limits.per_order
        day = self.limits.per_day
        per_order = f"{rupees(order)} per order" if order is not None else "no per-order limit"
        per_day = f"{rupees(day)} per day" if day is not None else "no daily limit"
        return f"Your limits: {per_order} · {per_day} {used}"


def check_spend(budget: Budget, amount: float | None) -> None:
    """Raise SpendingLimitExceeded when spending `amount` now would break a limit."""
    limits = budget.limits
    if not limits.any or amount == 0:  # a free table booking spends nothing
        return
    if amount is None:
        raise SpendingLimitExceeded(
            f"The total could not be read, so it cannot be checked against your spending "
            f"limits. {_WHERE}"
        )
    if limits.per_order is not None and amount > limits.per_order:
        raise SpendingLimitExceeded(
            f"This comes to {rupees(amount)}, above your per-order limit of "
            f"{rupees(limits.per_order)}. {_WHERE}"
        )
    after = round(budget.spent_today + amount, 2)
    if limits.per_day is not None and after > limits.per_day:
        raise SpendingLimitExceeded(
            f"This {rupees(amount)} would take today's spending to {rupees(after)}, above "
            f"your daily limit of {rupees(limits.per_day)} ({rupees(budget.spent_today)} "
            f"already spent today). {_WHERE}"
        )


def parse_limit(value: Any) -> float | None:
    """A limit from a form or a stored value: empty is None; else a finite amount ≥ 0.

    Raises ValueError for anything else (words, negative, absurd amounts).
    """
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, bool):
        raise ValueError("a limit is an amount in rupees")
    text = str(value).strip().replace(",", "").removeprefix("₹").strip()
    amount = float(text)
    if not math.isfinite(amount) or amount < 0 or amount > MAX_RUPEES:
        raise ValueError(f"a limit is an amount from ₹0 to {rupees(MAX_RUPEES)}")
    return round(amount, 2)


def load_limits(store: ChatStore, user_id: str) -> SpendingLimits:
    """The person's limits in this world; a malformed stored value counts as unset."""
    stored = store.get_preference(user_id, LIMITS_PREFERENCE) or {}
    return SpendingLimits(
        per_order=_stored_limit(stored.get("per_order")),
        per_day=_stored_limit(stored.get("per_day")),
    )


def save_limits(store: ChatStore, user_id: str, limits: SpendingLimits) -> None:
    value = {"per_order": limits.per_order, "per_day": limits.per_day}
    store.set_preference(user_id, LIMITS_PREFERENCE, value)


def india_day(moment: datetime) -> str:
    """The India calendar date of `moment` (ISO), which is what "per day" means here."""
    return moment.astimezone(LOCAL_TZ).date().isoformat()


def spent_on(store: ChatStore, user_id: str, day: str, *, excluding: str | None = None) -> float:
    """Rupees the person's spends of `day` came to: executed (done, or not yet settled)
    and still running; `excluding` is the approval being checked itself."""
    spends: dict[str, tuple[str, float]] = {}
    outcomes: dict[str, str] = {}
    for action, detail in store.audit_entries(user_id, actions=(SPEND_AUDIT, SETTLED_AUDIT)):
        approval = str(detail.get("approval", ""))
        if action == SPEND_AUDIT:
            spends[approval] = (str(detail.get("day", "")), _amount(detail.get("amount")))
            outcomes[approval] = str(detail.get("outcome", ""))
        elif action == SETTLED_AUDIT and approval in spends:
            outcomes[approval] = str(detail.get("outcome", ""))
    executed = sum(
        amount
        for approval, (spent_day, amount) in spends.items()
        if spent_day == day and outcomes.get(approval) in _COUNTED_OUTCOMES
    )
    skip: set[str] = {*spends, *([excluding] if excluding else [])}
    return round(float(executed) + _running(store, user_id, day, skip), 2)


def _running(store: ChatStore, user_id: str, day: str, skip: set[str]) -> float:
    """Spends started (approval marked with amount and day) that the audit has not seen."""
    total = 0.0
    for record in store.approvals_of_user(user_id, _IN_FLIGHT):
        facts = record.result or {}
        if record.id not in skip and facts.get("day") == day:
            total += _amount(facts.get("amount"))
    return total


def budget_for(
    store: ChatStore, user_id: str, now: datetime, *, excluding: str | None = None
) -> Budget:
    """The person's limits and today's spending, read now (`excluding` one approval)."""
    limits = load_limits(store, user_id)
    spent = spent_on(store, user_id, india_day(now), excluding=excluding)
    return Budget(limits=limits, spent_today=spent)


def _stored_limit(value: Any) -> float | None:
    try:
        return parse_limit(value)
    except ValueError:
        return None


def _amount(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0.0
    return float(value) if math.isfinite(value) and value > 0 else 0.0
