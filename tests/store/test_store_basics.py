"""Round trips (moved from tests/unit/test_store.py; saving is now appending)."""

from __future__ import annotations

from datetime import UTC

from storehelpers import said, sample_chat

from swiggy_core.store import ChatStore, redact


def test_chats_survive_a_new_store_on_the_same_database(open_store):
    store = open_store()
    conversation_id = store.create_conversation("alice", "food")
    assert store.append_messages(conversation_id, sample_chat()) == [0, 1]
    reopened = open_store()
    assert reopened.load_messages(conversation_id) == sample_chat()
    (info,) = reopened.list_conversations("alice", "food")
    assert info.title == "Find Amul milk"
    assert info.updated_at.tzinfo is UTC
    assert reopened.list_conversations("bob", "food") == []
    assert reopened.list_conversations("alice", "dining") == []


def test_appending_adds_and_delete_removes(store):
    conversation_id = store.create_conversation("alice", "food")
    store.append_messages(conversation_id, sample_chat())
    store.append_messages(conversation_id, sample_chat()[:1])
    assert len(store.load_messages(conversation_id)) == 3
    store.delete_conversation(conversation_id)
    assert store.load_messages(conversation_id) == []
    assert store.last_seq(conversation_id) == -1
    assert store.count_conversations() == 0
    assert store.conversation_owner(conversation_id) is None


def test_in_memory_store_shares_one_connection():
    store = ChatStore("sqlite://")
    conversation_id = store.create_conversation("u", "style")
    store.append_messages(conversation_id, sample_chat())
    assert store.load_messages(conversation_id)[0].text() == "Find Amul milk\nplease"
    store.close()


def test_redact_walks_nested_structures():
    assert redact({"a": [{"api_key": "x"}, "Bearer tok.en"]}) == {
        "a": [{"api_key": "[redacted]"}, "[redacted]"]
    }


def test_title_comes_from_the_first_user_message_and_then_stays(store):
    conversation_id = store.create_conversation("alice", "food")
    store.append_messages(conversation_id, [said("Hello there", role="assistant")])
    assert store.list_conversations("alice", "food")[0].title == ""
    store.append_messages(conversation_id, [said("  " + "x" * 100 + "\nsecond line")])
    store.append_messages(conversation_id, [said("Another question")])
    assert store.list_conversations("alice", "food")[0].title == "x" * 80


def test_a_given_title_is_kept(store):
    conversation_id = store.create_conversation("alice", "food", title="Weekly groceries")
    store.append_messages(conversation_id, [said("milk")])
    assert store.list_conversations("alice", "food")[0].title == "Weekly groceries"


def test_conversations_are_listed_newest_first_and_owned(store):
    older = store.create_conversation("alice", "food")
    newer = store.create_conversation("alice", "food")
    assert [info.id for info in store.list_conversations("alice", "food")] == [newer, older]
    store.append_messages(older, [said("back to this one")])
    assert [info.id for info in store.list_conversations("alice", "food")] == [older, newer]
    assert store.conversation_owner(older) == "alice"
    assert store.conversation_owner("no-such-id") is None
    assert store.count_conversations() == 2


def test_appending_nothing_changes_nothing(store):
    conversation_id = store.create_conversation("alice", "food")
    assert store.append_messages(conversation_id, []) == []
    assert store.last_seq(conversation_id) == -1
