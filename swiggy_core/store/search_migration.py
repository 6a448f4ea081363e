"""Migration 9: chat search, with every message stored before it indexed.

Adds `message_texts` (the words each message showed, see `chat_search_index`) and its
full-text index: on SQLite an external-content FTS5 table kept in step by triggers, on
PostgreSQL a GIN index of `to_tsvector(SEARCH_CONFIG, text)`. The messages already stored
are read in batches and their words written the way new messages are.
"""

from __future__ import annotations

from typing import Final

from pydantic import ValidationError
from sqlalchemy import (
    Column,
    Connection,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    insert,
    select,
    tuple_,
)

from swiggy_core.models import conversation_adapter
from swiggy_core.store.chat_search_index import searchable_text

# Messages read per statement, so a long history never sits in memory at once.
BATCH_ROWS: Final = 500
# PostgreSQL's text search configuration; SQLite's FTS5 stems English alike (porter).
SEARCH_CONFIG: Final = "english"
FTS_TABLE: Final = "message_texts_fts"

_v9 = MetaData()
_message_texts = Table(
    "message_texts",
    _v9,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("conversation_id", String(36), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("text", Text, nullable=False),
)
_by_message = Index(
    "ix_message_texts_conversation_seq",
    _message_texts.c.conversation_id,
    _message_texts.c.seq,
    unique=True,
)
_messages = Table(
    "messages",
    _v9,
    Column("conversation_id", String(36), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("body", Text),
)
_SQLITE_INDEX: Final = (
    f"CREATE VIRTUAL TABLE IF NOT EXISTS {FTS_TABLE} USING fts5(text, "
    "content='message_texts', content_rowid='id', "
    "tokenize='porter unicode61 remove_diacritics 2')",
    "CREATE TRIGGER IF NOT EXISTS message_texts_indexed AFTER INSERT ON message_texts "
    f"BEGIN INSERT INTO {FTS_TABLE}(rowid, text) VALUES (new.id, new.text); END",
    "CREATE TRIGGER IF NOT EXISTS message_texts_unindexed AFTER DELETE ON message_texts "
    f"BEGIN INSERT INTO {FTS_TABLE}({FTS_TABLE}, rowid, text) "
    "VALUES ('delete', old.id, old.text); END",
)
_POSTGRES_INDEX: Final = (
    "CREATE INDEX IF NOT EXISTS ix_message_texts_search ON message_texts "
    f"USING GIN (to_tsvector('{SEARCH_CONFIG}', text))"
)


def add_chat_search(conn: Connection) -> None:
    _message_texts.create(conn, checkfirst=True)
    _by_message.create(conn, checkfirst=True)
    if conn.dialect.name == "sqlite":
        for statement in _SQLITE_INDEX:
            conn.exec_driver_sql(statement)
    else:
        conn.exec_driver_sql(_POSTGRES_INDEX)
    _index_stored_messages(conn)


def _index_stored_messages(conn: Connection) -> None:
    """The words of every message stored before search existed, a batch at a time."""
    after = ("", -1)
    while True:
        rows = conn.execute(
            select(_messages.c.conversation_id, _messages.c.seq, _messages.c.body)
            .where(tuple_(_messages.c.conversation_id, _messages.c.seq) > after)
            .order_by(_messages.c.conversation_id, _messages.c.seq)
            .limit(BATCH_ROWS)
        ).all()
        if not rows:
            return
        words = [
            {"conversation_id": row.conversation_id, "seq": row.seq, "text": _words_of(row.body)}
            for row in rows
        ]
        kept = [row for row in words if row["text"]]
        if kept:
            conn.execute(insert(_message_texts), kept)
        after = (rows[-1].conversation_id, rows[-1].seq)


def _words_of(body: str) -> str:
    """The message's words; "" for a body this code cannot read (left unindexed)."""
    try:
        (message,) = conversation_adapter.validate_json("[" + body + "]")
    except (ValidationError, ValueError):
        return ""
    return searchable_text(message)
