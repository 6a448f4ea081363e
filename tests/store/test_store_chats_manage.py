"""Managing chats: list, new, rename, delete one, clear all (SQLite and PostgreSQL)."""

from __future__ import annotations

import pytest
from storehelpers import new_approval, said, sample_chat


def _chat(store, user: str = "alice", vertical: str = "food", first: str = "Find milk") -> str:
    conversation_id = store.create_conversation(user, vertical)
    store.append_messages(conversation_id, [said(first), said("Here you go", "assistant")])
    return conversation_id


def test_list_shows_only_this_users_chats_with_messages_newest_first(store):
    older = _chat(store, first="Eggs and bread\nfor breakfast")
    newer = _chat(store, first="Paneer tonight")
    _chat(store, user="bob")
    _chat(store, vertical="style")
    store.create_conversation("alice", "food")  # empty: not listed
    listed = store.list_chats("alice", "food")
    assert [info.id for info in listed] == [newer, older]
    assert [info.title for info in listed] == ["Paneer tonight", "Eggs and bread"]
    assert all(info.created_at is not None for info in listed)
    store.append_messages(older, [said("And butter")])
    assert [info.id for info in store.list_chats("alice", "food")] == [older, newer]


def test_new_chat_reuses_the_empty_one_and_is_what_a_reload_opens(store):
    _chat(store)
    first = store.new_chat("alice", "food")
    assert store.load_messages(first) == []
    assert store.new_chat("alice", "food") == first
    assert store.list_conversations("alice", "food")[0].id == first
    assert store.new_chat("bob", "food") != first  # never someone else's
    store.append_messages(first, [said("Now it has words")])
    assert store.new_chat("alice", "food") != first


def test_rename_changes_the_title_only_and_only_for_the_owner(store):
    conversation_id = store.create_conversation("alice", "food")
    store.append_messages(conversation_id, sample_chat())
    before = store.load_messages(conversation_id)
    assert store.rename_chat("alice", conversation_id, "  Weekly shop \nsecond line") is True
    assert store.list_chats("alice", "food")[0].title == "Weekly shop"
    assert store.load_messages(conversation_id) == before
    assert store.rename_chat("bob", conversation_id, "Mine now") is False
    assert store.list_chats("alice", "food")[0].title == "Weekly shop"
    store.append_messages(conversation_id, [said("Later words")])  # keeps the new title
    assert store.list_chats("alice", "food")[0].title == "Weekly shop"
    with pytest.raises(ValueError):
        store.rename_chat("alice", conversation_id, "   ")


def test_delete_one_removes_it_whole_and_never_another_users(store):
    mine = _chat(store)
    other = _chat(store)
    bobs = _chat(store, user="bob")
    outcome = store.delete_chats("alice", "food", only=[mine])
    assert outcome.deleted == (mine,) and outcome.kept == ()
    assert store.load_messages(mine) == []
    assert store.conversation_owner(mine) is None
    assert [info.id for info in store.list_chats("alice", "food")] == [other]
    assert store.delete_chats("alice", "food", only=[bobs]).deleted == ()
    assert len(store.load_messages(bobs)) == 2


def test_clear_all_empties_one_shop_for_one_user(store):
    food = [_chat(store), _chat(store)]
    style = _chat(store, vertical="style")
    bobs = _chat(store, user="bob")
    outcome = store.delete_chats("alice", "food")
    assert sorted(outcome.deleted) == sorted(food)
    assert store.list_chats("alice", "food") == []
    assert [info.id for info in store.list_chats("alice", "style")] == [style]
    assert [info.id for info in store.list_chats("bob", "food")] == [bobs]


def test_a_chat_with_a_waiting_approval_or_a_running_turn_is_kept(store):
    waiting = _chat(store)
    running = _chat(store)
    done = _chat(store)
    free = _chat(store)
    store.create_approval(new_approval(waiting))
    finished = store.create_approval(new_approval(done))
    assert store.transition_approval(finished.id, ["pending"], "declined")
    outcome = store.delete_chats("alice", "food", spare=[running])
    assert sorted(outcome.deleted) == sorted([done, free])
    assert sorted(outcome.kept) == sorted([waiting, running])
    assert len(store.load_messages(waiting)) == 2
    assert store.delete_chats("alice", "food", only=[waiting]).kept == (waiting,)


def test_each_message_keeps_when_it_was_stored(store):
    conversation_id = _chat(store)
    first, second = store.load_since(conversation_id)
    assert first.at is not None and first.at.tzinfo is not None
    assert first.at == second.at  # appended together
    store.append_messages(conversation_id, [said("Later")])
    (later,) = store.load_since(conversation_id, 1)
    assert later.at is not None and later.at >= first.at
