"""The chat list pages in SQL: newest activity first, every chat exactly once across pages
even when times tie, and a page costs the same at 35 chats as at 600."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

from sqlalchemy import insert, update
from sqlite_steps import query_plans, steps_of
from storehelpers import said

from swiggy_core.store import ChatStore, ConversationInfo
from swiggy_core.store.schema import conversations, messages

PAGE = 5
# Three moments shared by many chats, so the order must fall back on a tie-break.
TIED = [datetime(2026, 11, 23, 6, minute, tzinfo=UTC) for minute in (1, 2, 3)]


def _chats_with_tied_times(store: ChatStore, count: int) -> list[str]:
    """`count` chats with a message whose activity and creation times tie in groups."""
    ids = []
    for index in range(count):
        chat = store.create_conversation("alice", "food")
        store.append_messages(chat, [said(f"chat {index}")])
        moment = TIED[index % len(TIED)]
        created = moment - timedelta(minutes=index % 2)
        with store.engine.begin() as conn:
            conn.execute(
                update(conversations)
                .where(conversations.c.id == chat)
                .values(updated_at=moment, created_at=created)
            )
        ids.append(chat)
    return ids


def _all_pages(store: ChatStore, *, empty_too: bool) -> list[ConversationInfo]:
    listing = store.list_conversations if empty_too else store.list_chats
    found: list[ConversationInfo] = []
    while True:
        page = listing("alice", "food", limit=PAGE, before=found[-1] if found else None)
        assert len(page) <= PAGE
        found.extend(page)
        if len(page) < PAGE:
            return found


def test_pages_hold_every_chat_exactly_once_when_times_tie(store: ChatStore) -> None:
    ids = _chats_with_tied_times(store, 23)
    empty = store.new_chat("alice", "food")
    store.create_conversation("bob", "food")
    paged = _all_pages(store, empty_too=False)
    assert sorted(chat.id for chat in paged) == sorted(ids)  # each once, the empty one not
    assert paged == store.list_chats("alice", "food")  # the same order as one read
    keys = [(chat.updated_at, chat.created_at, chat.id) for chat in paged]
    assert keys == sorted(keys, reverse=True)
    everything = _all_pages(store, empty_too=True)
    assert sorted(chat.id for chat in everything) == sorted([*ids, empty])
    assert everything[0].id == empty  # "New chat" was touched last
    assert store.list_conversations("alice", "food", limit=1) == everything[:1]


def test_the_count_and_the_open_chat_come_from_sql(store: ChatStore) -> None:
    ids = _chats_with_tied_times(store, 4)
    empty = store.new_chat("alice", "food")
    theirs = store.create_conversation("bob", "food")
    store.append_messages(theirs, [said("mine")])
    assert store.count_chats("alice", "food") == 4
    assert store.count_chats("alice", "style") == 0
    found = store.find_chat("alice", "food", ids[2])
    assert found is not None and found.id == ids[2] and found.title == "chat 2"
    assert store.find_chat("alice", "food", empty) is None  # not listed: no message yet
    assert store.find_chat("alice", "food", theirs) is None  # someone else's
    assert store.find_chat("alice", "style", ids[2]) is None  # another shop


def _many_chats(store: ChatStore, count: int) -> None:
    """`count` chats with a message each, written in one go (only reads are measured)."""
    start = datetime(2026, 11, 1, tzinfo=UTC)
    rows = [
        {
            "id": str(uuid.uuid4()),
            "user_id": "alice",
            "vertical_id": "food",
            "title": f"chat {index}",
            "created_at": start + timedelta(minutes=index),
            "updated_at": start + timedelta(minutes=index),
        }
        for index in range(count)
    ]
    bodies = [{"conversation_id": row["id"], "seq": 0, "body": '{"role":"user","content":"hi"}'}
              for row in rows]  # fmt: skip
    with store.engine.begin() as conn:
        conn.execute(insert(conversations), rows)
        conn.execute(insert(messages), bodies)


def test_the_first_page_costs_the_same_at_35_and_600_chats(tmp_path) -> None:
    """SQLite's own step count for the sidebar's page (30 and one more to tell if older
    ones exist), the newest chat and the open one: no clock."""
    few, many = (ChatStore(f"sqlite:///{tmp_path / name}") for name in ("few.db", "many.db"))
    try:
        _many_chats(few, 35)  # more than a page, so both pages are full
        _many_chats(many, 600)

        def sidebar(store: ChatStore) -> None:
            shown = store.list_chats("alice", "food", limit=31)
            newest = store.list_conversations("alice", "food", limit=1)
            assert newest[0] == shown[0]

        assert steps_of(many, lambda: sidebar(many)) == steps_of(few, lambda: sidebar(few))
        plans = query_plans(many.engine, lambda: sidebar(many))
        assert all("ix_conversations_user_vertical_activity" in step for step in plans
                   if "conversations" in step), plans  # fmt: skip
        assert not any("TEMP B-TREE" in step for step in plans), plans  # no sort of them all
    finally:
        few.close()
        many.close()
