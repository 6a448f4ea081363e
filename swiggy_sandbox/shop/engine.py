"""The shop's engine on memory, an SQLite file or PostgreSQL, and the lock every
transaction takes so that processes sharing one database see one consistent shop.

- memory: one shared connection (StaticPool); the caller's in-process lock is enough.
- SQLite file: every transaction begins with BEGIN IMMEDIATE, so a read-check-write
  sequence holds the file's write lock from its first read; other writers wait
  (busy_timeout) instead of failing half-way.
- PostgreSQL: every transaction first takes one transaction-scoped advisory lock, so shop
  transactions run one at a time across every process (the shop is small; this is simpler
  than per-row locking and cannot deadlock).
"""

from __future__ import annotations

from typing import Final

from sqlalchemy import Connection, MetaData, create_engine, exc, make_url, text
from sqlalchemy.engine import URL, Engine
from sqlalchemy.pool import StaticPool

from swiggy_core.store.database import (
    POSTGRES_CONNECT_TIMEOUT_SECONDS,
    normalise_url,
    prepare_postgres,
    prepare_sqlite,
    sqlite_file_of,
)

IN_MEMORY_URL: Final = "sqlite://"
# How long a transaction waits for another process's (SQLite: file lock; PostgreSQL:
# advisory lock) before it fails as busy.
BUSY_TIMEOUT_MS: Final = 10_000
# The advisory lock of the sandbox shop; any fixed number other than the chat store's
# migration lock (swiggy_core.store.migrations) would do.
SHOP_LOCK_KEY: Final = 0x5317_5B0B
# Two processes starting at once may both try to create the tables; the loser retries.
_CREATE_ATTEMPTS: Final = 3


def resolve_url(database_url: str) -> URL:
    """The shop's URL: PostgreSQL names psycopg; a relative SQLite file is made absolute,
    so a later change of working directory cannot split the shop in two."""
    url = make_url(normalise_url(database_url))
    file = sqlite_file_of(url)
    if file is not None and not url.query.get("uri"):
        url = url.set(database=str(file))
    return url


def open_engine(url: URL) -> Engine:
    """An engine whose transactions are serialised across processes (see the module doc)."""
    if url.get_backend_name() == "sqlite":
        on_file = sqlite_file_of(url) is not None
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False},
            hide_parameters=True,
            # One shared connection in memory, or each connection would see an empty shop.
            **({} if on_file else {"poolclass": StaticPool}),
        )
        # Every shop transaction reads then writes: all of them take the write lock first.
        prepare_sqlite(engine, BUSY_TIMEOUT_MS, on_file=on_file, always_immediate=True)
        return engine
    if url.get_backend_name() != "postgresql":
        # Elsewhere nothing would serialise the processes sharing the shop.
        raise exc.ArgumentError(
            f"The sandbox shop runs on SQLite or PostgreSQL, not {url.get_backend_name()}."
        )
    engine = create_engine(
        url,
        pool_pre_ping=True,
        hide_parameters=True,
        connect_args={"connect_timeout": POSTGRES_CONNECT_TIMEOUT_SECONDS},
    )
    prepare_postgres(engine, BUSY_TIMEOUT_MS)
    return engine


def hold_shop_lock(conn: Connection) -> None:
    """Serialise this transaction with every other shop transaction on the database.

    SQLite needs nothing here: BEGIN IMMEDIATE (emitted when the transaction began)
    already holds the file's write lock until commit.
    """
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SHOP_LOCK_KEY})


def create_tables(engine: Engine, metadata: MetaData) -> None:
    """Create the missing shop tables, safely when several processes start together."""
    for attempt in range(_CREATE_ATTEMPTS):
        try:
            with engine.begin() as conn:
                hold_shop_lock(conn)  # DDL is transactional on both: the next one sees it
                metadata.create_all(conn, checkfirst=True)
            return
        except (exc.IntegrityError, exc.ProgrammingError, exc.OperationalError):
            # A process that created the same table or type between our check and our
            # CREATE; on the next attempt the check sees it.
            if attempt == _CREATE_ATTEMPTS - 1:
                raise
