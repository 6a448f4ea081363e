"""Turn leases: which turn may reply in a chat right now, across processes and replicas.

A running turn holds its chat's row and renews its expiry while it runs; it deletes the
row when it ends. A row past its expiry was left by a process that died mid-reply: the
next turn takes it over. Every operation is one transaction decided by the database.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache, partial
from typing import Final

from sqlalchemy import Insert, bindparam, delete, select, update

from swiggy_core.store.database import Database, insert_new
from swiggy_core.store.schema import TITLE_LENGTH, as_utc, turn_leases


@dataclass(frozen=True, slots=True)
class LeaseInfo:
    """Who holds a chat's lease and until when."""

    conversation_id: str
    holder: str  # the turn's id
    process: str  # host and pid of the process running it (for support, never shown)
    kind: str
    expires_at: datetime


def acquire(
    db: Database,
    conversation_id: str,
    holder: str,
    *,
    process: str,
    kind: str,
    now: datetime,
    ttl: timedelta,
) -> LeaseInfo | None:
    """Take the chat's lease for `holder`; None when a live lease of another turn holds it."""
    moment = as_utc(now)
    info = LeaseInfo(conversation_id, holder, process[:TITLE_LENGTH], kind, moment + ttl)
    row = {
        "conversation_id": conversation_id,
        "holder": holder,
        "process": info.process,
        "kind": kind,
        "acquired_at": moment,
        "expires_at": info.expires_at,
    }
    with db.write() as conn:
        # Usually the chat has no row (a turn deletes its own when it ends): one insert.
        if conn.execute(_insert_new(db.dialect), row).rowcount == 1:
            return info
        # A row is there: a live turn's, or one a dead process left past its expiry.
        takeover = {f"new_{name}": row[name] for name in _TAKEN_COLUMNS}
        taken = conn.execute(
            _TAKE_EXPIRED, {**takeover, "chat_id": conversation_id, "moment": moment}
        )
        if taken.rowcount != 1:
            return None
    return info


def renew(
    db: Database, conversation_id: str, holder: str, *, now: datetime, ttl: timedelta
) -> bool:
    """Extend the holder's lease; False when it is no longer theirs."""
    with db.write() as conn:
        moved = conn.execute(
            update(turn_leases)
            .where(
                turn_leases.c.conversation_id == conversation_id,
                turn_leases.c.holder == holder,
            )
            .values(expires_at=as_utc(now) + ttl)
        )
    return moved.rowcount == 1


def release(db: Database, conversation_id: str, holder: str) -> None:
    """Give the lease back (only the holder's own row is removed)."""
    with db.write() as conn:
        conn.execute(_RELEASE, {"chat_id": conversation_id, "the_holder": holder})


def live_lease(db: Database, conversation_id: str, now: datetime) -> LeaseInfo | None:
    """The unexpired lease of a chat, if a turn holds one."""
    with db.read() as conn:
        row = conn.execute(
            select(turn_leases).where(
                turn_leases.c.conversation_id == conversation_id,
                turn_leases.c.expires_at > as_utc(now),
            )
        ).first()
    if row is None:
        return None
    return LeaseInfo(row.conversation_id, row.holder, row.process, row.kind, row.expires_at)


def live_leases(db: Database, conversation_ids: list[str], now: datetime) -> set[str]:
    """Which of these chats a live turn holds (one query, for the chat list)."""
    if not conversation_ids:
        return set()
    with db.read() as conn:
        rows = conn.execute(
            select(turn_leases.c.conversation_id).where(
                turn_leases.c.conversation_id.in_(conversation_ids),
                turn_leases.c.expires_at > as_utc(now),
            )
        ).scalars()
        return {str(value) for value in rows}


# A turn's lease statements, built once (building one per call cost more than running it).
_TAKEN_COLUMNS: Final = ("holder", "process", "kind", "acquired_at", "expires_at")
_OWN_ROW: Final = turn_leases.c.conversation_id == bindparam("chat_id")
_TAKE_EXPIRED: Final = (
    update(turn_leases)
    .where(_OWN_ROW, turn_leases.c.expires_at <= bindparam("moment"))
    .values({name: bindparam(f"new_{name}") for name in _TAKEN_COLUMNS})
)
_RELEASE: Final = delete(turn_leases).where(
    _OWN_ROW, turn_leases.c.holder == bindparam("the_holder")
)


@cache  # per dialect, built on first use: PostgreSQL's module is imported only if used
def _insert_new(dialect: str) -> Insert:
    return insert_new(dialect, turn_leases, [turn_leases.c.conversation_id])


class LeaseBook:
    """The lease operations bound to one database (`ChatStore.leases`)."""

    def __init__(self, db: Database) -> None:
        self.acquire = partial(acquire, db)
        self.renew = partial(renew, db)
        self.release = partial(release, db)
        self.live = partial(live_lease, db)
        self.live_among = partial(live_leases, db)
