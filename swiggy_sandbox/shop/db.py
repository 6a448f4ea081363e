"""Shop state (SQLAlchemy Core): carts, orders, bookings, addresses, stock, UPI payments and
id counters.

In memory by default; given an SQLite file or a PostgreSQL URL, the shop lives there,
beside the app's own tables (its tables carry their own prefix), and every process
serving the sandbox shares it.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Connection,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    select,
)
from sqlalchemy.schema import SchemaItem

from swiggy_core.constants import SANDBOX_TABLE_PREFIX
from swiggy_sandbox.shop.engine import (
    IN_MEMORY_URL,
    create_tables,
    hold_shop_lock,
    open_engine,
    resolve_url,
)

metadata = MetaData()


def table(name: str, *columns: SchemaItem, **options: Any) -> Table:
    """A shop table; its SQL name carries the sandbox prefix, so it never meets the app's."""
    return Table(f"{SANDBOX_TABLE_PREFIX}{name}", metadata, *columns, **options)


users = table("users", Column("user_id", String, primary_key=True))
addresses = table(
    "addresses",
    Column("user_id", String, primary_key=True),
    Column("address_id", String, primary_key=True),
    Column("label", String, nullable=False),
    Column("address_line", String, nullable=False),
    Column("locality", String, nullable=False),
    Column("lat", Float, nullable=False),
    Column("lng", Float, nullable=False),
    Column("position", Integer, nullable=False),
)
im_carts = table(
    "im_carts",
    Column("user_id", String, primary_key=True),
    Column("address_id", String),
    Column("lines", JSON, nullable=False),  # [[spinId, quantity], ...] in the order given
)
food_carts = table(
    "food_carts",
    Column("user_id", String, primary_key=True),
    Column("restaurant_id", String, nullable=False),
    Column("restaurant_name", String, nullable=False),
    Column("address_id", String, nullable=False),
    Column("lines", JSON, nullable=False),
    Column("coupon_code", String),
)
orders = table(
    "orders",
    Column("order_id", String, primary_key=True),
    Column("user_id", String, nullable=False, index=True),
    Column("kind", String, nullable=False),  # "instamart" | "food"
    Column("placed_at", Float, nullable=False),
    Column("payload", JSON, nullable=False),
)
stock_sold = table(
    "stock_sold",
    Column("spin_id", String, primary_key=True),
    Column("quantity", Integer, nullable=False),
)
bookings = table(
    "bookings",
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
# A UPI payment the sandbox started; its order is placed only once it is paid and confirmed.
upi_payments = table(
    "upi_payments",
    Column("paas_id", String, primary_key=True),
    Column("user_id", String, nullable=False, index=True),
    Column("shop", String, nullable=False),  # "im" | "food"
    Column("order_id", String, nullable=False, index=True),
    Column("transaction_id", String, nullable=False),
    Column("amount", Float, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("outcome", String),  # None until decided: "SUCCESS" | "FAILED"
    Column("confirmed", Boolean, nullable=False, default=False),
    Column("placement", JSON, nullable=False),  # the order to place once paid
    Column("checks", Integer, nullable=False, default=0),
    Column("confirms", Integer, nullable=False, default=0),
)
counters = table(
    "counters",
    Column("name", String, primary_key=True),
    Column("value", Integer, nullable=False),
)


class Database:
    """The shop's engine; each transaction sees, and changes, one consistent shop."""

    def __init__(self, url: str = IN_MEMORY_URL) -> None:
        self.engine = open_engine(resolve_url(url))
        # Threads of this process queue here rather than in the database's lock (memory
        # has one shared connection, so there they must); processes queue in the database.
        self._lock = threading.RLock()
        self._current = threading.local()
        create_tables(self.engine, metadata)

    @contextmanager
    def tx(self) -> Iterator[Connection]:
        """A transaction, committed on success and rolled back on error; no other shop
        transaction, in any process on this database, runs beside it.

        A `tx()` inside another on the same thread joins the outer one: a second
        connection would wait for the lock the outer one holds.
        """
        outer: Connection | None = getattr(self._current, "conn", None)
        if outer is not None:
            yield outer
            return
        with self._lock, self.engine.begin() as conn:
            hold_shop_lock(conn)
            self._current.conn = conn
            try:
                yield conn
            finally:
                self._current.conn = None

    def next_id(self, conn: Connection, name: str, start: int) -> int:
        """The next value of a named counter (first value is `start`); unique across
        processes because `conn` holds the shop's lock."""
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
