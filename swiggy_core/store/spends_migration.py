"""Migration 7: today's spending as indexed rows, back-filled from what was stored before.

Adds the `spends` table (one row per person and audited spend) and the approvals'
`spend_day` / `spend_paise` columns, fills them from the audit and the approvals exactly as
`swiggy_core.store.spending` reads them, and indexes both by person and day. Like every
migration it keeps its own copy of the tables as they were when it was written; the rules
for reading a spend's facts are the spending module's own.
"""

from __future__ import annotations

from dataclasses import asdict, replace
from typing import Any, Final

from sqlalchemy import (
    BigInteger,
    Column,
    Connection,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    inspect,
    select,
    update,
)

from swiggy_core.store.spending import (
    SETTLED_AUDIT,
    SPEND_AUDIT,
    AuditedSpend,
    audited_spend,
    facts_of,
    ledger_columns,
)

# Rows read and written per statement, so a long history never sits in memory at once.
BATCH_ROWS: Final = 500

_v7 = MetaData()
_spends = Table(
    "spends",
    _v7,
    Column("user_id", String(128), primary_key=True),
    Column("approval_id", Text, primary_key=True),
    Column("day", String(10), nullable=True),
    Column("amount_paise", BigInteger, nullable=False),
    Column("outcome", String(16), nullable=False),
)
_approvals = Table(
    "approvals",
    _v7,
    Column("id", String(36), primary_key=True),
    Column("user_id", String(128)),
    Column("status", String(16)),
    Column("result", Text),
    Column("spend_day", String(10)),
    Column("spend_paise", BigInteger),
)
_audit = Table(
    "audit",
    _v7,
    Column("id", Integer, primary_key=True),
    Column("user_id", String(128)),
    Column("action", String(64)),
    Column("detail", Text),
)
_INDEXES: Final = (
    Index("ix_spends_user_day", _spends.c.user_id, _spends.c.day, _spends.c.outcome),
    Index(
        "ix_approvals_user_spend_day",
        _approvals.c.user_id,
        _approvals.c.spend_day,
        _approvals.c.status,
    ),
)


def add_spends(conn: Connection) -> None:
    _spends.create(conn, checkfirst=True)
    present = {column["name"] for column in inspect(conn).get_columns("approvals")}
    for column in (_approvals.c.spend_day, _approvals.c.spend_paise):
        if column.name not in present:
            kind = column.type.compile(dialect=conn.dialect)
            conn.exec_driver_sql(f"ALTER TABLE approvals ADD COLUMN {column.name} {kind}")
    _stamp_approvals(conn)
    _fill_spends(conn)
    for index in _INDEXES:
        index.create(conn, checkfirst=True)


def _stamp_approvals(conn: Connection) -> None:
    """Every approval with facts gets their day and amount as columns."""
    stamp = (
        update(_approvals)
        .where(_approvals.c.id == bindparam("row_id"))
        .values(spend_day=bindparam("new_day"), spend_paise=bindparam("new_paise"))
    )
    after = ""
    while True:
        rows = conn.execute(
            select(_approvals.c.id, _approvals.c.result)
            .where(_approvals.c.result.is_not(None), _approvals.c.id > after)
            .order_by(_approvals.c.id)
            .limit(BATCH_ROWS)
        ).all()
        if not rows:
            return
        conn.execute(stamp, [_stamp(row.id, row.result) for row in rows])
        after = rows[-1].id


def _stamp(approval_id: str, result: str) -> dict[str, Any]:
    columns = ledger_columns(facts_of(result))
    return {
        "row_id": approval_id,
        "new_day": columns["spend_day"],
        "new_paise": columns["spend_paise"],
    }


def _fill_spends(conn: Connection) -> None:
    """The audit's spend entries in the order they were written, folded into one row per
    person and approval: a `spend_call` replaces it, a `spend_settled` its outcome."""
    latest: dict[tuple[str, str], AuditedSpend] = {}
    after = 0
    while True:
        rows = conn.execute(
            select(_audit.c.id, _audit.c.user_id, _audit.c.action, _audit.c.detail)
            .where(_audit.c.action.in_((SPEND_AUDIT, SETTLED_AUDIT)), _audit.c.id > after)
            .order_by(_audit.c.id)
            .limit(BATCH_ROWS)
        ).all()
        if not rows:
            break
        for row in rows:
            _fold(latest, row.user_id, row.action, facts_of(row.detail))
        after = rows[-1].id
    entries = [{"user_id": user_id, **asdict(spend)} for (user_id, _), spend in latest.items()]
    for start in range(0, len(entries), BATCH_ROWS):
        conn.execute(_spends.insert(), entries[start : start + BATCH_ROWS])


def _fold(
    latest: dict[tuple[str, str], AuditedSpend], user_id: str, action: str, detail: dict[str, Any]
) -> None:
    spend = audited_spend(detail)
    key = (user_id, spend.approval_id)
    if action == SPEND_AUDIT:
        latest[key] = spend
    elif key in latest:
        latest[key] = replace(latest[key], outcome=spend.outcome)
