"""Loaded conversations are parsed once, then extended with only what was stored since."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import pytest
from sqlalchemy import event
from storehelpers import sample_chat

from swiggy_core.models import ChatMessage, TextBlock, ToolResultBlock, ToolUseBlock
from swiggy_core.store import ChatStore, chats


def _dumped(messages: list[ChatMessage]) -> list[dict[str, object]]:
    return [message.model_dump(mode="json") for message in messages]


def test_a_second_load_reads_only_the_new_rows(
    store: ChatStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    conversation_id = store.create_conversation("u1", "food")
    store.append_messages(conversation_id, sample_chat() * 20)
    first = store.load_messages(conversation_id)
    rows_read: list[int] = []
    real = chats.load_after

    def counting(db: object, cid: str, known: int) -> tuple[bool, list[object]]:
        extends, found = real(db, cid, known)  # type: ignore[arg-type]
        rows_read.append(len(found))
        return extends, found  # type: ignore[return-value]

    monkeypatch.setattr(chats, "load_after", counting)
    assert _dumped(store.load_messages(conversation_id)) == _dumped(first)
    assert rows_read == [0]  # nothing new: not one row fetched or parsed again
    store.append_messages(conversation_id, [ChatMessage(role="user", content="and eggs")])
    again = store.load_messages(conversation_id)
    assert rows_read == [0, 1]
    assert len(again) == len(first) + 1 and again[-1].text() == "and eggs"


def test_a_load_reads_one_snapshot(store: ChatStore) -> None:
    """The newest seq and the rows after the copy come from one transaction: no other
    writer can slip in between the two."""
    conversation_id = store.create_conversation("u1", "food")
    store.append_messages(conversation_id, sample_chat())
    store.load_messages(conversation_id)
    store.append_messages(conversation_id, [ChatMessage(role="user", content="and eggs")])
    checkouts: list[object] = []
    event.listen(store.engine, "checkout", lambda *args: checkouts.append(args))
    assert store.load_messages(conversation_id)[-1].text() == "and eggs"
    assert len(checkouts) == 1


def test_another_process_appends_and_deletes_are_seen(
    open_store: Callable[..., ChatStore],
) -> None:
    mine, theirs = open_store(), open_store()  # two engines: like two app replicas
    conversation_id = mine.create_conversation("u1", "food")
    mine.append_messages(conversation_id, sample_chat())
    assert len(mine.load_messages(conversation_id)) == len(sample_chat())
    theirs.append_messages(conversation_id, [ChatMessage(role="user", content="from a tab")])
    assert mine.load_messages(conversation_id)[-1].text() == "from a tab"
    theirs.delete_conversation(conversation_id)
    assert mine.load_messages(conversation_id) == []
    assert mine.load_since(conversation_id) == []


def test_load_since_is_served_from_the_cache_with_seqs(store: ChatStore) -> None:
    conversation_id = store.create_conversation("u1", "food")
    seqs = store.append_messages(conversation_id, sample_chat())
    store.load_messages(conversation_id)
    later = store.append_messages(conversation_id, [ChatMessage(role="user", content="more")])
    tail = store.load_since(conversation_id, seqs[-1])
    assert [stored.seq for stored in tail] == later
    assert [stored.seq for stored in store.load_since(conversation_id)] == seqs + later


def test_many_random_appends_read_the_same_as_a_fresh_store(
    open_store: Callable[..., ChatStore],
) -> None:
    rng = random.Random(7)
    cached = open_store()
    conversation_id = cached.create_conversation("u1", "food")
    pool = sample_chat() + [ChatMessage(role="user", content=f"note {n}") for n in range(5)]
    for _ in range(30):
        cached.append_messages(conversation_id, rng.sample(pool, rng.randint(1, 3)))
        if rng.random() < 0.6:
            cached.load_messages(conversation_id)
    fresh = open_store()
    assert _dumped(cached.load_messages(conversation_id)) == _dumped(
        fresh.load_messages(conversation_id)
    )


def _answer(tool_use_id: str) -> ChatMessage:
    """The app's answer to a tool call: a user message nobody typed (it opens no turn)."""
    return ChatMessage(role="user", content=[ToolResultBlock(tool_use_id=tool_use_id)])


def _scanned_starts(messages: Sequence[ChatMessage]) -> list[int]:
    return [index for index, message in enumerate(messages) if message.opens_turn()]


def test_turn_starts_are_kept_as_turns_are_added(store: ChatStore) -> None:
    conversation_id = store.create_conversation("u1", "food")
    store.append_messages(conversation_id, [*sample_chat() * 3, _answer("m1")])
    before = store.load_history(conversation_id)
    assert list(before.turn_starts) == [0, 2, 4]  # the answer opens no turn
    prepended = ChatMessage(
        role="user", content=[ToolResultBlock(tool_use_id="a1"), TextBlock(text="and eggs")]
    )
    store.append_messages(conversation_id, [prepended, sample_chat()[1], _answer("m2")])
    after = store.load_history(conversation_id)
    assert list(after.turn_starts) == [0, 2, 4, 7] == _scanned_starts(after.messages)
    assert after.messages[: len(before.messages)] == before.messages  # extended, not re-read
    assert all(a is b for a, b in zip(before.messages, after.messages, strict=False))
    assert list(after.messages) == store.load_messages(conversation_id)


def test_turn_starts_are_right_after_a_reload_and_a_delete_elsewhere(
    open_store: Callable[..., ChatStore],
) -> None:
    mine, theirs = open_store(), open_store()
    conversation_id = mine.create_conversation("u1", "food")
    mine.append_messages(conversation_id, sample_chat() * 4)
    assert len(mine.load_history(conversation_id).turn_starts) == 4
    theirs.append_messages(conversation_id, [*sample_chat(), _answer("m1")])
    assert len(mine.load_history(conversation_id).turn_starts) == 5
    reloaded = open_store().load_history(conversation_id)  # a fresh process reads it all
    assert reloaded.turn_starts == mine.load_history(conversation_id).turn_starts
    theirs.delete_conversation(conversation_id)
    gone = mine.load_history(conversation_id)
    assert gone.messages == () and gone.turn_starts == ()


def test_open_tool_uses_are_kept_as_answers_come(store: ChatStore) -> None:
    conversation_id = store.create_conversation("u1", "food")
    ask = ToolUseBlock(id="ask1", name="request_confirmation", input={})
    store.append_messages(
        conversation_id, [*sample_chat(), ChatMessage(role="assistant", content=[ask])]
    )
    assert store.load_history(conversation_id).open_uses == {"ask1"}  # m1 has its result
    store.append_messages(conversation_id, [_answer("ask1"), *sample_chat()])
    assert store.load_history(conversation_id).open_uses == frozenset()
