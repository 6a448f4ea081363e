"""The words of each message a person saw, kept beside the message for chat search.

One `message_texts` row per stored message that showed words: the person's typed or
pressed text and the assistant's text blocks. Tool inputs, tool results (raw Swiggy
output, which may carry ids and tokens), hidden action tags and approval answers are
never indexed. Rows are written in the same transaction as their message and deleted with
their chat; the full-text index follows the rows (SQLite: FTS5 triggers, migration 9;
PostgreSQL: a GIN expression index).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Final

from sqlalchemy import Connection, delete, insert

from swiggy_core.actions import visible_text
from swiggy_core.models import ChatMessage, TextBlock
from swiggy_core.store.schema import message_texts

# Words beyond this many characters of one message are not searched (a pasted essay).
INDEXED_CHARS: Final = 20_000
_INSERT: Final = insert(message_texts)  # built once: building it per call cost more


def searchable_text(message: ChatMessage) -> str:
    """The words this message showed the person; "" when it showed none."""
    if message.role == "user":
        return visible_text(message).strip()[:INDEXED_CHARS]
    texts = [b.text.strip() for b in message.blocks() if isinstance(b, TextBlock)]
    return "\n".join(text for text in texts if text)[:INDEXED_CHARS]


def index_texts(
    conn: Connection, conversation_id: str, seqs: Sequence[int], texts: Sequence[str]
) -> None:
    """Keep the words of freshly appended messages (in the appending transaction)."""
    rows = [
        {"conversation_id": conversation_id, "seq": seq, "text": text}
        for seq, text in zip(seqs, texts, strict=True)
        if text
    ]
    if rows:
        conn.execute(_INSERT, rows)


def forget_texts(conn: Connection, conversation_ids: Collection[str]) -> None:
    """Drop the words of deleted chats, so search never finds what was deleted."""
    if conversation_ids:
        ids = list(conversation_ids)
        conn.execute(delete(message_texts).where(message_texts.c.conversation_id.in_(ids)))
