"""Find a person's chats by their words: titles and what was said, in SQL.

The person's query is never handed to a query language as they typed it: it is cut into
words (letters and digits), each word becomes a quoted term, all must match, and the last
is a prefix (search as you type). So FTS5 operators, column filters, quotes, `%` and `*`
are only ever words. SQLite ranks by FTS5's bm25, PostgreSQL by ts_rank over the GIN
index; a chat whose title holds every word comes first. Only the person's own chats that
hold a message are ever read.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from sqlalchemy import ColumnElement, Connection, TextClause, and_, select, text, tuple_

from swiggy_core.store.chat_listing import has_messages
from swiggy_core.store.database import Database
from swiggy_core.store.records import ConversationInfo
from swiggy_core.store.schema import conversations, messages
from swiggy_core.store.search_migration import FTS_TABLE, SEARCH_CONFIG

# Only this much of a query is read, as at most this many words.
MAX_QUERY_CHARS: Final = 200
MAX_QUERY_WORDS: Final = 8
# Hits per search at most, whatever the caller asks.
MAX_HITS: Final = 50
# Words of context in a snippet around the matched words.
SNIPPET_WORDS: Final = 14
# Letters, digits and combining marks make words (as FTS5's unicode61 reads them).
_WORD_CATEGORIES: Final = frozenset("LNM")

# The best message of each chat is chosen by bm25 first; only the chosen few get a
# snippet (cutting one out of every matching message would cost far more).
_SQLITE_HITS: Final = text(f"""
WITH hits AS (
  SELECT t.id, t.conversation_id, t.seq, bm25({FTS_TABLE}) AS rank
  FROM {FTS_TABLE} JOIN message_texts AS t ON t.id = {FTS_TABLE}.rowid
  JOIN conversations AS c ON c.id = t.conversation_id
  WHERE {FTS_TABLE} MATCH :terms AND c.user_id = :user_id
), best AS (
  SELECT *, row_number() OVER (PARTITION BY conversation_id ORDER BY rank, seq DESC) AS nth
  FROM hits
), chosen AS (
  SELECT id, conversation_id, seq, rank FROM best WHERE nth = 1
  ORDER BY rank, conversation_id LIMIT :limit
)
SELECT chosen.conversation_id, chosen.seq, chosen.rank,
       snippet({FTS_TABLE}, 0, '', '', '…', {SNIPPET_WORDS}) AS snippet
