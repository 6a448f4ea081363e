"""Append-only messages: two tabs, many threads, catching up with load_since."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest
from sqlalchemy import event
from storehelpers import libpq_url, said

from swiggy_core.errors import ErrorCode
from swiggy_core.store import ChatStore, StoreError

THREADS = 8
MESSAGES_PER_THREAD = 20


def test_two_tabs_appending_without_reloading_both_keep_their_messages(open_store):
    first_tab, second_tab = open_store(), open_store()
    conversation_id = first_tab.create_conversation("alice", "food")
    first_tab.append_messages(conversation_id, [said("from tab one")])
    second_tab.append_messages(conversation_id, [said("from tab two")])
    first_tab.append_messages(conversation_id, [said("tab one again")])
    stored = open_store().load_since(conversation_id)
    assert [entry.seq for entry in stored] == [0, 1, 2]
    assert [entry.message.text() for entry in stored] == [
        "from tab one",
        "from tab two",
        "tab one again",
    ]


def test_concurrent_appends_from_many_threads_keep_every_message(open_store):
    stores = [open_store(), open_store()]  # two engines, as two processes would have
    conversation_id = stores[0].create_conversation("alice", "food")
    start = threading.Barrier(THREADS)

    def writer(number: int) -> list[int]:
        store = stores[number % len(stores)]
        start.wait()
        seqs: list[int] = []
        for index in range(MESSAGES_PER_THREAD):
            seqs += store.append_messages(conversation_id, [said(f"t{number}-m{index}")])
        return seqs

    with ThreadPoolExecutor(THREADS) as pool:
        results = list(pool.map(writer, range(THREADS)))

    total = THREADS * MESSAGES_PER_THREAD
    assert sorted(seq for seqs in results for seq in seqs) == list(range(total))
    for seqs in results:
        assert seqs == sorted(seqs)  # each writer's messages stay in its own order
    stored = stores[1].load_since(conversation_id)
    assert [entry.seq for entry in stored] == list(range(total))
    texts = {entry.message.text() for entry in stored}
    assert texts == {f"t{n}-m{i}" for n in range(THREADS) for i in range(MESSAGES_PER_THREAD)}
    for number in range(THREADS):  # order within one writer is kept in storage too
        own = [int(t.split("-m")[1]) for t in (e.message.text() for e in stored)
               if t.startswith(f"t{number}-")]  # fmt: skip
        assert own == list(range(MESSAGES_PER_THREAD))


def test_a_batch_gets_consecutive_seqs(store):
    conversation_id = store.create_conversation("alice", "food")
    assert store.append_messages(conversation_id, [said("a"), said("b", "assistant")]) == [0, 1]
    assert store.append_messages(conversation_id, [said("c"), said("d", "assistant")]) == [2, 3]
    assert store.last_seq(conversation_id) == 3


def test_load_since_returns_only_newer_messages_in_order(store):
    conversation_id = store.create_conversation("alice", "food")
    store.append_messages(conversation_id, [said(f"m{index}") for index in range(5)])
    newer = store.load_since(conversation_id, after_seq=2)
    assert [(entry.seq, entry.message.text()) for entry in newer] == [(3, "m3"), (4, "m4")]
    assert store.load_since(conversation_id, after_seq=4) == []
    assert [entry.seq for entry in store.load_since(conversation_id)] == [0, 1, 2, 3, 4]
    assert store.load_since("no-such-conversation") == []
    assert store.last_seq("no-such-conversation") == -1


def test_conversations_do_not_share_seqs(store):
    first = store.create_conversation("alice", "food")
    second = store.create_conversation("alice", "food")
    assert store.append_messages(first, [said("a"), said("b")]) == [0, 1]
    assert store.append_messages(second, [said("c")]) == [0]
    assert [m.text() for m in store.load_messages(second)] == ["c"]


def test_appending_to_a_deleted_conversation_is_refused(open_store):
    first_tab, second_tab = open_store(), open_store()
    conversation_id = first_tab.create_conversation("alice", "food")
    first_tab.append_messages(conversation_id, [said("hello")])
    second_tab.delete_conversation(conversation_id)
    with pytest.raises(StoreError) as caught:
        first_tab.append_messages(conversation_id, [said("still there?")])
    assert caught.value.code == ErrorCode.STORE_FAILED
    assert "no longer exists" in caught.value.message
    assert first_tab.load_messages(conversation_id) == []


def test_a_seq_taken_by_another_writer_mid_append_is_retried_not_lost(postgres_database):
    """A writer that skips the conversation lock takes our seq between our read and insert;
    the append starts over with the next free seq and both rows survive."""
    store = ChatStore(postgres_database)
    conversation_id = store.create_conversation("alice", "food")
    store.append_messages(conversation_id, [said("first")])
    interloper = '{"role":"user","content":"interloper"}'
    fired: list[str] = []

    def take_the_next_seq(conn, cursor, statement, parameters, context, executemany):
        if statement.startswith("INSERT INTO messages") and not fired:
            fired.append(statement)
            with psycopg.connect(libpq_url(postgres_database), autocommit=True) as other:
                other.execute(
                    "INSERT INTO messages (conversation_id, seq, body) VALUES (%s, 1, %s)",
                    (conversation_id, interloper),
                )

    event.listen(store.engine, "before_cursor_execute", take_the_next_seq)
    try:
        assert store.append_messages(conversation_id, [said("second")]) == [2]
    finally:
        event.remove(store.engine, "before_cursor_execute", take_the_next_seq)
        store.close()
    assert fired
    reopened = ChatStore(postgres_database)
    texts = [entry.message.text() for entry in reopened.load_since(conversation_id)]
    reopened.close()
    assert texts == ["first", "interloper", "second"]
