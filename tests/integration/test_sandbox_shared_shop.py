"""The sandbox shop shared by several app replicas: one database (an SQLite file or a real
PostgreSQL), two sandboxes, each with its own engine, token store and MCP client, as two
processes would have them. A person's cart, orders and bookings are the same on both."""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from session_peers import ADDRESS, NOW
from sqlalchemy import inspect
from sqlalchemy.exc import ArgumentError

from swiggy_core.constants import SANDBOX_TABLE_PREFIX
from swiggy_core.mcp import McpManager
from swiggy_core.store import ChatStore
from swiggy_sandbox.emulator import ScriptedBrain
from swiggy_sandbox.runtime import SandboxServices
from swiggy_sandbox.servers import RateLimits
from swiggy_sandbox.shop import Database
from swiggy_sandbox.shop.db import metadata

LIMITS = RateLimits(requests=100_000, writes=100_000)
CONTENDERS = 6  # checkouts fired at once, alternating between the replicas
RACES = 8


@dataclass
class Replica:
    """One app replica: its own sandbox on loopback and its own MCP client."""

    sandbox: SandboxServices
    mcp: McpManager

    def call(self, user: str, server_key: str, tool: str, **arguments: Any) -> dict[str, Any]:
        """The envelope of one tool call, made as the app makes it for `user`."""
        token = self.sandbox.token_for(user)  # issued by this replica only
        url = self.sandbox.server_urls[server_key]
        output = self.mcp.call_tool(url, token, tool, arguments, user=user)
        return dict(json.loads(output.envelope_text()))

    def ok(self, user: str, server_key: str, tool: str, **arguments: Any) -> dict[str, Any]:
        envelope = self.call(user, server_key, tool, **arguments)
        assert envelope["success"] is True, (tool, envelope)
        return dict(envelope["data"])


def plain_spelling(url: str) -> str:
    """The same database as operators write it (`postgres://`); SQLite stays as it is."""
    return url.replace("postgresql+psycopg://", "postgres://", 1)


@pytest.fixture
def replicas(shared_db_url: str) -> Iterator[tuple[Replica, Replica]]:
    started: list[Replica] = []
    try:
        for url in (shared_db_url, plain_spelling(shared_db_url)):
            sandbox = SandboxServices.start(
                brain=ScriptedBrain(), db_url=url, clock=lambda: NOW, limits=LIMITS
            )
            started.append(Replica(sandbox, McpManager(call_timeout=60)))
        yield started[0], started[1]
    finally:
        for replica in started:
            replica.mcp.close()
            replica.sandbox.stop()


def new_user() -> str:
    return f"person-{uuid.uuid4().hex[:8]}@sandbox"


def fill_cart(replica: Replica, user: str) -> str:
    """Put two packs of milk in the person's Instamart cart; their spinId."""
    found = replica.ok(user, "instamart", "search_products", addressId=ADDRESS, query="milk")
    spin_id = str(found["products"][0]["variations"][0]["spinId"])
    items = [{"spinId": spin_id, "quantity": 2}]
    replica.ok(user, "instamart", "update_cart", selectedAddressId=ADDRESS, items=items)
    return spin_id


def run_at_once(count: int, work: Callable[[int], Any]) -> list[Any]:
    """`work(0..count-1)` on as many threads, released together."""
    start = threading.Barrier(count)

    def released(index: int) -> Any:
        start.wait()
        return work(index)

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(released, range(count)))


def test_a_cart_built_on_one_replica_is_checked_out_on_the_other(replicas) -> None:
    a, b = replicas
    user = new_user()
    spin_id = fill_cart(a, user)
    seen_on_b = b.ok(user, "instamart", "get_cart")
    assert [(i["spinId"], i["quantity"]) for i in seen_on_b["items"]] == [(spin_id, 2)]
    placed = b.ok(user, "instamart", "checkout", addressId=ADDRESS, paymentMethod="COD")
    assert a.ok(user, "instamart", "get_cart")["items"] == []
    orders = a.ok(user, "instamart", "get_orders")["orders"]
    assert [order["orderId"] for order in orders] == [placed["orderId"]]
    # Another person's cart stays apart, whichever replica they reach.
    assert b.ok(new_user(), "instamart", "get_orders")["orders"] == []


