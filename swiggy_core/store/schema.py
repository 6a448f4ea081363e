"""The tables as the current code reads and writes them.

`migrations.py` is what creates them (and the indexes); `tests/store/test_migrations.py`
checks that a migrated database has exactly these columns.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    DateTime,
    Dialect,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    TypeDecorator,
)

# Column sizes (kept equal to what migration 1 created in older databases).
ID_LENGTH = 36
USER_ID_LENGTH = 128
VERTICAL_ID_LENGTH = 32
TITLE_LENGTH = 200
NAME_LENGTH = 64
STATUS_LENGTH = 16
# An India date as the spends keep it: YYYY-MM-DD (migration 7).
DAY_LENGTH = 10


def as_utc(moment: datetime) -> datetime:
    """An aware UTC datetime; naive values are taken to be UTC already."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def utc_now() -> datetime:
    return datetime.now(UTC)


class UtcDateTime(TypeDecorator[datetime]):
    """Stored as UTC, read back aware.

    SQLite keeps no offset and returns naive values, so everything is written in UTC
    (which also keeps SQLite's text comparisons of times correct) and tagged on reading.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        return None if value is None else as_utc(value)

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        return None if value is None else as_utc(value)


metadata = MetaData()

schema_version = Table(
    "schema_version",
    metadata,
    Column("version", Integer, primary_key=True, autoincrement=False),
    Column("applied_at", UtcDateTime, nullable=False),
)
conversations = Table(
    "conversations",
    metadata,
    Column("id", String(ID_LENGTH), primary_key=True),
    Column("user_id", String(USER_ID_LENGTH), nullable=False),
    Column("vertical_id", String(VERTICAL_ID_LENGTH), nullable=False),
    Column("title", String(TITLE_LENGTH), nullable=False, default=""),
    Column("created_at", UtcDateTime, nullable=False),
    Column("updated_at", UtcDateTime, nullable=False),
)
# Append-only: rows are inserted with the next seq and never rewritten.
messages = Table(
    "messages",
    metadata,
    Column("conversation_id", String(ID_LENGTH), ForeignKey("conversations.id"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("body", Text, nullable=False),
    # When the row was appended (migration 4); rows stored before it have none.
    Column("created_at", UtcDateTime, nullable=True),
)
preferences = Table(
    "preferences",
    metadata,
    Column("user_id", String(USER_ID_LENGTH), primary_key=True),
    Column("name", String(NAME_LENGTH), primary_key=True),
    Column("value", Text, nullable=False),
)
audit = Table(
    "audit",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", UtcDateTime, nullable=False),
    Column("user_id", String(USER_ID_LENGTH), nullable=False),
    Column("action", String(NAME_LENGTH), nullable=False),
    Column("detail", Text, nullable=False),
    Column("conversation_id", String(ID_LENGTH), nullable=True),
)
approvals = Table(
    "approvals",
    metadata,
    Column("id", String(ID_LENGTH), primary_key=True),
    Column("user_id", String(USER_ID_LENGTH), nullable=False),
    Column("conversation_id", String(ID_LENGTH), nullable=False),
    Column("vertical_id", String(VERTICAL_ID_LENGTH), nullable=False),
    Column("server_key", String(NAME_LENGTH), nullable=False),
    Column("tool", String(TITLE_LENGTH), nullable=False),
    Column("arguments", Text, nullable=False),
    Column("digest", Text, nullable=False),
    Column("view", Text, nullable=False),
    Column("tool_use_id", String(TITLE_LENGTH), nullable=False),
    Column("status", String(STATUS_LENGTH), nullable=False),
    Column("expires_at", UtcDateTime, nullable=False),
    Column("created_at", UtcDateTime, nullable=False),
    Column("updated_at", UtcDateTime, nullable=False),
    Column("result", Text, nullable=True),
    Column("note", Text, nullable=False),
    # The day and amount of `result`'s spend facts, kept beside it (migration 7) so a
    # running confirmation is found by (user_id, spend_day, status) without decoding JSON.
    Column("spend_day", String(DAY_LENGTH), nullable=True),
    Column("spend_paise", BigInteger, nullable=True),
)
# One row per spend the audit recorded, with its latest outcome (migration 7): today's
# spending sums today's rows, found through the (user_id, day, outcome) index.
spends = Table(
    "spends",
    metadata,
    Column("user_id", String(USER_ID_LENGTH), primary_key=True),
    Column("approval_id", Text, primary_key=True),
    Column("day", String(DAY_LENGTH), nullable=True),
    Column("amount_paise", BigInteger, nullable=False),
    Column("outcome", String(STATUS_LENGTH), nullable=False),
)
# Sign in with Swiggy, remembered on request: Fernet ciphertext only, never the token itself.
remembered_tokens = Table(
    "remembered_tokens",
    metadata,
    Column("user_id", String(USER_ID_LENGTH), primary_key=True),
    Column("backend", String(NAME_LENGTH), primary_key=True),
    Column("ciphertext", Text, nullable=False),
    Column("updated_at", UtcDateTime, nullable=False),
)
# Every MCP tool call, in either engine or run by the app (migration 5): arguments are
# stored redacted; found per user, newest first, through the (user_id, id) index.
tool_calls = Table(
    "tool_calls",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", UtcDateTime, nullable=False),
    Column("user_id", String(USER_ID_LENGTH), nullable=False),
    Column("world", String(NAME_LENGTH), nullable=False),
    Column("vertical_id", String(VERTICAL_ID_LENGTH), nullable=False),
    Column("conversation_id", String(ID_LENGTH), nullable=True),
    Column("server", String(NAME_LENGTH), nullable=False),
    Column("tool", String(TITLE_LENGTH), nullable=False),
    Column("arguments", Text, nullable=False),
    Column("outcome", String(STATUS_LENGTH), nullable=False),
    Column("duration_ms", Float, nullable=False),
    Column("error_code", String(STATUS_LENGTH), nullable=True),
)
# One reply at a time per chat, across processes and replicas (migration 6): the running
# turn holds its chat's row and renews `expires_at` while it runs; a row past its expiry
# belongs to a turn whose process died.
turn_leases = Table(
    "turn_leases",
    metadata,
    Column("conversation_id", String(ID_LENGTH), primary_key=True),
    Column("holder", String(NAME_LENGTH), nullable=False),
    Column("process", String(TITLE_LENGTH), nullable=False),
    Column("kind", String(STATUS_LENGTH), nullable=False),
    Column("acquired_at", UtcDateTime, nullable=False),
    Column("expires_at", UtcDateTime, nullable=False),
)
# The words each message showed the person, for chat search (migration 9): SQLite keeps
# an FTS5 index of `text` in step by triggers, PostgreSQL a GIN index of its tsvector.
message_texts = Table(
    "message_texts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("conversation_id", String(ID_LENGTH), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("text", Text, nullable=False),
)
