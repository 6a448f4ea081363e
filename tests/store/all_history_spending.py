"""Today's spending as the store computed it before migration 7, kept unchanged as the
reference: every `spend_call` / `spend_settled` audit entry and every counted approval of
the person, decoded in Python. The store tests check the indexed sum against it, and
bench/flat_costs.py times it as the baseline.
"""

from __future__ import annotations

import json
import math
from typing import Any, Final

from sqlalchemy import Connection, select

from swiggy_core.constants import PAISE_PER_RUPEE
from swiggy_core.store.approval_states import COUNTED
from swiggy_core.store.schema import approvals, audit

SPEND_AUDIT: Final = "spend_call"
SETTLED_AUDIT: Final = "spend_settled"
AMOUNT_KEY: Final = "amount_paise"
DAY_KEY: Final = "day"
_LEGACY_RUPEES_KEY: Final = "amount"
_COUNTED_OUTCOMES: Final = frozenset({"done", "unknown"})


def all_history_spent_on(
    conn: Connection, user_id: str, day: str, *, excluding: str | None = None
) -> int:
    """Paise the person's spends of `day` came to: executed (done, or not yet settled) and
    still running; `excluding` is the approval being checked itself."""
    spends: dict[str, tuple[str, int]] = {}
    outcomes: dict[str, str] = {}
    rows = conn.execute(
        select(audit.c.action, audit.c.detail)
        .where(audit.c.user_id == user_id, audit.c.action.in_((SPEND_AUDIT, SETTLED_AUDIT)))
        .order_by(audit.c.id)
    ).all()
    for action, body in rows:
        detail = _json(body)
        approval = str(detail.get("approval", ""))
        if action == SPEND_AUDIT:
            spends[approval] = (str(detail.get(DAY_KEY, "")), amount_paise(detail))
            outcomes[approval] = str(detail.get("outcome", ""))
        elif approval in spends:
            outcomes[approval] = str(detail.get("outcome", ""))
    executed = sum(
        amount
        for approval, (spent_day, amount) in spends.items()
        if spent_day == day and approval != excluding and outcomes[approval] in _COUNTED_OUTCOMES
    )
    skip = {*spends, *([excluding] if excluding else [])}
    return executed + _in_flight(conn, user_id, day, skip)


def _in_flight(conn: Connection, user_id: str, day: str, skip: set[str]) -> int:
    """Confirmed spends of `day` that the audit has not recorded (yet)."""
    rows = conn.execute(
        select(approvals.c.id, approvals.c.result).where(
            approvals.c.user_id == user_id,
            approvals.c.status.in_(sorted(status.value for status in COUNTED)),
        )
    ).all()
    total = 0
    for approval_id, body in rows:
        facts = _json(body)
        if approval_id not in skip and facts.get(DAY_KEY) == day:
            total += amount_paise(facts)
    return total


def amount_paise(facts: dict[str, Any]) -> int:
    """The spend's amount in paise (0 when absent or not a sane positive amount)."""
    value = _positive(facts.get(AMOUNT_KEY))
    if value is not None:
        return int(value)
    legacy = _positive(facts.get(_LEGACY_RUPEES_KEY))
    return round(legacy * PAISE_PER_RUPEE) if legacy is not None else 0


def _positive(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) and value > 0 else None


def _json(body: Any) -> dict[str, Any]:
    if not body:
        return {}
    try:
        value = json.loads(body)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}
