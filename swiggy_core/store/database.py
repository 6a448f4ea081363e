"""One engine per database URL: SQLite pragmas, PostgreSQL URLs, and guarded transactions.

Every transaction goes through `Database.write()` or `Database.read()`, which check that
an SQLite file is still there (a deleted file keeps working as a ghost whose writes are
lost) and turn any database fault into a coded StoreError.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, Final
from urllib.parse import unquote

from sqlalchemy import Column, Connection, Insert, Table, create_engine, event, exc, make_url
from sqlalchemy.engine import URL, Engine
from sqlalchemy.pool import StaticPool

from swiggy_core.errors import ErrorCode
from swiggy_core.store.faults import store_error, translated_faults

# Seconds to wait for a PostgreSQL server to accept a connection.
POSTGRES_CONNECT_TIMEOUT_SECONDS: Final = 10
# How long a best-effort write (an audit row, a remembered choice) waits for another
# writer before it gives up: a locked database must not hold a page up for seconds.
BEST_EFFORT_WAIT_MS: Final = 250
_POSTGRES_PREFIXES: Final = ("postgres://", "postgresql://")
_MEMORY_NAMES: Final = ("", ":memory:")


def upsert(
    dialect: str,
    table: Table,
    row: Mapping[str, Any],
    keys: Sequence[Column[Any]],
    replaced: Sequence[str],
) -> Insert:
    """INSERT `row` into `table`; on a conflict over `keys`, set the `replaced` columns
    from it instead. PostgreSQL and SQLite spell it alike, in dialect modules of their
    own: only the one in use is imported (the PostgreSQL one is not small)."""
    if dialect == "postgresql":
        from sqlalchemy.dialects import postgresql

        new = postgresql.insert(table).values(**row)
        return new.on_conflict_do_update(
            index_elements=keys, set_={name: new.excluded[name] for name in replaced}
        )
    from sqlalchemy.dialects import sqlite

    added = sqlite.insert(table).values(**row)
    return added.on_conflict_do_update(
        index_elements=keys, set_={name: added.excluded[name] for name in replaced}
    )


def insert_new(dialect: str, table: Table, keys: Sequence[Column[Any]]) -> Insert:
    """INSERT into `table` that does nothing when a row with the same `keys` exists (its
    result's rowcount says which happened); spelt alike in both dialect modules."""
    # An INSERT's rowcount is kept only on request (psycopg's is gone once it is read).
    kept = {"preserve_rowcount": True}
    if dialect == "postgresql":
        from sqlalchemy.dialects import postgresql

        added = postgresql.insert(table).on_conflict_do_nothing(index_elements=keys)
        return added.execution_options(**kept)
    from sqlalchemy.dialects import sqlite

    return (
        sqlite.insert(table).on_conflict_do_nothing(index_elements=keys).execution_options(**kept)
    )


def normalise_url(database_url: str) -> str:
    """PostgreSQL URLs name the psycopg (v3) driver; everything else is left alone."""
    for prefix in _POSTGRES_PREFIXES:
        if database_url.startswith(prefix):
            return "postgresql+psycopg://" + database_url[len(prefix) :]
    return database_url


def sqlite_file(database_url: str) -> Path | None:
    """The file an SQLite URL names (absolute); None for memory, other databases, bad URLs."""
    try:
        return sqlite_file_of(make_url(normalise_url(database_url)))
    except exc.ArgumentError:
        return None


class Database:
    """An engine plus the checks every transaction needs."""

    def __init__(self, database_url: str, *, busy_timeout_ms: int) -> None:
        try:
            url = make_url(normalise_url(database_url))
        except exc.ArgumentError as error:
            raise store_error(
                ErrorCode.STORE_FAILED,
                "The chat database setting is not a database address. Fix the setting and "
                "restart the app.",
            ) from error
        self.file: Path | None = sqlite_file_of(url)
        if self.file is not None:
            if not self.file.parent.is_dir():
                raise store_error(ErrorCode.STORE_MISSING)
            if not url.query.get("uri"):  # pin the path: the working directory may change
                url = url.set(database=str(self.file))
        with translated_faults():
            self.engine: Engine = _make_engine(url, busy_timeout_ms)
        self._sqlite = self.engine.dialect.name == "sqlite"
        self._busy_timeout_ms = int(busy_timeout_ms)
        self._identity: tuple[int, int] | None = None

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    def pin_file(self) -> None:
        """Remember which file is ours, so a deleted or replaced one is noticed."""
        if self.file is not None:
            self._identity = _identity_of(self.file)
            if self._identity is None:
                raise store_error(ErrorCode.STORE_MISSING)

    @contextmanager
    def write(self, *, wait_ms: int | None = None) -> Iterator[Connection]:
        """One transaction that intends to write (SQLite: BEGIN IMMEDIATE, so writers queue).

        `wait_ms`: how long it waits for another writer's lock, when that should be shorter
        than the store's busy timeout (a best-effort write must not hold the page up)."""
        self._check_file()
        with translated_faults(), self.engine.begin() as conn:
            if self._sqlite:
                self._begin_immediate(_driver_of(conn), wait_ms)
            elif wait_ms is not None:  # PostgreSQL: for this transaction only
                conn.exec_driver_sql(f"SET LOCAL lock_timeout = {int(wait_ms)}")
            yield conn

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """One read-only snapshot."""
        self._check_file()
        with translated_faults(), self.engine.connect() as conn, conn.begin() as transaction:
            if self._sqlite:
                _driver_of(conn).execute("BEGIN")
            yield conn
            transaction.rollback()

    # SQLite's driver runs in autocommit mode (see `prepare_sqlite`), so the transaction
    # SQLAlchemy has just begun is begun on the driver here. Issued here rather than from a
    # "begin" event: any connection event makes SQLAlchemy dispatch events around every
    # statement, which cost more than the statements. Errors are sqlite3's, which
    # translated_faults codes like any other.
    def _begin_immediate(self, driver: sqlite3.Connection, wait_ms: int | None) -> None:
        # IMMEDIATE takes the write lock up front, so a read-then-write transaction can
        # never fail half-way because another writer committed in between; it waits
        # (busy_timeout) instead. Once the lock is held, nothing else in it waits.
        if wait_ms is None:
            driver.execute("BEGIN IMMEDIATE")
            return
        driver.execute(f"PRAGMA busy_timeout={int(wait_ms)}")
        try:
            driver.execute("BEGIN IMMEDIATE")
        finally:
            driver.execute(f"PRAGMA busy_timeout={self._busy_timeout_ms}")

    def close(self) -> None:
        self.engine.dispose()

    def _check_file(self) -> None:
        if self.file is None or self._identity is None:
            return
        if _identity_of(self.file) != self._identity:
            raise store_error(ErrorCode.STORE_MISSING)


def _driver_of(conn: Connection) -> Any:
    driver = conn.connection.driver_connection
    assert driver is not None  # a connection in a transaction is open
    return driver


def sqlite_file_of(url: URL) -> Path | None:
    """The database file of an SQLite URL; None for memory and for other databases."""
    if url.get_backend_name() != "sqlite":
        return None
    name = url.database or ""
    if url.query.get("mode") == "memory" or name in _MEMORY_NAMES:
        return None
    if name.startswith("file:"):
        name = unquote(name.removeprefix("file:").split("?", 1)[0])
        if name in _MEMORY_NAMES:
            return None
    return Path(name).absolute()


def _identity_of(path: Path) -> tuple[int, int] | None:
    try:
        status = os.stat(path)
    except OSError:
        return None
    return (status.st_dev, status.st_ino)


def _make_engine(url: URL, busy_timeout_ms: int) -> Engine:
    if url.get_backend_name() == "sqlite":
        file = sqlite_file_of(url)
        if file is None:
            # One shared connection, or every new connection would see an empty database.
            engine = create_engine(
                url,
                poolclass=StaticPool,
                connect_args={"check_same_thread": False},
                hide_parameters=True,
            )
        else:
            engine = create_engine(
                url, connect_args={"check_same_thread": False}, hide_parameters=True
            )
        prepare_sqlite(engine, busy_timeout_ms, on_file=file is not None)
        return engine
    engine = create_engine(
        url,
        pool_pre_ping=True,
        hide_parameters=True,
        connect_args={"connect_timeout": POSTGRES_CONNECT_TIMEOUT_SECONDS},
    )
    if url.get_backend_name() == "postgresql":
        prepare_postgres(engine, busy_timeout_ms)
    return engine


def prepare_sqlite(
    engine: Engine, busy_timeout_ms: int, *, on_file: bool, always_immediate: bool = False
) -> None:
    """Busy timeout, WAL on a file, and the driver in autocommit mode, so that BEGIN is
    issued by us: by `Database` per transaction, or, with `always_immediate`, BEGIN
    IMMEDIATE for every transaction of the engine."""

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: sqlite3.Connection, _record: Any) -> None:
        # The driver would otherwise begin transactions lazily (before the first write,
        # not the first read).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
            if on_file:
                # A read-only (or briefly locked) file keeps the journal mode it has.
                with suppress(sqlite3.OperationalError):
                    cursor.execute("PRAGMA journal_mode=WAL")
                cursor.execute("PRAGMA synchronous=NORMAL")
        finally:
            cursor.close()

    if always_immediate:

        @event.listens_for(engine, "begin")
        def _on_begin(conn: Connection) -> None:
            driver = conn.connection.driver_connection
            assert driver is not None  # a connection being begun is open
            driver.execute("BEGIN IMMEDIATE")


def prepare_postgres(engine: Engine, busy_timeout_ms: int) -> None:
    """A lock wait longer than `busy_timeout_ms` fails as busy instead of hanging; set per
    session, so the URL's own `options` stay as the operator wrote them."""

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        autocommit = dbapi_connection.autocommit
        dbapi_connection.autocommit = True
        with dbapi_connection.cursor() as cursor:
            cursor.execute(f"SET lock_timeout = {int(busy_timeout_ms)}")
        dbapi_connection.autocommit = autocommit