FROM {FTS_TABLE} JOIN chosen ON {FTS_TABLE}.rowid = chosen.id
WHERE {FTS_TABLE} MATCH :terms
ORDER BY chosen.rank, chosen.conversation_id
""")
_POSTGRES_HITS: Final = text(f"""
WITH hits AS (
  SELECT t.conversation_id, t.seq, t.text,
         ts_rank(to_tsvector('{SEARCH_CONFIG}', t.text), to_tsquery('{SEARCH_CONFIG}', :terms))
         AS score
  FROM message_texts AS t JOIN conversations AS c ON c.id = t.conversation_id
  WHERE to_tsvector('{SEARCH_CONFIG}', t.text) @@ to_tsquery('{SEARCH_CONFIG}', :terms)
    AND c.user_id = :user_id
), best AS (
  SELECT *, row_number() OVER (PARTITION BY conversation_id ORDER BY score DESC, seq DESC)
         AS nth
  FROM hits
)
SELECT conversation_id, seq,
       ts_headline('{SEARCH_CONFIG}', text, to_tsquery('{SEARCH_CONFIG}', :terms),
                   'StartSel="", StopSel="", MaxWords={SNIPPET_WORDS}, MinWords=5,
                    MaxFragments=1, FragmentDelimiter=" … "') AS snippet,
       -score AS rank
FROM best WHERE nth = 1 ORDER BY score DESC, conversation_id LIMIT :limit
""")


@dataclass(frozen=True, slots=True)
class ChatHit:
    """One chat a search found: the chat (its shop is `chat.vertical_id`), the words
    around the match as stored (plain text, to be shown escaped), and when they were said."""

    chat: ConversationInfo
    snippet: str
    at: datetime
    # The matched message (None when only the title matched).
    seq: int | None
    in_title: bool


def query_words(query: str) -> list[str]:
    """The person's query as plain words, lower-cased; [] when it holds none."""
    folded = unicodedata.normalize("NFKC", query[:MAX_QUERY_CHARS]).casefold()
    kept = (c if unicodedata.category(c)[0] in _WORD_CATEGORIES else " " for c in folded)
    return "".join(kept).split()[:MAX_QUERY_WORDS]


def search_chats(db: Database, user_id: str, query: str, limit: int) -> list[ChatHit]:
    """The person's chats whose title or words hold every word of `query`, best first."""
    words = query_words(query)
    limit = max(0, min(limit, MAX_HITS))
    if not words or limit == 0:
        return []
    with db.read() as conn:
        titled = _title_hits(conn, user_id, words, limit)
        said = _text_hits(conn, user_id, words, limit)
        chats = _chats(conn, {row.conversation_id for row in said} - titled.keys())
        times = _message_times(conn, [(row.conversation_id, row.seq) for row in said])
    by_chat = {row.conversation_id: row for row in said}
    hits = [_titled_hit(info, by_chat.get(info.id), times) for info in titled.values()]
    for row in said:
        info = chats.get(row.conversation_id)
        if info is not None:
            at = times.get((row.conversation_id, row.seq)) or info.updated_at
            hits.append(ChatHit(info, row.snippet, at, row.seq, in_title=False))
    return hits[:limit]


def _titled_hit(
    info: ConversationInfo, row: Any | None, times: dict[tuple[str, int], datetime]
) -> ChatHit:
    if row is None:
        return ChatHit(info, "", info.updated_at, None, in_title=True)
    at = times.get((info.id, row.seq)) or info.updated_at
    return ChatHit(info, row.snippet, at, row.seq, in_title=True)


def _text_hits(conn: Connection, user_id: str, words: list[str], limit: int) -> list[Any]:
    if conn.dialect.name == "sqlite":
        # Every word a quoted FTS5 string (words hold no quote), the last one a prefix.
        terms = " ".join(f'"{word}"' for word in words) + "*"
        statement = _SQLITE_HITS
    else:
        terms = " & ".join(f"'{word}'" for word in words) + ":*"
        statement = _POSTGRES_HITS
    params = {"terms": terms, "user_id": user_id, "limit": limit}
    return list(conn.execute(statement, params).all())


def _title_hits(
    conn: Connection, user_id: str, words: list[str], limit: int
) -> dict[str, ConversationInfo]:
    """The person's chats whose title holds every word, newest first."""
    matches: ColumnElement[bool] | TextClause
    if conn.dialect.name == "sqlite":
        # Words hold no `%`, `_` or backslash (see query_words): nothing to escape.
        patterns = ["%" + word + "%" for word in words]
        matches = and_(*(conversations.c.title.ilike(p) for p in patterns))
    else:
        terms = " & ".join(f"'{word}'" for word in words) + ":*"
        matches = text(
            f"to_tsvector('{SEARCH_CONFIG}', conversations.title) "
            f"@@ to_tsquery('{SEARCH_CONFIG}', :title_terms)"
        ).bindparams(title_terms=terms)
    query = (
        select(conversations)
        .where(conversations.c.user_id == user_id, has_messages(), matches)
        .order_by(conversations.c.updated_at.desc(), conversations.c.id)
        .limit(limit)
    )
    return {row.id: _info(row) for row in conn.execute(query)}


def _chats(conn: Connection, ids: set[str]) -> dict[str, ConversationInfo]:
    if not ids:
        return {}
    rows = conn.execute(select(conversations).where(conversations.c.id.in_(sorted(ids))))
    return {row.id: _info(row) for row in rows}


def _message_times(
    conn: Connection, keys: list[tuple[str, int]]
) -> dict[tuple[str, int], datetime]:
    if not keys:
        return {}
    query = select(messages.c.conversation_id, messages.c.seq, messages.c.created_at).where(
        tuple_(messages.c.conversation_id, messages.c.seq).in_(keys)
    )
    return {
        (row.conversation_id, row.seq): row.created_at
        for row in conn.execute(query)
        if row.created_at is not None
    }


def _info(row: Any) -> ConversationInfo:
    return ConversationInfo(
        row.id, row.user_id, row.vertical_id, row.title, row.updated_at, row.created_at
    )
