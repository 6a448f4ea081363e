"""Today's spending, in integer paise, summed in SQL from that day's rows alone.

The money promise: nothing counted twice, nothing missed, an unclear spend counts until
it is settled. The rules:

1. Each spend counts from exactly one of two sources:
   - its audit entry (`spend_call`: approval, day, amount, outcome), which counts when the
     outcome is "done" or "unknown" (an unclear spend may have gone through), or a UPI
     payment still under way ("awaiting_payment", "paid_confirming");
   - its confirmed approval (executing, done or unknown) while the audit has no
     `spend_call` entry for it yet: running now, perhaps in another tab or replica, or cut
     off by a crash and not settled yet. Its day and amount were stamped on it in the
     compare-and-set that marked it executing. Once the audit has its entry, the approval
     no longer counts by itself, whatever its status or day.
2. A later `spend_settled` entry decides an unclear spend: its outcome replaces the
   recorded one (a settle for a spend the audit never recorded changes nothing); a later
   `spend_call` for the same approval replaces the whole spend.
3. `excluding` (the approval being checked itself) is never counted.
4. The amount is `amount_paise`; entries written before paise were kept have `amount` in
   rupees, read as paise. Anything that is not a finite positive number is 0 (a free
   table booking); an amount past MAX_SPEND_PAISE is kept as that cap, so it still stops
   every limit (and a day's sum cannot overflow the database's integers).
5. The day is the India date as text (YYYY-MM-DD); a value that is not text of at most
   DAY_LENGTH characters names no day, so it is never counted on any day.

Where the rows come from: each `spend_call` / `spend_settled` audit entry also writes its
approval's `spends` row (one per person and approval, holding the latest outcome), in the
transaction that appends the entry; every write of an approval's facts also sets its
`spend_day` / `spend_paise` columns, in the same UPDATE (so the compare-and-set stamps
them). Migration 7 back-fills both from the audit and the approvals as they were.

Why a `spends` table rather than columns on `audit`: the audit is append-only history,
with several entries per spend (the call, then its settling), while the sum wants one
current row per spend; read from the audit it would need the latest entry per approval.
Why columns on `approvals` for the running ones: their facts live there, written by the
compare-and-set itself, so no second write can fall out of step with it.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass
from typing import Any, Final

from sqlalchemy import Connection, Select, String, bindparam, exists, func, select, update

from swiggy_core.constants import PAISE_PER_RUPEE
from swiggy_core.store.approval_states import COUNTED
from swiggy_core.store.database import upsert
from swiggy_core.store.schema import DAY_LENGTH, STATUS_LENGTH, approvals, spends

SPEND_AUDIT: Final = "spend_call"
SETTLED_AUDIT: Final = "spend_settled"
# Keys of a spend's facts (on the approval and in its audit entry).
AMOUNT_KEY: Final = "amount_paise"
DAY_KEY: Final = "day"
_APPROVAL_KEY: Final = "approval"
_OUTCOME_KEY: Final = "outcome"
_LEGACY_RUPEES_KEY: Final = "amount"
# ₹10 lakh crore: no order comes near it; a day of such spends still fits in 64 bits.
MAX_SPEND_PAISE: Final = 10**15
# An unclear spend may have gone through, so it counts until it is settled.
# A UPI order waiting for its payment (or being confirmed) may yet be paid: it counts.
COUNTED_OUTCOMES: Final = ("done", "unknown", "awaiting_payment", "paid_confirming")


@dataclass(frozen=True, slots=True)
class AuditedSpend:
    """One spend as its audit entry tells it (a `spends` row)."""

    approval_id: str
    day: str | None
    amount_paise: int
    outcome: str


def spent_on(conn: Connection, user_id: str, day: str, *, excluding: str | None = None) -> int:
    """Paise the person's spends of `day` came to: executed (done, or not yet settled) and
    still running; `excluding` is the approval being checked itself."""
    values = {"user_id": user_id, "day": day, "excluding": excluding}
    statement = _SPENT if excluding is None else _SPENT_EXCLUDING
    return int(conn.execute(statement, values).scalar_one())


def _spent_statement(*, excluding: bool) -> Select[tuple[Any]]:
    """Built once (a confirmation runs it under the person's lock): bound by user_id, day
    and, when `excluding`, the approval left out."""
    user_id, day = bindparam("user_id", type_=String()), bindparam("day", type_=String())
    audited = select(func.coalesce(func.sum(spends.c.amount_paise), 0)).where(
        spends.c.user_id == user_id, spends.c.day == day, spends.c.outcome.in_(COUNTED_OUTCOMES)
    )
    has_entry = exists().where(
        spends.c.user_id == approvals.c.user_id, spends.c.approval_id == approvals.c.id
    )
    running = select(func.coalesce(func.sum(approvals.c.spend_paise), 0)).where(
        approvals.c.user_id == user_id,
        approvals.c.spend_day == day,
        approvals.c.status.in_(sorted(status.value for status in COUNTED)),
        ~has_entry,
    )
    if excluding:
        # An approval id is never "", so leaving out "" from the running ones changes nothing.
        audited = audited.where(spends.c.approval_id != bindparam("excluding"))
        running = running.where(approvals.c.id != bindparam("excluding"))
    return select(audited.scalar_subquery() + running.scalar_subquery())


_SPENT: Final = _spent_statement(excluding=False)
_SPENT_EXCLUDING: Final = _spent_statement(excluding=True)


def record_spend_entry(conn: Connection, user_id: str, action: str, body: str) -> None:
    """Keep the `spends` row of an audit entry just appended (`body`: its stored JSON);
    any other action leaves it alone."""
    if action == SPEND_AUDIT:
        _upsert(conn, user_id, audited_spend(facts_of(body)))
    elif action == SETTLED_AUDIT:
        detail = facts_of(body)
        conn.execute(
            update(spends)
            .where(spends.c.user_id == user_id, spends.c.approval_id == _approval_of(detail))
            .values(outcome=outcome_of(detail))
        )


def _upsert(conn: Connection, user_id: str, spend: AuditedSpend) -> None:
    row = {"user_id": user_id, **asdict(spend)}
    keys = [spends.c.user_id, spends.c.approval_id]
    conn.execute(upsert(conn.dialect.name, spends, row, keys, ["day", "amount_paise", "outcome"]))


def ledger_columns(facts: dict[str, Any] | None) -> dict[str, Any]:
    """An approval's `spend_day` / `spend_paise` for the facts stored as its result."""
    if facts is None:
        return {"spend_day": None, "spend_paise": None}
    return {"spend_day": spend_day(facts.get(DAY_KEY)), "spend_paise": amount_paise(facts)}


def audited_spend(detail: dict[str, Any]) -> AuditedSpend:
    """The spend a `spend_call` audit entry records."""
    return AuditedSpend(
        approval_id=_approval_of(detail),
        day=spend_day(detail.get(DAY_KEY)),
        amount_paise=amount_paise(detail),
        outcome=outcome_of(detail),
    )


def outcome_of(detail: dict[str, Any]) -> str:
    # Cut to the column: a cut name can never become "done" or "unknown".
    return str(detail.get(_OUTCOME_KEY, ""))[:STATUS_LENGTH]


def _approval_of(detail: dict[str, Any]) -> str:
    return str(detail.get(_APPROVAL_KEY, ""))


def spend_day(value: Any) -> str | None:
    """The India date a spend's facts name, or None (rule 5)."""
    return value if isinstance(value, str) and len(value) <= DAY_LENGTH else None


def amount_paise(facts: dict[str, Any]) -> int:
    """The spend's amount in paise (0 when absent or not a sane positive amount, capped at
    MAX_SPEND_PAISE)."""
    value = _positive(facts.get(AMOUNT_KEY))
    if value is not None:
        return min(int(value), MAX_SPEND_PAISE)
    legacy = _positive(facts.get(_LEGACY_RUPEES_KEY))
    return round(min(legacy * PAISE_PER_RUPEE, MAX_SPEND_PAISE)) if legacy is not None else 0


def _positive(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) and value > 0 else None


def facts_of(body: Any) -> dict[str, Any]:
    """Stored JSON facts as a dict ({} when absent or unreadable)."""
    if not body:
        return {}
    try:
        value = json.loads(body)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}
