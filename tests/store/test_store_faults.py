"""Real database faults reach callers as coded StoreErrors with messages for people."""

from __future__ import annotations

import os
import socket
import sqlite3

import psycopg
import pytest
from sqlalchemy.exc import OperationalError
from storehelpers import libpq_url, said

from swiggy_core.errors import ErrorCode
from swiggy_core.store import ChatStore, StoreError
from swiggy_core.store.faults import classify


def _fails_with(code: ErrorCode, action, *secrets: str) -> StoreError:
    with pytest.raises(StoreError) as caught:
        action()
    error = caught.value
    assert error.code == code, (error.code, error.__cause__)
    assert str(error).startswith(f"[{code}] ")
    for secret in secrets:  # no address, path or password in what a person may see
        assert secret not in str(error)
    return error


@pytest.fixture
def sqlite_store(sqlite_file):
    store = ChatStore(f"sqlite:///{sqlite_file}", busy_timeout_ms=200)
    conversation_id = store.create_conversation("alice", "food")
    store.append_messages(conversation_id, [said("kept")])
    yield store, conversation_id
    store.close()


# -- SQLite ------------------------------------------------------------------------------
def test_a_read_only_database_refuses_writes_but_still_reads(sqlite_store, sqlite_file):
    writer, conversation_id = sqlite_store
    # mode=ro is enforced by SQLite itself, so this holds even when the tests run as root.
    reader = ChatStore(f"sqlite:///file:{sqlite_file}?mode=ro&uri=true")
    try:
        assert [m.text() for m in reader.load_messages(conversation_id)] == ["kept"]
        error = _fails_with(
            ErrorCode.STORE_READ_ONLY,
            lambda: reader.append_messages(conversation_id, [said("new")]),
            str(sqlite_file),
        )
        assert error.message.startswith("The chat database is read-only")
        _fails_with(ErrorCode.STORE_READ_ONLY, lambda: reader.create_conversation("a", "food"))
    finally:
        reader.close()
    assert writer.last_seq(conversation_id) == 0


def test_a_locked_database_is_reported_busy_and_recovers(sqlite_store, sqlite_file):
    store, conversation_id = sqlite_store
    other = sqlite3.connect(sqlite_file, isolation_level=None)
    try:
        other.execute("BEGIN EXCLUSIVE")
        _fails_with(
            ErrorCode.STORE_BUSY, lambda: store.append_messages(conversation_id, [said("x")])
        )
        other.execute("ROLLBACK")
    finally:
        other.close()
    assert store.append_messages(conversation_id, [said("after")]) == [1]


def test_a_deleted_database_file_is_reported_missing(sqlite_store, sqlite_file):
    store, conversation_id = sqlite_store
    for suffix in ("", "-wal", "-shm"):
        path = f"{sqlite_file}{suffix}"
        if os.path.exists(path):
            os.remove(path)
    _fails_with(
        ErrorCode.STORE_MISSING,
        lambda: store.append_messages(conversation_id, [said("lost?")]),
        str(sqlite_file),
    )
    _fails_with(ErrorCode.STORE_MISSING, lambda: store.load_messages(conversation_id))
    _fails_with(ErrorCode.STORE_MISSING, lambda: store.create_conversation("alice", "food"))
    assert not sqlite_file.exists()  # and no ghost or empty file was created in its place


def test_a_replaced_database_file_is_reported_missing(sqlite_store, sqlite_file, tmp_path):
    store, conversation_id = sqlite_store
    other = tmp_path / "other.db"
    ChatStore(f"sqlite:///{other}").close()
    os.replace(other, sqlite_file)
    _fails_with(ErrorCode.STORE_MISSING, lambda: store.load_messages(conversation_id))


def test_a_database_in_a_missing_directory_cannot_be_opened(tmp_path):
    path = tmp_path / "gone" / "chats.db"
    _fails_with(ErrorCode.STORE_MISSING, lambda: ChatStore(f"sqlite:///{path}"), str(path))
    assert not path.parent.exists()


def test_a_file_that_is_not_a_database_fails_to_open(sqlite_file):
    sqlite_file.write_bytes(b"this is a text file, not SQLite " * 64)
    _fails_with(ErrorCode.STORE_FAILED, lambda: ChatStore(f"sqlite:///{sqlite_file}"))


@pytest.mark.parametrize("url", ["not a database url", "nosuchdb://somewhere/x"])
def test_an_unusable_url_fails_to_open(url):
    _fails_with(ErrorCode.STORE_FAILED, lambda: ChatStore(url), url)


