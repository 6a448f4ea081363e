"""A placed order followed on the sandbox's clock: read at the server's interval, never
faster than every 10 s, and no read at all once it is delivered."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from session_peers import ADDRESS, NOW, Shop, new_shop

from swiggy_core.mcp import McpManager
from swiggy_core.tracking import TrackedOrder, active_orders, order_to_track, poll
from swiggy_sandbox.servers import RateLimits, SandboxHttpServer
from swiggy_sandbox.servers.summary import RESULT_FORMS

INSTAMART_INTERVAL = 30.0  # the sandbox's pollingIntervalSeconds
FOOD_INTERVAL = 10.0  # the sandbox's pollIntervalSec (the floor itself)
INSTAMART_ETA_MINUTES = 12


class MovableClock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self):  # type: ignore[no-untyped-def]
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture(scope="module", params=RESULT_FORMS)
def clocked(request: pytest.FixtureRequest) -> Iterator[tuple[SandboxHttpServer, MovableClock]]:
    clock = MovableClock()
    limits = RateLimits(requests=100_000, writes=100_000)
    with SandboxHttpServer(clock=clock, limits=limits, result_form=request.param) as server:
        yield server, clock


@pytest.fixture
def account(clocked) -> Iterator[tuple[Shop, MovableClock]]:
    server, clock = clocked
    clock.now = NOW
    pool = McpManager(call_timeout=20)
    yield new_shop(server, pool), clock
    pool.close()


class CountingReader:
    """The app's reads of one server, each noted with the shop's time it was made at."""

    def __init__(self, shop: Shop, server_key: str, clock: MovableClock) -> None:
        self.shop, self.server_key, self.clock = shop, server_key, clock
        self.calls: list[tuple[str, float]] = []

    def __call__(self, tool: str, arguments: dict[str, Any]) -> str:
        self.calls.append((tool, self.clock.now.timestamp()))
        url = self.shop.sandbox.url_for(self.server_key)
        return self.shop.manager.call_tool(url, self.shop.token, tool, arguments).envelope_text()


def _follow(read: CountingReader, order: TrackedOrder, clock: MovableClock) -> list[Any]:
    """Poll as the tracking card does: again after each state's refresh time, until final."""
    states = []
    for _ in range(200):
        order, state = poll(read, order)
        states.append(state)
        if state.refresh_seconds is None:
            return states
        clock.advance(state.refresh_seconds)
    raise AssertionError("the order never arrived")


def _instamart_order(shop: Shop) -> str:
    shop.set_cart(shop.milk_line(quantity=2))
    placed = shop.call("instamart", "checkout", {"addressId": ADDRESS, "paymentMethod": "Cash"})
    return str(placed["data"]["orderId"])


def _food_order(shop: Shop) -> str:
    found = shop.call("food", "search_restaurants", {"addressId": ADDRESS, "query": "biryani"})
    place = next(r for r in found["data"]["restaurants"] if r["availabilityStatus"] == "OPEN")
    menu = shop.call(
        "food",
        "search_menu",
        {"addressId": ADDRESS, "query": "biryani", "restaurantIdOfAddedItem": place["id"]},
    )
    dish = next(item for item in menu["data"]["items"] if item.get("inStock"))
    item = {"menu_item_id": dish["menu_item_id"], "quantity": 1}
    args = {"restaurantId": place["id"], "addressId": ADDRESS, "cartItems": [item]}
    assert shop.call("food", "update_food_cart", args)["success"]
    placed = shop.call("food", "place_food_order", {"addressId": ADDRESS})
    return str(placed["data"]["orderId"])


def test_an_instamart_order_is_read_every_30_s_and_no_more_once_delivered(account) -> None:
    shop, clock = account
    order = order_to_track("instamart", _instamart_order(shop))
    assert order is not None
    read = CountingReader(shop, "instamart", clock)
    states = _follow(read, order, clock)

    # The coordinates come once from get_orders; then only track_order, every 30 s.
    assert [tool for tool, _ in read.calls[:2]] == ["get_orders", "track_order"]
    tracked = [at for tool, at in read.calls if tool == "track_order"]
    assert len(tracked) == len(read.calls) - 1
    gaps = {round(later - earlier) for earlier, later in itertools.pairwise(tracked)}
    assert gaps == {INSTAMART_INTERVAL}
    assert all(s.interval_seconds == INSTAMART_INTERVAL for s in states)
    # It moved through its stages on the clock, with the bar going forward, then stopped.
    headlines = [s.headline for s in states]
    assert headlines[0] == "Order confirmed" and "Delivery partner is on the way" in headlines
    assert states[-1].delivered and states[-1].is_final and states[-1].progress == 1.0
    assert states[-1].headline == "Order delivered"
    assert tracked[-1] - tracked[0] == INSTAMART_ETA_MINUTES * 60
    progress = [s.progress or 0.0 for s in states]
    assert progress == sorted(progress) and progress[0] < 0.5 < progress[-2] < 1.0
    assert states[0].items is not None and states[0].items.startswith("2 × ")
    assert states[0].store and states[0].eta_text

    # Delivered: no active order is shown on the shop page any more.
    assert active_orders(read, "instamart") == []


def test_a_food_order_is_read_every_10_s_until_delivered(account) -> None:
    shop, clock = account
    order = order_to_track("food", _food_order(shop))
    assert order is not None
    read = CountingReader(shop, "food", clock)
    (shown,) = active_orders(read, "food")
    assert shown[0].order_id == order.order_id and not shown[1].is_final
    read.calls.clear()

    states = _follow(read, order, clock)
    times = sorted({at for _, at in read.calls})
    assert {round(b - a) for a, b in itertools.pairwise(times)} == {FOOD_INTERVAL}
    assert {tool for tool, _ in read.calls} == {"track_food_order", "get_food_delivery_status"}
    assert states[0].eta_text and states[0].items and not states[0].is_final
    assert states[-1].delivered and states[-1].refresh_seconds is None
    assert [s for s in states[:-1] if s.is_final] == []
    assert active_orders(read, "food") == []


def test_a_table_booking_is_not_tracked() -> None:
    assert order_to_track("dineout", "B-1") is None
