"""Pending approvals for spending actions, moved between states by compare-and-set.

A transition is one `UPDATE ... WHERE id = :id AND status IN (:from)`: the database
decides which of two racing confirmations wins (exactly one sees a changed row), across
threads, processes and PostgreSQL connections alike. Every move is checked against the
table in `approval_states` first; callers must act on the returned bool (a lost race
stops that path).
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Collection, Sequence
from datetime import datetime
from typing import Any, Final

from sqlalchemy import Connection, Select, select, text, update

from swiggy_core.store import approval_queries as queries
from swiggy_core.store.approval_states import UNSETTLED, ApprovalStatus, check_moves, statuses
from swiggy_core.store.audit import write_audit
from swiggy_core.store.database import Database
from swiggy_core.store.records import ApprovalRecord, NewApproval
from swiggy_core.store.schema import approvals, as_utc, utc_now
from swiggy_core.store.spending import ledger_columns, spent_on
from swiggy_core.store.tool_audit import ToolCallEntry, write_tool_calls

# PostgreSQL advisory-lock namespace for "one person's confirmations, one at a time".
_SPEND_LOCK_NAMESPACE: Final = 0x5350
# An audit entry: its action and its detail.
AuditEntry = tuple[str, dict[str, Any]]
# The approvals a move looks at: a query of their ids and the values it is bound with.
Candidates = tuple[Select[Any], dict[str, Any]]


def create_approval(db: Database, new: NewApproval) -> ApprovalRecord:
    record, row = queries.new_row(new)
    with db.write() as conn:
        conn.execute(queries.INSERT, row)
    return record


def open_approval(
    db: Database,
    new: NewApproval,
    audited: Callable[[ApprovalRecord], AuditEntry],
    tool_calls: Sequence[ToolCallEntry] = (),
) -> ApprovalRecord:
    """The conversation's one open question: its pending approvals are superseded, `new`
    is stored as pending, `audited(record)` is appended to the audit trail and the calls
    that prepared it to the tool-call audit, all in one transaction (never a moment with
    the old one closed and the new one missing)."""
    record, row = queries.new_row(new)
    stale = _stale(new.conversation_id, None)
    with db.write() as conn:
        _move_candidates(conn, stale, ApprovalStatus.SUPERSEDED, "", record.created_at)
        conn.execute(queries.INSERT, row)
        action, detail = audited(record)
        write_audit(conn, new.user_id, action, detail, new.conversation_id)
        write_tool_calls(conn, tool_calls)
    return record


def get_approval(db: Database, approval_id: str) -> ApprovalRecord | None:
    with db.read() as conn:
        row = conn.execute(queries.BY_ID, {"approval_id": approval_id}).one_or_none()
    return None if row is None else queries.record_of(row)


def approvals_for(
    db: Database,
    conversation_id: str,
    wanted: Collection[str] | None,
    tool_use_ids: Collection[str] | None = None,
) -> list[ApprovalRecord]:
    if tool_use_ids is not None and not tool_use_ids:
        return []
    values: dict[str, Any] = {"chat_id": conversation_id}
    if wanted is not None:
        values["statuses"] = _names(wanted)
    if tool_use_ids is not None:
        values["uses"] = sorted(tool_use_ids)
    query = queries.chat_query(wanted is not None, tool_use_ids is not None)
    with db.read() as conn:
        rows = conn.execute(query, values).all()
    return [queries.record_of(row) for row in rows]


def approvals_to_settle(
    db: Database, conversation_id: str, open_uses: Collection[str]
) -> list[ApprovalRecord]:
    """In one read: the chat's approvals a dead turn may have left unsettled, and every
    approval that its still-open requests (`open_uses`, tool use ids) made."""
    values = {"chat_id": conversation_id, "statuses": _names(UNSETTLED), "uses": sorted(open_uses)}
    with db.read() as conn:
        rows = conn.execute(queries.IN_STATUS_OR_ASKED, values).all()
    return [queries.record_of(row) for row in rows]


def approvals_of_user(db: Database, user_id: str, wanted: Collection[str]) -> list[ApprovalRecord]:
    """A person's approvals in these statuses, across all their conversations."""
    with db.read() as conn:
        rows = conn.execute(queries.OF_USER, {"user_id": user_id, "statuses": _names(wanted)}).all()
    return [queries.record_of(row) for row in rows]


def approvals_in(db: Database, wanted: Collection[str]) -> list[ApprovalRecord]:
    """Everyone's approvals in these statuses, oldest first (settling at start-up)."""
    query = select(approvals).where(approvals.c.status.in_(_names(wanted)))
    with db.read() as conn:
        rows = conn.execute(query.order_by(approvals.c.created_at, approvals.c.id)).all()
    return [queries.record_of(row) for row in rows]


def transition(
    db: Database,
    approval_id: str,
    from_statuses: Collection[str],
    to_status: str,
    *,
    result: dict[str, Any] | None,
    note: str,
    now: datetime | None,
    require_unexpired: bool,
) -> bool:
    """Move one approval to `to_status` if it is in one of `from_statuses`; True if it moved.

    `result` and `note` replace the stored ones only when given (not None / not empty).
    A move the state machine does not allow raises ValueError before any transaction.
    """
    check_moves(from_statuses, to_status)
    with db.write() as conn:
        return _compare_and_set(
            conn,
            approval_id,
            from_statuses,
            to_status,
            result=result,
            note=note,
            now=as_utc(now) if now else utc_now(),
            require_unexpired=require_unexpired,
        )


