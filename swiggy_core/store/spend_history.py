"""A person's spends over many days, as typed records, for the Spending page.

The same two sources as today's spending (`swiggy_core.store.spending`), over a range of
days rather than one: each `spends` row (the audit's spend with its latest outcome), and
each confirmed approval the audit has no `spend_call` entry for yet (running, or cut off
and not settled). Each record says whether the ledger counts it against the limits, by
the ledger's own rules, so a day's counted records add up to `spent_on` for that day.

The approval beside a spend gives its shop and what was shown at Confirm (the view); a
spend the audit recorded for an approval that is gone keeps its day, amount and outcome.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, RowMapping, and_, exists, select

from swiggy_core.store.approval_states import COUNTED
from swiggy_core.store.database import Database
from swiggy_core.store.schema import approvals, spends
from swiggy_core.store.spending import COUNTED_OUTCOMES, facts_of


@dataclass(frozen=True, slots=True)
class SpendRecord:
    """One spend: its India day (None when its facts name none), paise and where it stands.

    `outcome` is the audit's latest outcome, or the approval's status while the audit has
    no entry for it; `counted` is whether the ledger counts it against the limits today.
    """

    approval_id: str
    day: str | None
    amount_paise: int
    outcome: str
    counted: bool
    vertical_id: str | None
    tool: str | None
    view: dict[str, Any]
    asked_at: datetime | None


def spend_history(db: Database, user_id: str, since_day: str | None) -> list[SpendRecord]:
    """The person's spends of `since_day` (an India date, YYYY-MM-DD) and later, or of
    every day when None, oldest day first; spends that name no day come only with None."""
    with db.read() as conn:
        records = [*_audited(conn, user_id, since_day), *_running(conn, user_id, since_day)]
    return sorted(records, key=_order)


def _audited(conn: Connection, user_id: str, since_day: str | None) -> list[SpendRecord]:
    joined = spends.outerjoin(
        approvals,
        and_(approvals.c.user_id == spends.c.user_id, approvals.c.id == spends.c.approval_id),
    )
    query = (
        select(
            spends.c.approval_id,
            spends.c.day,
            spends.c.amount_paise,
            spends.c.outcome,
            approvals.c.vertical_id,
            approvals.c.tool,
            approvals.c.view,
            approvals.c.created_at,
        )
        .select_from(joined)
        .where(spends.c.user_id == user_id)
    )
    if since_day is not None:
        query = query.where(spends.c.day >= since_day)
    rows = conn.execute(query).mappings().all()
    return [_record(row, row["outcome"] in COUNTED_OUTCOMES) for row in rows]


def _running(conn: Connection, user_id: str, since_day: str | None) -> list[SpendRecord]:
    """Confirmed approvals the audit has not recorded yet: all counted, as in the ledger."""
    has_entry = exists().where(
        spends.c.user_id == approvals.c.user_id, spends.c.approval_id == approvals.c.id
    )
    query = select(
        approvals.c.id.label("approval_id"),
        approvals.c.spend_day.label("day"),
        approvals.c.spend_paise.label("amount_paise"),
        approvals.c.status.label("outcome"),
        approvals.c.vertical_id,
        approvals.c.tool,
        approvals.c.view,
        approvals.c.created_at,
    ).where(
        approvals.c.user_id == user_id,
        approvals.c.status.in_(sorted(status.value for status in COUNTED)),
        ~has_entry,
    )
    if since_day is not None:
        query = query.where(approvals.c.spend_day >= since_day)
    return [_record(row, True) for row in conn.execute(query).mappings().all()]


def _record(row: RowMapping, counted: bool) -> SpendRecord:
    return SpendRecord(
        approval_id=str(row["approval_id"]),
        day=row["day"],
        amount_paise=int(row["amount_paise"] or 0),
        outcome=str(row["outcome"]),
        counted=counted,
        vertical_id=row["vertical_id"],
        tool=row["tool"],
        view=facts_of(row["view"]),
        asked_at=row["created_at"],
    )


def _order(record: SpendRecord) -> tuple[str, str, str]:
    asked = record.asked_at.isoformat() if record.asked_at is not None else ""
    return (record.day or "", asked, record.approval_id)
