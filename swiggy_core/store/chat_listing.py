"""A person's chats of one shop, newest activity first, a page at a time, in SQL.

The order is (updated_at, created_at, id), newest first: the id breaks ties, so keyset
pages (`before` = the last chat of the previous page) never skip or repeat a chat, and
each page is read along the (user_id, vertical_id, updated_at, created_at, id) index
(migration 8) whatever the number of chats.
"""

from __future__ import annotations

from typing import Any, TypedDict, Unpack

from sqlalchemy import ColumnElement, Exists, Row, Select, and_, exists, func, select, tuple_

from swiggy_core.store.database import Database
from swiggy_core.store.records import ConversationInfo
from swiggy_core.store.schema import conversations, messages


class Paging(TypedDict, total=False):
    """Which page of a listing: `limit` chats (all when None), after `before` (the last
    chat of the previous page)."""

    limit: int | None
    before: ConversationInfo | None


def list_conversations(
    db: Database, user_id: str, vertical_id: str, **paging: Unpack[Paging]
) -> list[ConversationInfo]:
    """The user's conversations in one vertical, most recently active first."""
    return _listed(db, select(conversations).where(shop_of(user_id, vertical_id)), paging)


def list_chats(
    db: Database, user_id: str, vertical_id: str, **paging: Unpack[Paging]
) -> list[ConversationInfo]:
    """The user's chats in one vertical that hold a message, most recently active first.

    An empty conversation is a "New chat" nobody has written in yet: not worth listing.
    """
    query = select(conversations).where(shop_of(user_id, vertical_id), has_messages())
    return _listed(db, query, paging)


def count_chats(db: Database, user_id: str, vertical_id: str) -> int:
    """How many chats `list_chats` would list, counted in SQL."""
    query = (
        select(func.count())
        .select_from(conversations)
        .where(shop_of(user_id, vertical_id), has_messages())
    )
    with db.read() as conn:
        return int(conn.execute(query).scalar_one())


def find_chat(
    db: Database, user_id: str, vertical_id: str, conversation_id: str
) -> ConversationInfo | None:
    """The user's chat in one vertical with this id, if it is one `list_chats` lists."""
    query = select(conversations).where(
        conversations.c.id == conversation_id, shop_of(user_id, vertical_id), has_messages()
    )
    with db.read() as conn:
        row = conn.execute(query).one_or_none()
    return None if row is None else _info(row)


def shop_of(user_id: str, vertical_id: str) -> ColumnElement[bool]:
    """The conversations of this person in this shop."""
    return and_(conversations.c.user_id == user_id, conversations.c.vertical_id == vertical_id)


def has_messages() -> Exists:
    """The conversation holds at least one message (an empty one is an unused "New chat")."""
    return exists().where(messages.c.conversation_id == conversations.c.id)


def _listed(db: Database, query: Select[Any], paging: Paging) -> list[ConversationInfo]:
    """Newest activity first, the id breaking ties, so pages never skip or repeat a chat;
    read along the (user_id, vertical_id, updated_at, created_at, id) index."""
    activity = (conversations.c.updated_at, conversations.c.created_at, conversations.c.id)
    before = paging.get("before")
    if before is not None:
        if before.created_at is None:
            raise ValueError("A page starts after a chat the store listed.")
        query = query.where(tuple_(*activity) < (before.updated_at, before.created_at, before.id))
    query = query.order_by(*(column.desc() for column in activity))
    limit = paging.get("limit")
    if limit is not None:
        query = query.limit(max(0, limit))
    with db.read() as conn:
        return [_info(row) for row in conn.execute(query)]


def _info(row: Row[Any]) -> ConversationInfo:
    return ConversationInfo(
        row.id, row.user_id, row.vertical_id, row.title, row.updated_at, row.created_at
    )