def record_facts(db: Database, approval_id: str, status: str, facts: dict[str, Any]) -> bool:
    """Replace the facts of an approval that is still in `status`; True if it was.

    No move: this is how a running confirmation writes down what it is about to do
    (the orders before its call), and its caller goes on only when it returns True.
    """
    (current,) = statuses((status,))
    statement = (
        update(approvals)
        .where(approvals.c.id == approval_id, approvals.c.status == current.value)
        .values(result=json.dumps(facts), updated_at=utc_now(), **ledger_columns(facts))
    )
    with db.write() as conn:
        return conn.execute(statement).rowcount == 1


def begin_spend(
    db: Database,
    approval_id: str,
    user_id: str,
    facts: dict[str, Any],
    check: Callable[[int], None],
    *,
    day: str,
    now: datetime,
) -> bool:
    """pending → executing for one unexpired approval, after `check(spent_today_paise)`.

    One person's confirmations are serialised here (SQLite: the write lock; PostgreSQL: an
    advisory lock per person), so of two confirmations that would each fit under the day's
    limit alone, the second sees the first as spent. `check` raises to refuse (nothing is
    written); False means the approval was no longer pending or had expired.
    """
    with db.write() as conn:
        if db.dialect == "postgresql":
            conn.execute(
                text("SELECT pg_advisory_xact_lock(:space, :person)"),
                {"space": _SPEND_LOCK_NAMESPACE, "person": _lock_key(user_id)},
            )
        check(spent_on(conn, user_id, day, excluding=approval_id))
        return _compare_and_set(
            conn,
            approval_id,
            (ApprovalStatus.PENDING,),
            ApprovalStatus.EXECUTING,
            result=facts,
            note="",
            now=as_utc(now),
            require_unexpired=True,
        )


def spent_today(db: Database, user_id: str, day: str, *, excluding: str | None) -> int:
    """Paise the person's spends of `day` add up to (see `swiggy_core.store.spending`)."""
    with db.read() as conn:
        return spent_on(conn, user_id, day, excluding=excluding)


def _lock_key(user_id: str) -> int:
    # A signed 32-bit key, the same in every process (hash() is salted per process).
    return zlib.crc32(user_id.encode()) - 2**31


def expire_approvals(db: Database, now: datetime | None) -> list[str]:
    """Pending approvals past their expiry become "expired"; returns their ids."""
    moment = as_utc(now) if now else utc_now()
    return _move_pending(db, (queries.DUE, {"moment": moment}), ApprovalStatus.EXPIRED, "", moment)


def supersede_approvals(
    db: Database, conversation_id: str, server_key: str | None, note: str, *, seen: bool = False
) -> list[str]:
    """Pending approvals of a conversation (optionally one server) become "superseded".
    `seen`: the caller has just read a pending one, so no read looks for one first."""
    stale = _stale(conversation_id, server_key)
    if seen:
        with db.write() as conn:
            return _move_candidates(conn, stale, ApprovalStatus.SUPERSEDED, note, utc_now())
    return _move_pending(db, stale, ApprovalStatus.SUPERSEDED, note, utc_now())


def _stale(conversation_id: str, server_key: str | None) -> Candidates:
    """A conversation's pending approvals (of one server, when given)."""
    if server_key is None:
        return queries.STALE, {"chat_id": conversation_id}
    return queries.STALE_OF_SERVER, {"chat_id": conversation_id, "server_key": server_key}


def _move_pending(
    db: Database, candidates: Candidates, to_status: ApprovalStatus, note: str, now: datetime
) -> list[str]:
    query, values = candidates
    with db.read() as conn:  # most turns find none: no write lock is taken for them
        if conn.execute(query, values).first() is None:
            return []
    with db.write() as conn:
        return _move_candidates(conn, candidates, to_status, note, now)


def _move_candidates(
    conn: Connection, candidates: Candidates, to_status: ApprovalStatus, note: str, now: datetime
) -> list[str]:
    # Each candidate still goes through compare-and-set: one confirmed meanwhile is left alone.
    query, values = candidates
    ids = [str(approval_id) for approval_id in conn.execute(query, values).scalars()]
    return [
        approval_id
        for approval_id in ids
        if _compare_and_set(
            conn,
            approval_id,
            (ApprovalStatus.PENDING,),
            to_status,
            result=None,
            note=note,
            now=now,
            require_unexpired=False,
        )
    ]


def _compare_and_set(
    conn: Connection,
    approval_id: str,
    from_statuses: Collection[str],
    to_status: str,
    *,
    result: dict[str, Any] | None,
    note: str,
    now: datetime,
    require_unexpired: bool,
) -> bool:
    check_moves(from_statuses, to_status)  # the one place a status changes: always checked
    (target,) = statuses((to_status,))
    values: dict[str, Any] = {
        "approval_id": approval_id,
        "from_statuses": [status.value for status in statuses(from_statuses)],
        "to_status": target.value,
        "moved_at": now,
    }
    if result is not None:
        # The spend's day and amount as columns too: today's spending finds this row by them.
        ledger = ledger_columns(result)
        values.update(new_result=json.dumps(result), day=ledger["spend_day"])
        values["paise"] = ledger["spend_paise"]
    if note:
        values["new_note"] = note
    statement = queries.move_statement(result is not None, bool(note), require_unexpired)
    return conn.execute(statement, values).rowcount == 1


def _names(wanted: Collection[str]) -> list[str]:
    return [status.value for status in statuses(wanted)]
