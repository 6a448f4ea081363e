"""Chat search on SQLite (FTS5) and PostgreSQL (full text): titles and words, the person's
own chats only, hostile queries read as plain words, old messages indexed by migration 9."""

from __future__ import annotations

import pytest
from sqlalchemy import insert, text
from storehelpers import said, sample_chat

from swiggy_core.models import ChatMessage, block_from_dict
from swiggy_core.store import ChatStore
from swiggy_core.store.schema import messages


def _chat(store: ChatStore, user_id: str, vertical_id: str, *texts: str) -> str:
    chat = store.create_conversation(user_id, vertical_id)
    roles = ["user", "assistant"]
    store.append_messages(chat, [said(words, roles[i % 2]) for i, words in enumerate(texts)])
    return chat


def _found(store: ChatStore, query: str, user_id: str = "alice") -> list[str]:
    return [hit.chat.id for hit in store.search_chats(user_id, query)]


def test_a_chat_is_found_by_its_title_and_by_what_was_said(store):
    dal = _chat(store, "alice", "instamart", "Dal tadka for four", "Toor dal, ghee and jeera.")
    pizza = _chat(store, "alice", "food", "Something cheesy", "Margherita from Pizza Hut?")
    (by_title,) = store.search_chats("alice", "tadka")
    assert (by_title.chat.id, by_title.in_title, by_title.chat.vertical_id) == (
        dal,
        True,
        "instamart",
    )
    (by_words,) = store.search_chats("alice", "pizza hut")
    assert (by_words.chat.id, by_words.in_title, by_words.seq) == (pizza, False, 1)
    assert "Pizza Hut" in by_words.snippet
    assert by_words.at >= by_words.chat.created_at
    assert _found(store, "ghe") == [dal]  # the last word is a prefix: search as you type
    assert _found(store, "dal pizza") == []  # every word must match


def test_a_title_match_ranks_first_then_the_closer_text(store):
    once = _chat(
        store, "alice", "instamart", "weekly shop", "Bread, butter, jam, rice, atta and paneer."
    )
    often = _chat(store, "alice", "instamart", "protein", "Paneer, more paneer, paneer tikka.")
    titled = _chat(store, "alice", "food", "Paneer butter masala", "Ordering now.")
    assert _found(store, "paneer") == [titled, often, once]


def test_another_persons_chats_are_never_found(store):
    mine = _chat(store, "alice", "food", "biryani please")
    _chat(store, "bob", "food", "biryani please", "Biryani from Paradise.")
    assert _found(store, "biryani") == [mine]
    assert _found(store, "paradise") == []
    assert _found(store, "biryani", user_id="carol") == []


def test_tool_inputs_and_results_are_never_searched(store):
    chat = store.create_conversation("alice", "instamart")
    store.append_messages(chat, sample_chat())  # input {"query": "amul milk"}, result "{}"
    secret = ChatMessage(
        role="assistant",
        content=[
            block_from_dict(
                {
                    "type": "mcp_tool_use",
                    "id": "m2",
                    "name": "get_cart",
                    "server_name": "swiggy-instamart",
                    "input": {"zebracode": "zebra"},
                }
            ),
            block_from_dict(
                {"type": "mcp_tool_result", "tool_use_id": "m2", "content": "token sekrit42"}
            ),
        ],
    )
    store.append_messages(chat, [secret])
    assert _found(store, "searching") == [chat]  # the assistant's own words are
    assert _found(store, "zebra") == []
    assert _found(store, "sekrit42") == []
    assert _found(store, "search_products") == []


def test_a_deleted_chat_is_never_found_again(store):
    gone = _chat(store, "alice", "food", "momos tonight")
    kept = _chat(store, "alice", "food", "momos tomorrow")
    store.delete_chats("alice", "food", only=[gone])
    assert _found(store, "momos") == [kept]
    store.delete_conversation(kept)
    assert _found(store, "momos") == []


HOSTILE = [
    '"',
    '""milk',
    "milk*",
    "*",
    "NEAR(milk eggs)",
    "milk NOT eggs",
    "milk OR nothing",
    "text:milk",
    "{text}: milk",
    "^milk",
    "milk AND",
    "%",
    "_",
    "%milk%",
    "'; DROP TABLE messages; --",
    "\\",
    "milk & !eggs | (",
    "milk:*",
    "<b>milk</b>",
    "🥛 milk",
    "\x00milk",
    "",
    "   ",
    "milk " * 2000,
]


@pytest.mark.parametrize("query", HOSTILE)
def test_hostile_queries_are_read_as_plain_words(store, query):
    milk = _chat(store, "alice", "instamart", "Amul milk 1 l", "Two packs of milk and eggs.")
    _chat(store, "bob", "instamart", "milk for bob")
    found = _found(store, query)
    assert set(found) <= {milk}
    assert store.count_conversations() == 2  # nothing was dropped
    assert store.load_messages(milk)[0].text() == "Amul milk 1 l"


def test_operators_are_words_not_syntax(store):
    near = _chat(store, "alice", "food", "NEAR the station", "Anything near the station?")
    _chat(store, "alice", "food", "station snacks")
    assert _found(store, "NEAR station") == [near]
    assert _found(store, "station OR nothing") == []


def test_words_in_any_script_are_found(store):
    hindi = _chat(store, "alice", "instamart", "दूध और ब्रेड चाहिए")
    accented = _chat(store, "alice", "instamart", "Crème brûlée for dessert")
    assert _found(store, "दूध") == [hindi]
    assert _found(store, "BRÛLÉE") == [accented]


def test_migration_9_indexes_the_messages_stored_before_it(database_url, open_store):
    store = open_store()
    chat = store.create_conversation("alice", "food")
    old_rows = [
        '{"role":"user","content":"Masala dosa from before"}',
        '{"role":"assistant","content":[{"type":"text","text":"Vada too?"},'
        '{"type":"mcp_tool_use","id":"t","name":"search","server_name":"s",'
        '"input":{"q":"hiddenword"}}]}',
        "not json at all",
    ]
    with store.engine.begin() as conn:
        if store.engine.dialect.name == "sqlite":
            conn.exec_driver_sql("DROP TABLE message_texts_fts")
        conn.exec_driver_sql("DROP TABLE message_texts")
        conn.execute(text("DELETE FROM schema_version WHERE version = 9"))
        conn.execute(
            insert(messages),
            [{"conversation_id": chat, "seq": i, "body": body} for i, body in enumerate(old_rows)],
        )
    store.close()
    reopened = open_store()
    assert _found(reopened, "dosa") == [chat]
    assert _found(reopened, "vada") == [chat]
    assert _found(reopened, "hiddenword") == []