# -- PostgreSQL --------------------------------------------------------------------------
def test_postgres_urls_are_normalised_to_psycopg(postgres_database):
    plain = libpq_url(postgres_database)  # postgresql://...
    for url in (plain, plain.replace("postgresql://", "postgres://", 1)):
        store = ChatStore(url)
        assert store.engine.dialect.driver == "psycopg"
        store.create_conversation("alice", "food")
        store.close()


def test_a_read_only_postgres_database_refuses_writes(postgres_database):
    ChatStore(postgres_database).close()  # migrated first
    name = postgres_database.rsplit("/", 1)[1]
    with psycopg.connect(libpq_url(postgres_database), autocommit=True) as admin:
        admin.execute(f"ALTER DATABASE {name} SET default_transaction_read_only = on")
    store = ChatStore(postgres_database)
    try:
        assert store.count_conversations() == 0
        _fails_with(ErrorCode.STORE_READ_ONLY, lambda: store.create_conversation("a", "food"))
    finally:
        store.close()


def test_a_postgres_lock_held_too_long_is_reported_busy(postgres_database):
    store = ChatStore(postgres_database, busy_timeout_ms=200)
    conversation_id = store.create_conversation("alice", "food")
    try:
        with psycopg.connect(libpq_url(postgres_database)) as other:
            other.execute("LOCK TABLE conversations IN ACCESS EXCLUSIVE MODE")
            _fails_with(
                ErrorCode.STORE_BUSY,
                lambda: store.append_messages(conversation_id, [said("x")]),
            )
            other.rollback()
        assert store.append_messages(conversation_id, [said("after")]) == [0]
    finally:
        store.close()


def test_a_dropped_postgres_database_is_reported_missing(postgres_database):
    store = ChatStore(postgres_database)
    conversation_id = store.create_conversation("alice", "food")
    name = postgres_database.rsplit("/", 1)[1]
    try:
        with psycopg.connect(libpq_url(postgres_database, "postgres"), autocommit=True) as admin:
            admin.execute(f"DROP DATABASE {name} WITH (FORCE)")
        _fails_with(
            ErrorCode.STORE_MISSING,
            lambda: store.append_messages(conversation_id, [said("x")]),
            name,
        )
        _fails_with(ErrorCode.STORE_MISSING, lambda: store.load_messages(conversation_id))
    finally:
        store.close()


def _closed_port() -> int:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def test_an_unreachable_server_never_shows_the_password():
    url = f"postgresql://alice:s3cret-pw@127.0.0.1:{_closed_port()}/chats"
    error = _fails_with(ErrorCode.STORE_UNREACHABLE, lambda: ChatStore(url), "s3cret-pw", url)
    assert "s3cret-pw" not in repr(error)
    assert "s3cret-pw" not in str(error.__cause__)


def test_a_server_that_refuses_the_connection_is_unreachable_not_missing():
    url = f"postgresql://alice@127.0.0.1:{_closed_port()}/chats"
    error = _fails_with(ErrorCode.STORE_UNREACHABLE, lambda: ChatStore(url), url)
    assert error.message.startswith("The chat database server cannot be reached")
    assert error.message.endswith("Your message is kept on this page.")
    assert "E-4104" not in str(error)


def test_a_server_that_never_answered_is_unreachable_one_that_refused_us_is_missing():
    faults = {
        "08006": psycopg.errors.ConnectionFailure("server closed the connection"),
        "08001": psycopg.errors.lookup("08001")("could not connect"),
        "57P03": psycopg.errors.CannotConnectNow("the database system is starting up"),
        "57P01": psycopg.errors.AdminShutdown("terminating connection"),
        "timeout": psycopg.OperationalError("connection timeout expired"),  # no SQLSTATE
        "3D000": psycopg.errors.InvalidCatalogName("database does not exist"),
        "28P01": psycopg.errors.InvalidPassword("password authentication failed"),
        # What psycopg raises (no SQLSTATE) when the server itself refuses the connection.
        "refused by the server": psycopg.OperationalError(
            'connection to server at "127.0.0.1", port 5432 failed: '
            'FATAL:  database "chats" does not exist'
        ),
    }
    unreachable, missing = ErrorCode.STORE_UNREACHABLE, ErrorCode.STORE_MISSING
    expected = dict.fromkeys(["08006", "08001", "57P03", "57P01", "timeout"], unreachable)
    expected |= dict.fromkeys(["3D000", "28P01", "refused by the server"], missing)
    for name, fault in faults.items():
        wrapped = OperationalError("SELECT 1", None, fault)
        assert (classify(fault), classify(wrapped)) == (expected[name], expected[name]), name
