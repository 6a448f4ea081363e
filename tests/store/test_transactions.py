"""Transactions as `Database` begins them. SQLite: a read is one snapshot, a write holds
the write lock from its start (so writers queue instead of failing half-way), a failed
write leaves nothing behind. Both databases: a best-effort write gives up soon on a
lock that a write which matters waits out."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest
from sqlalchemy import text
from storehelpers import libpq_url, said

from swiggy_core.errors import ErrorCode
from swiggy_core.store import ChatStore, StoreError
from swiggy_core.store.database import Database

COUNT = text("SELECT count(*) FROM messages")


@pytest.fixture
def url(tmp_path: Path) -> str:
    address = f"sqlite:///{tmp_path / 'chats.db'}"
    ChatStore(address).close()  # the schema
    return address


def test_a_read_sees_one_snapshot_while_another_process_writes(url: str) -> None:
    reader, writer = Database(url, busy_timeout_ms=1000), ChatStore(url)
    chat = writer.create_conversation("alice", "food")
    with reader.read() as conn:
        before = conn.execute(COUNT).scalar_one()
        writer.append_messages(chat, [said("meanwhile")])  # committed in between
        during = conn.execute(COUNT).scalar_one()
    with reader.read() as conn:
        after = conn.execute(COUNT).scalar_one()
    assert (before, during, after) == (0, 0, 1)
    reader.close()
    writer.close()


def test_a_write_holds_the_lock_from_its_start(url: str) -> None:
    first, second = Database(url, busy_timeout_ms=200), ChatStore(url, busy_timeout_ms=200)
    chat = second.create_conversation("alice", "food")
    # Nothing written yet in the first: its lock is already held.
    with first.write(), pytest.raises(StoreError) as caught:
        second.append_messages(chat, [said("waits, then gives up")])
    assert caught.value.code == ErrorCode.STORE_BUSY
    assert second.append_messages(chat, [said("once it is free")]) == [0]
    first.close()
    second.close()


def test_a_write_that_fails_half_way_leaves_nothing(url: str) -> None:
    db, store = Database(url, busy_timeout_ms=1000), ChatStore(url)
    chat = store.create_conversation("alice", "food")
    store.append_messages(chat, [said("kept")])
    with pytest.raises(RuntimeError), db.write() as conn:
        conn.execute(text("DELETE FROM messages"))
        raise RuntimeError("cut off")
    with db.read() as conn:
        assert conn.execute(COUNT).scalar_one() == 1
    with db.write() as conn:  # and the connection was given back clean
        conn.execute(text("DELETE FROM messages"))
    assert store.load_messages(chat) == []
    db.close()
    store.close()


@contextmanager
def _locked_for(database_url: str, seconds: float) -> Iterator[None]:
    """Another process holds the database's write lock for `seconds` (from the start)."""
    if database_url.startswith("sqlite"):
        holder: Any = sqlite3.connect(
            database_url.removeprefix("sqlite:///"), isolation_level=None, check_same_thread=False
        )
        holder.execute("BEGIN EXCLUSIVE")
        release = lambda: holder.execute("ROLLBACK")  # noqa: E731
    else:
        holder = psycopg.connect(libpq_url(database_url))
        holder.execute("LOCK TABLE preferences IN ACCESS EXCLUSIVE MODE")
        release = holder.rollback
    timer = threading.Timer(seconds, release)
    timer.start()
    try:
        yield
    finally:
        timer.join()
        holder.close()


def test_a_best_effort_write_gives_up_soon_where_a_write_waits(
    open_store: Callable[..., ChatStore], database_url: str
) -> None:
    store = open_store(busy_timeout_ms=10_000)
    chosen = {"address_id": "home"}
    with _locked_for(database_url, 2.0):
        with pytest.raises(StoreError) as caught:  # a convenience: not worth the wait
            store.set_preference("alice", "address", chosen, best_effort=True)
        assert caught.value.code == ErrorCode.STORE_BUSY
        # A write that matters waits for the lock, with the store's own patience again.
        store.set_preference("alice", "address", chosen)
    assert store.get_preference("alice", "address") == chosen