def test_a_table_booked_on_one_replica_is_found_on_the_other(replicas) -> None:
    a, b = replicas
    user = new_user()
    home = a.ok(user, "dineout", "get_saved_locations")["locations"][0]
    found = a.ok(
        user, "dineout", "search_restaurants_dineout", query="indiranagar", addressId=home["id"]
    )
    where = {"latitude": found["latitude"], "longitude": found["longitude"]}
    venue = found["restaurants"][0]
    tomorrow = (NOW + timedelta(days=1)).date().isoformat()
    slots = a.ok(
        user, "dineout", "get_available_slots", restaurantId=venue["id"], date=tomorrow, **where
    )
    slot = slots["slots"][0]
    free = next(deal for deal in slot["deals"] if deal["isFree"])
    table = {
        "restaurantId": venue["id"],
        "slotId": slot["slotId"],
        "itemId": free["itemId"],
        "reservationTime": slot["reservationTime"],
        "guestCount": 2,
        **where,
    }
    booked = a.ok(user, "dineout", "book_table", **table)
    status = b.ok(user, "dineout", "get_booking_status", orderId=booked["orderId"])
    assert status["orderId"] == booked["orderId"]
    again = b.call(user, "dineout", "book_table", **table)  # the same table, from replica B
    assert again["success"] is False and booked["orderId"] in json.dumps(again)


def test_one_order_when_both_replicas_check_out_one_cart_at_once(replicas) -> None:
    a, b = replicas
    for _ in range(RACES):  # each race is short: repeat it, so a lost update shows
        user = new_user()
        fill_cart(a, user)
        b.ok(user, "instamart", "get_cart")  # both replicas hold an open session already

        def checkout(index: int, user: str = user) -> dict[str, Any]:
            replica = replicas[index % 2]
            arguments = {"addressId": ADDRESS, "paymentMethod": "COD"}
            return replica.call(user, "instamart", "checkout", **arguments)

        results = run_at_once(CONTENDERS, checkout)
        assert sum(result["success"] is True for result in results) == 1, results
        # The others hear why, not a database fault.
        refusals = [r["error"]["message"] for r in results if r["success"] is not True]
        assert all("cart is empty" in message for message in refusals), refusals
        assert len(a.ok(user, "instamart", "get_orders")["orders"]) == 1
        assert len(b.ok(user, "instamart", "get_orders")["orders"]) == 1


def test_counters_never_hand_out_an_id_twice_across_engines(shared_db_url: str) -> None:
    databases = [Database(shared_db_url) for _ in range(4)]
    per_engine = 15

    def take(index: int) -> list[int]:
        db, taken = databases[index], []
        for _ in range(per_engine):
            with db.tx() as conn:
                taken.append(db.next_id(conn, "order", 1))
        return taken

    try:
        ids = [n for taken in run_at_once(len(databases), take) for n in taken]
    finally:
        for db in databases:
            db.close()
    assert sorted(ids) == list(range(1, len(databases) * per_engine + 1))


def test_shops_opening_a_new_database_at_once_all_start(shared_db_url: str) -> None:
    opened = run_at_once(4, lambda _index: Database(shared_db_url))
    try:
        tables = set(inspect(opened[0].engine).get_table_names())
        assert set(metadata.tables) <= tables
    finally:
        for db in opened:
            db.close()


def test_shop_tables_sit_beside_the_app_tables_under_their_own_prefix(shared_db_url: str) -> None:
    chats = ChatStore(shared_db_url)
    db = Database(shared_db_url)
    try:
        names = set(inspect(db.engine).get_table_names())
        shop_tables = {name for name in names if name.startswith(SANDBOX_TABLE_PREFIX)}
        assert shop_tables == set(metadata.tables)
        assert {"conversations", "messages", "approvals"} <= names - shop_tables
        assert not {"orders", "users", "counters"} & names
        conversation_id = chats.create_conversation("alice", "food")
        assert chats.list_conversations("alice", "food")[0].id == conversation_id
    finally:
        db.close()
        chats.close()


def test_a_transaction_inside_another_joins_it(shared_db_url: str) -> None:
    db = Database(shared_db_url)
    try:
        with db.tx() as outer:
            first = db.next_id(outer, "nested", 1)
            with db.tx() as inner:
                assert inner is outer  # a second connection would wait for our own lock
                second = db.next_id(inner, "nested", 1)
        assert (first, second) == (1, 2)
    finally:
        db.close()


def test_a_database_that_cannot_serialise_processes_is_refused() -> None:
    with pytest.raises(ArgumentError, match="SQLite or PostgreSQL"):
        Database("mysql+pymysql://shop@127.0.0.1/shop")
