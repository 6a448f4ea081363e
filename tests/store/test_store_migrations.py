"""Versioned migrations: old databases are adopted, fresh ones converge, races are harmless."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import pytest
from sqlalchemy import (
    Column,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    insert,
    inspect,
    text,
)
from storehelpers import said

from swiggy_core.errors import ErrorCode
from swiggy_core.store import ChatStore, StoreError
from swiggy_core.store.migrations import LATEST_VERSION
from swiggy_core.store.schema import metadata

# Every database here starts empty: old schemas are built by hand, fresh ones migrated.
pytestmark = pytest.mark.empty_database
OPENERS = 6

# The tables exactly as the first store (swiggy_core/store.py) created them with create_all.
old_metadata = MetaData()
old_conversations = Table(
    "conversations",
    old_metadata,
    Column("id", String(36), primary_key=True),
    Column("user_id", String(128), nullable=False, index=True),
    Column("vertical_id", String(32), nullable=False),
    Column("title", String(200), nullable=False, default=""),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)
old_messages = Table(
    "messages",
    old_metadata,
    Column("conversation_id", String(36), ForeignKey("conversations.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("body", Text, nullable=False),
)
old_preferences = Table(
    "preferences",
    old_metadata,
    Column("user_id", String(128), primary_key=True),
    Column("name", String(64), primary_key=True),
    Column("value", Text, nullable=False),
)
old_audit = Table(
    "audit",
    old_metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("user_id", String(128), nullable=False),
    Column("action", String(64), nullable=False),
    Column("detail", Text, nullable=False),
)


def _make_old_database(url: str, *, extra_sql: str = "") -> None:
    engine = create_engine(url)
    old_metadata.create_all(engine)
    now = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
    with engine.begin() as conn:
        conn.execute(
            insert(old_conversations).values(
                id="c-old", user_id="alice", vertical_id="food", title="Old chat",
                created_at=now, updated_at=now,
            )
        )  # fmt: skip
        conn.execute(
            insert(old_messages).values(
                conversation_id="c-old", seq=0, body='{"role":"user","content":"from before"}'
            )
        )
        conn.execute(
            insert(old_audit).values(at=now, user_id="alice", action="confirm", detail='{"n":1}')
        )
        conn.execute(insert(old_preferences).values(user_id="alice", name="a", value='{"x":1}'))
        if extra_sql:
            conn.exec_driver_sql(extra_sql)
    engine.dispose()


def _versions(store: ChatStore) -> list[tuple[int, datetime]]:
    with store.engine.connect() as conn:
        rows = conn.execute(text("SELECT version, applied_at FROM schema_version ORDER BY 1"))
        return [(row.version, row.applied_at) for row in rows]


def test_a_database_made_by_the_old_store_is_adopted_with_its_data(database_url, open_store):
    _make_old_database(database_url)
    store = open_store()
    assert (
        [version for version, _at in _versions(store)]
        == [1, 2, 3, 4, 5, 6, 7, 8, 9]
        == list(range(1, LATEST_VERSION + 1))
    )
    assert [m.text() for m in store.load_messages("c-old")] == ["from before"]
    (info,) = store.list_conversations("alice", "food")
    assert (info.title, info.updated_at) == ("Old chat", datetime(2024, 5, 1, 12, tzinfo=UTC))
    assert store.append_messages("c-old", [said("and now")]) == [1]
    assert store.audit_entries("alice") == [("confirm", {"n": 1})]
    store.record_audit("alice", "spend_call", {"n": 2}, conversation_id="c-old")
    assert store.audit_entries("alice", conversation_id="c-old") == [("spend_call", {"n": 2})]
    assert store.get_preference("alice", "a") == {"x": 1}
    assert store.approvals_for("c-old") == []


def test_a_migrated_database_has_exactly_the_current_schema(store):
    inspector = inspect(store.engine)
    for table in metadata.sorted_tables:
        stored = {c["name"]: c["nullable"] for c in inspector.get_columns(table.name)}
        assert stored == {c.name: c.nullable for c in table.columns}, table.name
    index_names = {
        index["name"] for name in ("approvals", "audit") for index in inspector.get_indexes(name)
    }
    assert {
        "ix_approvals_conversation_status",
        "ix_approvals_status_expires",
        "ix_audit_user_conversation",
    } <= index_names


def test_reopening_applies_nothing_again(open_store):
    first = _versions(open_store())
    open_store().close()
    assert _versions(open_store()) == first


def test_many_stores_opening_one_fresh_database_at_once_all_succeed(open_store):
    start = threading.Barrier(OPENERS)
    opened: list[ChatStore] = []
    failures: list[BaseException] = []

    def open_one() -> None:
        start.wait()
        try:
            opened.append(open_store())
        except BaseException as error:  # reported below with the real exception
            failures.append(error)

    threads = [threading.Thread(target=open_one) for _ in range(OPENERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert len(opened) == OPENERS
    assert [version for version, _at in _versions(opened[0])] == [1, 2, 3, 4, 5, 6, 7, 8, 9]
    conversation_id = opened[1].create_conversation("alice", "food")
    assert opened[2].append_messages(conversation_id, [said("works")]) == [0]


def test_a_failing_migration_raises_a_store_error_and_is_rolled_back(database_url):
    # An unrelated "approvals" table is in the way: migration 2 cannot index it.
    _make_old_database(database_url, extra_sql="CREATE TABLE approvals (x INTEGER)")
    with pytest.raises(StoreError) as caught:
        ChatStore(database_url)
    assert caught.value.code == ErrorCode.STORE_FAILED
    engine = create_engine(database_url)
    try:
        with engine.connect() as conn:
            versions = conn.execute(text("SELECT version FROM schema_version")).scalars().all()
            audit_columns = {c["name"] for c in inspect(conn).get_columns("audit")}
    finally:
        engine.dispose()
    assert versions == [1]
    assert "conversation_id" not in audit_columns  # migration 2 was all or nothing
