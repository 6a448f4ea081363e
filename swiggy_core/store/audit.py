"""The audit trail and small per-user preferences; both pass through `redact` first."""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any

from sqlalchemy import insert, select

from swiggy_core.store.database import Database, upsert
from swiggy_core.store.redaction import redact
from swiggy_core.store.schema import audit, preferences, utc_now
from swiggy_core.store.spending import record_spend_entry


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
    body = json.dumps(redact(detail), default=str)
    with db.write() as conn:
        conn.execute(
            insert(audit).values(
                at=utc_now(),
                user_id=user_id,
                action=action,
                detail=body,
                conversation_id=conversation_id,
            )
        )
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


def set_preference(db: Database, user_id: str, name: str, value: dict[str, Any]) -> None:
    """Remember a small per-user setting (e.g. the chosen address); never a secret."""
    row = {"user_id": user_id, "name": name, "value": json.dumps(redact(value))}
    keys = [preferences.c.user_id, preferences.c.name]
    with db.write() as conn:
        conn.execute(upsert(db.dialect, preferences, row, keys, ["value"]))


def get_preference(db: Database, user_id: str, name: str) -> dict[str, Any] | None:
    query = select(preferences.c.value).where(
        preferences.c.user_id == user_id, preferences.c.name == name
    )
    with db.read() as conn:
        body = conn.execute(query).scalar_one_or_none()
    return None if body is None else dict(json.loads(body))
