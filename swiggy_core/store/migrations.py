"""Versioned schema changes, applied in order, one transaction each, recorded in `schema_version`.

Each migration keeps its own copy of the tables as they were when it was written, so a
fresh database and an old one walk the same path. Migration 1 is what the first store
created with `create_all` (no `schema_version` table); its check-first creates adopt such
a database without touching its rows.

Several processes may open a fresh database at once. Each migration runs under a lock
(SQLite: BEGIN IMMEDIATE; PostgreSQL: a transaction-scoped advisory lock), re-reads the
version inside it, and a creation race that still slips through is caught and re-checked.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from sqlalchemy import (
    Column,
    Connection,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    func,
    insert,
    inspect,
    select,
    text,
)

from swiggy_core.errors import ErrorCode
from swiggy_core.store import schema
from swiggy_core.store.database import Database
from swiggy_core.store.faults import StoreError, store_error
from swiggy_core.store.search_migration import add_chat_search
from swiggy_core.store.spends_migration import add_spends

# Any fixed number works: it only has to be the same in every process using the database.
_POSTGRES_LOCK_KEY: Final = 0x5317_6779
# How often a migration is retried after losing a creation race to another process.
_RACE_ATTEMPTS: Final = 3


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    summary: str
    apply: Callable[[Connection], None]


# -- version 1: the tables of the first store ------------------------------------------
_v1 = MetaData()
_v1_tables = (
    Table(
        "conversations",
        _v1,
        Column("id", String(36), primary_key=True),
        Column("user_id", String(128), nullable=False, index=True),
        Column("vertical_id", String(32), nullable=False),
        Column("title", String(200), nullable=False, default=""),
        Column("created_at", DateTime(timezone=True), nullable=False),
        Column("updated_at", DateTime(timezone=True), nullable=False),
    ),
    Table(
        "messages",
        _v1,
        Column("conversation_id", String(36), ForeignKey("conversations.id"), primary_key=True),
        Column("seq", Integer, primary_key=True, autoincrement=False),
        Column("body", Text, nullable=False),
    ),
    Table(
        "preferences",
        _v1,
        Column("user_id", String(128), primary_key=True),
        Column("name", String(64), primary_key=True),
        Column("value", Text, nullable=False),
    ),
    Table(
        "audit",
        _v1,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("at", DateTime(timezone=True), nullable=False),
        Column("user_id", String(128), nullable=False),
        Column("action", String(64), nullable=False),
        Column("detail", Text, nullable=False),
    ),
)


def _create_first_tables(conn: Connection) -> None:
    for table in _v1_tables:
        table.create(conn, checkfirst=True)


# -- version 2: approvals, audit by conversation, lookup indexes -------------------------
_v2 = MetaData()
_v2_approvals = Table(
    "approvals",
    _v2,
    Column("id", String(36), primary_key=True),
    Column("user_id", String(128), nullable=False),
    Column("conversation_id", String(36), nullable=False),
    Column("vertical_id", String(32), nullable=False),
    Column("server_key", String(64), nullable=False),
    Column("tool", String(200), nullable=False),
    Column("arguments", Text, nullable=False),
    Column("digest", Text, nullable=False),
    Column("view", Text, nullable=False),
    Column("tool_use_id", String(200), nullable=False),
    Column("status", String(16), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Column("result", Text, nullable=True),
    Column("note", Text, nullable=False),
)
_v2_audit = Table(
    "audit", _v2, Column("user_id", String(128)), Column("conversation_id", String(36))
)
# Messages are found by conversation through their (conversation_id, seq) primary key.
_v2_indexes = (
    Index(
        "ix_approvals_conversation_status", _v2_approvals.c.conversation_id, _v2_approvals.c.status
    ),
    Index("ix_approvals_status_expires", _v2_approvals.c.status, _v2_approvals.c.expires_at),
    Index("ix_audit_user_conversation", _v2_audit.c.user_id, _v2_audit.c.conversation_id),
)


def _add_approvals(conn: Connection) -> None:
    _v2_approvals.create(conn, checkfirst=True)
    audit_columns = {column["name"] for column in inspect(conn).get_columns("audit")}
    if "conversation_id" not in audit_columns:
        conn.exec_driver_sql("ALTER TABLE audit ADD COLUMN conversation_id VARCHAR(36)")
    for index in _v2_indexes:
        index.create(conn, checkfirst=True)


# -- version 3: remembered (encrypted) Swiggy tokens -------------------------------------
_v3 = MetaData()
_v3_remembered_tokens = Table(
    "remembered_tokens",
    _v3,
    Column("user_id", String(128), primary_key=True),
    Column("backend", String(64), primary_key=True),
    Column("ciphertext", Text, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)


def _add_remembered_tokens(conn: Connection) -> None:
    _v3_remembered_tokens.create(conn, checkfirst=True)


# -- version 4: when each message was stored (for the chat list and exports) -------------
def _add_message_times(conn: Connection) -> None:
    columns = {column["name"] for column in inspect(conn).get_columns("messages")}
    if "created_at" not in columns:
        kind = DateTime(timezone=True).compile(dialect=conn.dialect)
        conn.exec_driver_sql(f"ALTER TABLE messages ADD COLUMN created_at {kind}")


# -- version 5: the audit of every tool call --------------------------------------------
_v5 = MetaData()
_v5_tool_calls = Table(
    "tool_calls",
    _v5,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("user_id", String(128), nullable=False),
    Column("world", String(64), nullable=False),
    Column("vertical_id", String(32), nullable=False),
    Column("conversation_id", String(36), nullable=True),
    Column("server", String(64), nullable=False),
    Column("tool", String(200), nullable=False),
    Column("arguments", Text, nullable=False),
    Column("outcome", String(16), nullable=False),
    Column("duration_ms", Float, nullable=False),
    Column("error_code", String(16), nullable=True),
)
# The Activity view reads a person's newest calls: WHERE user_id = ? ORDER BY id DESC.
_v5_index = Index("ix_tool_calls_user_id", _v5_tool_calls.c.user_id, _v5_tool_calls.c.id)


def _add_tool_calls(conn: Connection) -> None:
    _v5_tool_calls.create(conn, checkfirst=True)
    _v5_index.create(conn, checkfirst=True)


# -- version 6: one running reply per chat across replicas -------------------------------
_v6 = MetaData()
_v6_turn_leases = Table(
    "turn_leases",
    _v6,
    Column("conversation_id", String(36), primary_key=True),
    Column("holder", String(64), nullable=False),
    Column("process", String(200), nullable=False),
    Column("kind", String(16), nullable=False),
    Column("acquired_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
)


def _add_turn_leases(conn: Connection) -> None:
    _v6_turn_leases.create(conn, checkfirst=True)


# -- version 8: the chat list pages in SQL ------------------------------------------------
_v8 = MetaData()
_v8_conversations = Table(
    "conversations",
    _v8,
    Column("id", String(36), primary_key=True),
    Column("user_id", String(128)),
    Column("vertical_id", String(32)),
    Column("created_at", DateTime(timezone=True)),
    Column("updated_at", DateTime(timezone=True)),
)
# The sidebar reads a person's newest chats of one shop, a page at a time, in this order.
_v8_index = Index(
    "ix_conversations_user_vertical_activity",
    _v8_conversations.c.user_id,
    _v8_conversations.c.vertical_id,
    _v8_conversations.c.updated_at,
    _v8_conversations.c.created_at,
    _v8_conversations.c.id,
)


def _add_chat_list_index(conn: Connection) -> None:
    _v8_index.create(conn, checkfirst=True)


MIGRATIONS: Final[tuple[Migration, ...]] = (
    Migration(1, "conversations, messages, preferences, audit", _create_first_tables),
    Migration(2, "approvals; audit.conversation_id; indexes", _add_approvals),
    Migration(3, "remembered_tokens (encrypted Swiggy tokens)", _add_remembered_tokens),
    Migration(4, "messages.created_at (when each message was stored)", _add_message_times),
    Migration(5, "tool_calls (the audit of every tool call)", _add_tool_calls),
    Migration(6, "turn_leases (one running reply per chat across replicas)", _add_turn_leases),
    Migration(7, "spends; approvals.spend_day/spend_paise (today's spending by day)", add_spends),
    Migration(
        8, "conversations by person, shop and last activity (the chat list)", _add_chat_list_index
    ),
    Migration(9, "message_texts and its full-text index (chat search)", add_chat_search),
)
LATEST_VERSION: Final = MIGRATIONS[-1].version


def current_version(conn: Connection) -> int:
    """The highest applied migration; 0 for a database that has none recorded."""
    if not inspect(conn).has_table(schema.schema_version.name):
        return 0
    return int(
        conn.execute(
            select(func.coalesce(func.max(schema.schema_version.c.version), 0))
        ).scalar_one()
    )


def migrate(db: Database) -> None:
    """Bring the database to LATEST_VERSION; a no-op read when it is already there."""
    with db.read() as conn:
        if current_version(conn) >= LATEST_VERSION:
            return
    for migration in MIGRATIONS:
        _apply_once(db, migration)


def _apply_once(db: Database, migration: Migration) -> None:
    for attempt in range(_RACE_ATTEMPTS):
        try:
            with db.write() as conn:
                if db.dialect == "postgresql":
                    conn.execute(
                        text("SELECT pg_advisory_xact_lock(:key)"), {"key": _POSTGRES_LOCK_KEY}
                    )
                schema.schema_version.create(conn, checkfirst=True)
                if current_version(conn) >= migration.version:
                    return
                migration.apply(conn)
                conn.execute(
                    insert(schema.schema_version).values(
                        version=migration.version, applied_at=schema.utc_now()
                    )
                )
            return
        except StoreError as error:
            # Another process may have created the same table or recorded the same version
            # between our check and our write; if so the work is done, otherwise retry.
            if _applied(db, migration.version):
                return
            if attempt == _RACE_ATTEMPTS - 1 or error.code != ErrorCode.STORE_FAILED:
                raise
    raise store_error(ErrorCode.STORE_FAILED)  # pragma: no cover - the loop always returns


def _applied(db: Database, version: int) -> bool:
    try:
        with db.read() as conn:
            return current_version(conn) >= version
    except StoreError:
        return False
