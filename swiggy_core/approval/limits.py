"""Spending limits: a per-order and a per-day cap the person sets, and what today has used.

Money here is integer paise, as in the ledger and the audit (cards show rupees). The
limits are a per-user preference (the store's user id already names the person *and* the
world, so the sandbox and real Swiggy each have their own). Today's spending is read by the
store (`swiggy_core.store.spending`) from that day's rows alone, whatever the history:
executed spends the audit recorded, plus confirmed approvals whose call is running or was
cut off, so two tabs or replicas confirming at once cannot both fit under the daily limit;
the store serialises one person's confirmations.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Any, Final

from swiggy_core.constants import MAX_RUPEES, PAISE_PER_RUPEE, SWIGGY_TZ
from swiggy_core.errors import ActionRefused, ErrorCode
from swiggy_core.formatting import rupees
from swiggy_core.store import ChatStore
from swiggy_core.store.spending import AMOUNT_KEY, DAY_KEY, SETTLED_AUDIT, SPEND_AUDIT
from swiggy_core.store.spending_state import SpendingState

LIMITS_PREFERENCE: Final = "spending_limits"
_WHERE = "Nothing was placed. You can change your limits on the Connections page."

__all__ = [
    "AMOUNT_KEY",
    "DAY_KEY",
    "SETTLED_AUDIT",
    "SPEND_AUDIT",
    "Budget",
    "SpendingLimitExceeded",
    "SpendingLimits",
    "budget_for",
    "budget_of",
    "check_spend",
    "india_day",
    "limits_of",
    "load_limits",
    "paise",
    "parse_limit",
    "save_limits",
    "show_paise",
]


class SpendingLimitExceeded(ActionRefused):
    """The total is above the per-order limit or would take today past the per-day one."""

    code = ErrorCode.SPENDING_LIMIT


@dataclass(frozen=True, slots=True)
class SpendingLimits:
    """Caps in paise; None is "no limit"."""

    per_order: int | None = None
    per_day: int | None = None

    @property
    def any(self) -> bool:
        return self.per_order is not None or self.per_day is not None


@dataclass(frozen=True, slots=True)
class Budget:
    """The limits and what today (India date) has already spent, at one moment (paise)."""

    limits: SpendingLimits
    spent_today: int

    def summary(self) -> str:
        """'Your limits: ₹X per order · ₹Y per day (₹Z used today)'."""
        used = f"({show_paise(self.spent_today)} used today)"
        if not self.limits.any:
            return f"No spending limits set {used}"
        order = self.limits.per_order
        day = self.limits.per_day
        per_order = f"{show_paise(order)} per order" if order is not None else "no per-order limit"
        per_day = f"{show_paise(day)} per day" if day is not None else "no daily limit"
        return f"Your limits: {per_order} · {per_day} {used}"


def paise(rupee_amount: float) -> int:
    """Rupees (as cards and Swiggy's bills carry them) to integer paise, exactly rounded."""
    return int((Decimal(str(rupee_amount)) * PAISE_PER_RUPEE).to_integral_value())


def show_paise(amount: int | None) -> str:
    """Paise as the app shows money (₹1,234.50)."""
    return rupees(None if amount is None else amount / PAISE_PER_RUPEE)


def check_spend(budget: Budget, amount: int | None) -> None:
    """Raise SpendingLimitExceeded when spending `amount` paise now would break a limit."""
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
            f"This comes to {show_paise(amount)}, above your per-order limit of "
            f"{show_paise(limits.per_order)}. {_WHERE}"
        )
    after = budget.spent_today + amount
    if limits.per_day is not None and after > limits.per_day:
        raise SpendingLimitExceeded(
            f"This {show_paise(amount)} would take today's spending to {show_paise(after)}, "
            f"above your daily limit of {show_paise(limits.per_day)} "
            f"({show_paise(budget.spent_today)} already spent today). {_WHERE}"
        )


def parse_limit(value: Any) -> int | None:
    """A limit typed in rupees: empty is None; else a finite amount from ₹0 to the maximum,
    returned in paise.

    Raises ValueError for anything else (words, negative, absurd amounts).
    """
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, bool):
        raise ValueError("a limit is an amount in rupees")
    text = str(value).strip().replace(",", "").removeprefix("₹").strip()
    try:
        amount = Decimal(text)
    except InvalidOperation as error:
        raise ValueError("a limit is an amount in rupees") from error
    if not amount.is_finite() or amount < 0 or amount > MAX_RUPEES:
        raise ValueError(f"a limit is an amount from ₹0 to {rupees(MAX_RUPEES)}")
    return int((amount * PAISE_PER_RUPEE).quantize(Decimal(1)))


def load_limits(store: ChatStore, user_id: str) -> SpendingLimits:
    """The person's limits in this world; a malformed stored value counts as unset."""
    return limits_of(store.get_preference(user_id, LIMITS_PREFERENCE))


def limits_of(stored: dict[str, Any] | None) -> SpendingLimits:
    """The limits a stored preference value says; malformed parts count as unset."""
    stored = stored or {}
    return SpendingLimits(
        per_order=_stored_limit(stored, "per_order"),
        per_day=_stored_limit(stored, "per_day"),
    )


def save_limits(store: ChatStore, user_id: str, limits: SpendingLimits) -> None:
    value = {"per_order_paise": limits.per_order, "per_day_paise": limits.per_day}
    store.set_preference(user_id, LIMITS_PREFERENCE, value)


def india_day(moment: datetime) -> str:
    """The India calendar date of `moment` (ISO), which is what "per day" means here."""
    return moment.astimezone(SWIGGY_TZ).date().isoformat()


def budget_for(
    store: ChatStore, user_id: str, now: datetime, *, excluding: str | None = None
) -> Budget:
    """The person's limits and today's spending, read now (`excluding` one approval)."""
    limits = load_limits(store, user_id)
    spent = store.spent_today(user_id, india_day(now), excluding=excluding)
    return Budget(limits=limits, spent_today=spent)


def budget_of(state: SpendingState) -> Budget:
    """The budget a spending snapshot (`ChatStore.spending_state`) gives."""
    return Budget(limits=limits_of(state.limits), spent_today=state.spent_today)


def _stored_limit(stored: dict[str, Any], name: str) -> int | None:
    """A stored limit: paise under `<name>_paise`; rupees under `<name>` (older rows)."""
    value = stored.get(f"{name}_paise")
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value if value <= MAX_RUPEES * PAISE_PER_RUPEE else None
    try:
        return parse_limit(stored.get(name))
    except ValueError:
        return None
