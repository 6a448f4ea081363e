"""Turn leases on SQLite and a real PostgreSQL: one live holder per chat across engines
(processes), takeover after expiry only, renew and release by the holder only, and chat
deletion that respects a live reply."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from sqlalchemy import event

from swiggy_core.store import ChatStore
from swiggy_core.turn.lease import TurnElsewhere, TurnGate

TTL = timedelta(seconds=30)
T0 = datetime(2026, 11, 23, 6, 0, tzinfo=UTC)


def test_one_holder_at_a_time_and_takeover_only_after_expiry(
    open_store: Callable[..., ChatStore],
) -> None:
    first, second = open_store(), open_store()
    chat = first.create_conversation("asha@sandbox", "food")
    take = {"process": "test", "kind": "message", "ttl": TTL}
    assert first.leases.acquire(chat, "turn-a", now=T0, **take) is not None
    assert second.leases.acquire(chat, "turn-b", now=T0 + timedelta(seconds=29), **take) is None
    # Only the holder renews; the renewal keeps others out past the first expiry.
    assert not second.leases.renew(chat, "turn-b", now=T0, ttl=TTL)
    assert first.leases.renew(chat, "turn-a", now=T0 + timedelta(seconds=20), ttl=TTL)
    assert second.leases.acquire(chat, "turn-b", now=T0 + timedelta(seconds=40), **take) is None
    # A holder that stopped renewing (its process died) is taken over after its expiry.
    taken = second.leases.acquire(chat, "turn-b", now=T0 + timedelta(seconds=51), **take)
    assert taken is not None and taken.holder == "turn-b"
    assert not first.leases.renew(chat, "turn-a", now=T0 + timedelta(seconds=52), ttl=TTL)
    first.leases.release(chat, "turn-a")  # not theirs any more: nothing happens
    assert second.leases.live(chat, T0 + timedelta(seconds=52)) is not None
    second.leases.release(chat, "turn-b")
    assert second.leases.live(chat, T0 + timedelta(seconds=52)) is None


def test_a_free_chat_is_leased_with_one_statement(
    open_store: Callable[..., ChatStore],
) -> None:
    store = open_store()
    chat = store.create_conversation("asha@sandbox", "food")
    statements: list[str] = []

    def count(_conn: object, _cursor: object, statement: str, *_rest: object) -> None:
        statements.append(statement.split()[0])

    event.listen(store.engine, "before_cursor_execute", count)
    take = {"process": "test", "kind": "message", "ttl": TTL}
    assert store.leases.acquire(chat, "turn-a", now=T0, **take) is not None
    assert statements == ["INSERT"]
    statements.clear()  # held and live: the insert finds its row, the takeover finds it live
    assert store.leases.acquire(chat, "turn-b", now=T0, **take) is None
    assert statements == ["INSERT", "UPDATE"]
    assert store.leases.live(chat, T0).holder == "turn-a"  # type: ignore[union-attr]


def test_racing_acquirers_on_separate_engines_get_exactly_one_lease(
    open_store: Callable[..., ChatStore],
) -> None:
    stores = [open_store() for _ in range(4)]
    chat = stores[0].create_conversation("asha@sandbox", "food")
    start = threading.Barrier(len(stores))
    won: list[str] = []

    def race(index: int, store: ChatStore) -> None:
        start.wait()
        held = store.leases.acquire(
            chat, f"turn-{index}", process="test", kind="message", now=T0, ttl=TTL
        )
        if held is not None:
            won.append(held.holder)

    threads = [threading.Thread(target=race, args=pair) for pair in enumerate(stores)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert len(won) == 1


def test_the_gate_refuses_a_second_reply_and_frees_the_chat_on_release(store: ChatStore) -> None:
    chat = store.create_conversation("asha@sandbox", "food")
    gate = TurnGate(store.leases, ttl=TTL)
    held = gate.take(chat, "turn-a", "message")
    other_replica = TurnGate(store.leases, ttl=TTL)
    assert other_replica.busy(chat)
    try:
        other_replica.take(chat, "turn-b", "message")
    except TurnElsewhere as refused:
        assert refused.code.value == "E-1108"
        assert "another window" in refused.message
    else:
        raise AssertionError("a second reply was allowed while the first ran")
    held.release()
    assert not other_replica.busy(chat)
    other_replica.take(chat, "turn-b", "message").release()


def test_a_held_lease_is_renewed_while_its_turn_runs(store: ChatStore) -> None:
    chat = store.create_conversation("asha@sandbox", "food")
    gate = TurnGate(store.leases, ttl=timedelta(seconds=3))  # heartbeat every second
    held = gate.take(chat, "turn-a", "message")
    held.keep_alive()
    try:
        first = store.leases.live(chat, datetime.now(UTC))
        assert first is not None
        deadline = datetime.now(UTC) + timedelta(seconds=20)
        while datetime.now(UTC) < deadline:
            renewed = store.leases.live(chat, datetime.now(UTC))
            assert renewed is not None, "the lease lapsed while its holder was alive"
            if renewed.expires_at > first.expires_at:
                break
            threading.Event().wait(0.2)
        else:
            raise AssertionError("the lease was never renewed")
    finally:
        held.release()
    assert store.leases.live(chat, datetime.now(UTC)) is None


def test_deleting_chats_keeps_one_that_is_replying_anywhere(store: ChatStore) -> None:
    user = "asha@sandbox"
    busy = store.create_conversation(user, "food")
    idle = store.create_conversation(user, "food")
    held = TurnGate(store.leases, ttl=TTL).take(busy, "turn-a", "message")
    try:
        deletion = store.delete_chats(user, "food")
    finally:
        held.release()
    assert deletion.kept == (busy,) and deletion.deleted == (idle,)
    assert store.delete_chats(user, "food").deleted == (busy,)


def test_migration_6_adds_the_lease_table_to_a_database_of_version_5(store: ChatStore) -> None:
    from sqlalchemy import inspect, text

    columns = {column["name"] for column in inspect(store.engine).get_columns("turn_leases")}
    assert columns == {"conversation_id", "holder", "process", "kind", "acquired_at", "expires_at"}
    with store.engine.connect() as conn:
        versions = conn.execute(text("SELECT version FROM schema_version ORDER BY 1")).scalars()
        assert 6 in list(versions)  # later migrations may follow it
