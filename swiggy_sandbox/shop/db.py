"""SQLite state (SQLAlchemy Core): carts, orders, bookings, addresses, stock and id counters."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    Connection,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    create_engine,
    select,
)
from sqlalchemy.pool import StaticPool

IN_MEMORY_URL = "sqlite://"
_SQLITE_BUSY_TIMEOUT_SECONDS = 10

metadata = MetaData()

users = Table("users", metadata, Column("user_id", String, primary_key=True))
addresses = Table(
    "addresses",
    metadata,
    Column("user_id", String, primary_key=True),
    Column("address_id", String, primary_key=True),
    Column("label", String, nullable=False),
    Column("address_line", String, nullable=False),
    Column("locality", String, nullable=False),
    Column("lat", Float, nullable=False),
    Column("lng", Float, nullable=False),
    Column("position", Integer, nullable=False),
)
im_carts = Table(
    "im_carts",
    metadata,
    Column("user_id", String, primary_key=True),
    Column("address_id", String),
    Column("lines", JSON, nullable=False),  # [[spinId, quantity], ...] in the order given
)
food_carts = Table(
    "food_carts",
    metadata,
    Column("user_id", String, primary_key=True),
    Column("restaurant_id", String, nullable=False),
    Column("restaurant_name", String, nullable=False),
    Column("address_id", String, nullable=False),
    Column("lines", JSON, nullable=False),
    Column("coupon_code", String),
)
orders = Table(
    "orders",
    metadata,
    Column("order_id", String, primary_key=True),
    Column("user_id", String, nullable=False, index=True),
    Column("kind", String, nullable=False),  # "instamart" | "food"
    Column("placed_at", Float, nullable=False),
    Column("payload", JSON, nullable=False),
)
stock_sold = Table(
    "stock_sold",
    metadata,
    Column("spin_id", String, primary_key=True),
    Column("quantity", Integer, nullable=False),
)
bookings = Table(
    "bookings",
    metadata,
    Column("booking_id", String, primary_key=True),
    Column("user_id", String, nullable=False, index=True),
    Column("venue_id", String, nullable=False),
    Column("slot_id", BigInteger, nullable=False),
    Column("reservation_time", BigInteger, nullable=False),
    Column("guest_count", Integer, nullable=False),
    Column("status", String, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("payload", JSON, nullable=False),
)
counters = Table(
    "counters",
    metadata,
    Column("name", String, primary_key=True),
    Column("value", Integer, nullable=False),
)


class Database:
    """An engine plus a process-wide lock so each transaction sees a consistent shop."""

    def __init__(self, url: str = IN_MEMORY_URL) -> None:
        connect_args = {"check_same_thread": False, "timeout": _SQLITE_BUSY_TIMEOUT_SECONDS}
        if url in (IN_MEMORY_URL, "sqlite:///:memory:"):
            # One shared connection, or every pooled connection would see its own empty DB.
            self.engine = create_engine(url, connect_args=connect_args, poolclass=StaticPool)
        else:
            self.engine = create_engine(url, connect_args=connect_args)
        # SQLite serialises writers anyway; the lock keeps read-check-write sequences atomic.
        self._lock = threading.RLock()
        metadata.create_all(self.engine)

    @contextmanager
    def tx(self) -> Iterator[Connection]:
        """A transaction, committed on success and rolled back on error."""
        with self._lock, self.engine.begin() as conn:
            yield conn

    def next_id(self, conn: Connection, name: str, start: int) -> int:
        """The next value of a named counter (first value is `start`)."""
        current = conn.execute(select(counters.c.value).where(counters.c.name == name)).scalar()
        value = start if current is None else current + 1
        if current is None:
            conn.execute(counters.insert().values(name=name, value=value))
        else:
            conn.execute(counters.update().where(counters.c.name == name).values(value=value))
        return value

    def close(self) -> None:
        """Release pooled connections."""
        self.engine.dispose()
