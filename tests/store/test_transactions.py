"""SQLite transactions as `Database` begins them: a read is one snapshot, a write holds
the write lock from its start (so writers queue instead of failing half-way), a failed
write leaves nothing behind."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text
from storehelpers import said

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
