"""The audit trail and small per-user preferences; both pass through `redact` first."""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any, Final

from sqlalchemy import Connection, bindparam, insert, select

from swiggy_core.store.database import Database, upsert
from swiggy_core.store.redaction import redact
from swiggy_core.store.schema import audit, preferences, utc_now
from swiggy_core.store.spending import record_spend_entry

# Built once: building a statement per call (and its cache key) cost more than running it.
_INSERT: Final = insert(audit)
_PREFERENCE: Final = select(preferences.c.value).where(
    preferences.c.user_id == bindparam("user_id"), preferences.c.name == bindparam("name")
)


def record_audit(
    db: Database,
    user_id: str,
    action: str,
    detail: dict[str, Any],
    conversation_id: str | None,
) -> None:
    """Append to the audit trail (approvals, orders, bookings), credentials redacted.

    A spend's entry also keeps its row of today's spending, in the same transaction.
    """
    with db.write() as conn:
        write_audit(conn, user_id, action, detail, conversation_id)


def write_audit(
    conn: Connection,
    user_id: str,
    action: str,
    detail: dict[str, Any],
    conversation_id: str | None,
) -> None:
    """`record_audit` inside a transaction the caller holds."""
    body = json.dumps(redact(detail), default=str)
    row = {
        "at": utc_now(),
        "user_id": user_id,
        "action": action,
        "detail": body,
        "conversation_id": conversation_id,
    }
    conn.execute(_INSERT, row)
    record_spend_entry(conn, user_id, action, body)


def audit_entries(
    db: Database,
    user_id: str,
    conversation_id: str | None,
    actions: Collection[str] | None = None,
) -> list[tuple[str, dict[str, Any]]]:
    query = select(audit.c.action, audit.c.detail).where(audit.c.user_id == user_id)
    if conversation_id is not None:
        query = query.where(audit.c.conversation_id == conversation_id)
    if actions is not None:
        query = query.where(audit.c.action.in_(list(actions)))
    with db.read() as conn:
        rows = conn.execute(query.order_by(audit.c.id)).all()
    return [(row.action, json.loads(row.detail)) for row in rows]


def set_preference(
    db: Database, user_id: str, name: str, value: dict[str, Any], *, wait_ms: int | None = None
) -> None:
    """Remember a small per-user setting (e.g. the chosen address); never a secret."""
    row = {"user_id": user_id, "name": name, "value": json.dumps(redact(value))}
    keys = [preferences.c.user_id, preferences.c.name]
    with db.write(wait_ms=wait_ms) as conn:
        conn.execute(upsert(db.dialect, preferences, row, keys, ["value"]))


def get_preference(db: Database, user_id: str, name: str) -> dict[str, Any] | None:
    with db.read() as conn:
        return preference_in(conn, user_id, name)


def preference_in(conn: Connection, user_id: str, name: str) -> dict[str, Any] | None:
    """A per-user setting, read in the caller's transaction."""
    body = conn.execute(_PREFERENCE, {"user_id": user_id, "name": name}).scalar_one_or_none()
    return None if body is None else dict(json.loads(body))
