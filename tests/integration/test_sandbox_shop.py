"""Shop rules on real SQLite: stock, fees, coupons, hours, capacity, tracking, tokens, limits."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta

import pytest
from food_mcp import MovableClock
from sqlalchemy import insert
from test_sandbox_scenarios import FIXED_NOW, HOME

from swiggy_sandbox.catalog import haversine_km
from swiggy_sandbox.servers import RateLimiter, RateLimits, TokenState, TokenStore
from swiggy_sandbox.shop import CartLine, Shop, ShopError
from swiggy_sandbox.shop import db as tables
from swiggy_sandbox.shop.addresses import NewAddress
from swiggy_sandbox.shop.food_rules import MAX_DELIVERY_KM


@pytest.fixture
def clock() -> MovableClock:
    return MovableClock(FIXED_NOW)


@pytest.fixture
def shop(clock: MovableClock) -> Iterator[Shop]:
    shop = Shop(clock=clock, base_url="http://127.0.0.1:1234")
    yield shop
    shop.close()


def _pack(shop: Shop, query: str, in_stock: bool = True) -> dict:
    found = shop.instamart.search("u", HOME, query, 0)["products"]
    return next(v for p in found for v in p["variations"] if v["isInStockAndAvailable"] is in_stock)


def _bill(cart: dict) -> dict[str, str]:
    lines = cart["billBreakdown"]["lineItems"]
    return {line["label"]: line["value"] for line in lines} | {
        "To Pay": cart["billBreakdown"]["toPay"]["value"]
    }


def test_update_cart_caps_quantities_and_drops_sold_out_packs(shop: Shop) -> None:
    pack = _pack(shop, "amul butter")
    cart = shop.instamart.update_cart("u", HOME, [CartLine(pack["spinId"], None, 6)])
    assert [(i["spinId"], i["quantity"]) for i in cart["items"]] == [(pack["spinId"], 5)]
    (capped,) = cart["reducedQuantityItems"]
    assert (capped["requestedQuantity"], capped["cappedQuantity"]) == (6, 5)
    assert "per order" in capped["reason"] and "removedOutOfStockItems" not in cart
    with pytest.raises(ShopError, match="listed twice"):
        line = CartLine(pack["spinId"], None, 1)
        shop.instamart.update_cart("u", HOME, [line, line])
    with pytest.raises(ShopError, match="Invalid skuId"):
        shop.instamart.update_cart("u", HOME, [CartLine(pack["spinId"], "SKU-other", 1)])
    with pytest.raises(ShopError, match="Invalid quantity"):
        shop.instamart.update_cart("u", HOME, [CartLine(pack["spinId"], None, -1)])
    assert [i["quantity"] for i in shop.instamart.cart("u")["items"]] == [5]  # unchanged
    sold_out = next(
        v for p in shop.catalog.products for v in p.variations if v.stock == 0 and v.max_quantity
    )
    lines = [CartLine(sold_out.spin_id, None, 1), CartLine(pack["spinId"], None, 1)]
    cart = shop.instamart.update_cart("u", HOME, lines)
    assert [i["spinId"] for i in cart["items"]] == [pack["spinId"]]
    (gone,) = cart["removedOutOfStockItems"]
    assert (gone["spinId"], gone["isInStockAndAvailable"]) == (sold_out.spin_id, False)


def test_stock_is_shared_between_users(shop: Shop) -> None:
    pack = _pack(shop, "paneer")
    found = shop.catalog.variation(pack["spinId"])
    assert found is not None
    with shop.db.tx() as conn:
        conn.execute(
            insert(tables.stock_sold).values(spin_id=pack["spinId"], quantity=found[1].stock - 2)
        )
    shop.instamart.update_cart("alice", HOME, [CartLine(pack["spinId"], None, 2)])
    cart = shop.instamart.update_cart("bob", HOME, [CartLine(pack["spinId"], None, 3)])
    assert cart["items"][0]["quantity"] == 2
    assert cart["reducedQuantityItems"][0]["reason"] == "Only 2 left in stock"
    shop.instamart.checkout("alice", HOME, "cod")
    with pytest.raises(ShopError, match="Not enough stock"):
        shop.instamart.checkout("bob", HOME, "Cash")
    assert shop.instamart.orders("bob")["orders"] == []
    assert shop.instamart.cart("bob")["items"][0]["isInStockAndAvailable"] is False
    again = shop.instamart.search("bob", HOME, "paneer", 0)["products"]
    variation = next(v for p in again for v in p["variations"] if v["spinId"] == pack["spinId"])
    assert variation["isInStockAndAvailable"] is False and variation["maxQuantity"] == 0


def test_instamart_fees(shop: Shop) -> None:
    cheap = _pack(shop, "salt")
    price = cheap["price"]["offerPrice"]
    cart = shop.instamart.update_cart("u", HOME, [CartLine(cheap["spinId"], None, 1)])
    bill = _bill(cart)
    assert (bill["Small Cart Fee"], bill["Delivery Fee"], bill["Handling Fee"]) == (
        "₹20.00", "₹30.00", "₹9.00",
    )  # fmt: skip
    assert bill["Item Total"] == f"₹{price:.2f}"
    assert bill["To Pay"] == f"₹{price + 59:.2f}" == cart["cartTotalAmount"]
    whey = _pack(shop, "whey protein")
    cart = shop.instamart.update_cart("u", HOME, [CartLine(whey["spinId"], None, 1)])
    bill = _bill(cart)
    assert bill["Delivery Fee"] == "₹0.00" and "Small Cart Fee" not in bill
    assert bill["To Pay"] == f"₹{whey['price']['offerPrice'] + 9:,.2f}".replace(",", "")


def test_instamart_coupons_follow_the_cart(shop: Shop) -> None:
    with pytest.raises(ShopError, match="empty"):
        shop.instamart.coupons("u", HOME)
    whey = _pack(shop, "whey protein")
    price = whey["price"]["offerPrice"]
    assert price >= 299
    shop.instamart.update_cart("u", HOME, [CartLine(whey["spinId"], None, 1)])
    listed = {c["couponCode"]: c for c in shop.instamart.coupons("u", HOME)["availableCoupons"]}
    assert listed["FRESH50"]["applicabilityStatus"] == "APPLICABLE"
    assert "cash on delivery" in listed["UPI75"]["applicabilityMessage"]
    with pytest.raises(ShopError, match="cash on delivery"):
        shop.instamart.apply_coupon("u", "UPI75")
    with pytest.raises(ShopError, match="Invalid couponCode"):
        shop.instamart.apply_coupon("u", "FREEFOOD")
    cart = shop.instamart.apply_coupon("u", " fresh50 ")
    bill = _bill(cart)
    assert bill["Coupon Discount (FRESH50)"] == "-₹50.00"
    assert bill["To Pay"] == f"₹{price + 9 - 50:.2f}" == cart["cartTotalAmount"]
    listed = {c["couponCode"]: c for c in shop.instamart.coupons("u", HOME)["availableCoupons"]}
    assert listed["FRESH50"]["applicabilityStatus"] == "APPLIED"
    order = shop.instamart.checkout("u", HOME, None)
    assert order["cartTotal"] == price + 9 - 50  # the order costs what the cart said
    details = shop.instamart.order_details("u", order["orderId"])
    assert details["bill"]["grandTotal"] == cart["cartTotalAmount"]
    assert shop.instamart.orders("u")["orders"][0]["billDetails"]["grandTotal"] == price - 41
    # A coupon the cart no longer qualifies for is dropped, and the cart says so.
    shop.instamart.update_cart("u", HOME, [CartLine(whey["spinId"], None, 1)])
    shop.instamart.apply_coupon("u", "FRESH50")
    cheap = _pack(shop, "salt")
    cart = shop.instamart.update_cart("u", HOME, [CartLine(cheap["spinId"], None, 1)])
    assert "FRESH50 removed" in cart["cartWarning"]["message"]
    assert not any("Coupon" in label for label in _bill(cart))


def test_instamart_tracking_follows_the_clock(shop: Shop, clock: MovableClock) -> None:
    shop.instamart.update_cart("u", HOME, [CartLine(_pack(shop, "bread")["spinId"], None, 2)])
    order_id = shop.instamart.checkout("u", HOME, None)["orderId"]
    seen, riders = [], []
    for minutes in (0, 2, 6, 13):
        clock.now = FIXED_NOW + timedelta(minutes=minutes)
        tracked = shop.instamart.track("u", order_id, 12.97, 77.64)
        seen.append(tracked["status"]["subStatusMessage"])
        riders.append("riderLocation" in tracked["mapInfo"])
    assert seen == ["CONFIRMED", "PACKING", "OUT_FOR_DELIVERY", "DELIVERED"]
    assert riders == [False, False, True, True]
    assert shop.instamart.orders("u", active_only=True)["orders"] == []
    (done,) = shop.instamart.orders("u")["orders"]
    assert (done["status"], done["isActive"], done["paymentStatus"]) == ("DELIVERED", False, "PAID")
    with pytest.raises(ShopError, match="Invalid orderId"):
        shop.instamart.track("someone-else", order_id, 12.97, 77.64)


def test_food_refuses_far_addresses(shop: Shop) -> None:
    flat = NewAddress(
        full_address="Sarjapur far flat",
        address_line="Sarjapur far flat",
        address_line2="",
        city="Bengaluru",
        postal_code="560035",
        category="OTHER",
        user_name="Sandbox User",
        user_phone="9845012345",
        latitude=12.86,
        longitude=77.78,
    )
    address = shop.addresses.create("far", flat)
    far = next(
        r
        for r in shop.catalog.restaurants
        if haversine_km(address.lat, address.lng, r.lat, r.lng) > MAX_DELIVERY_KM
    )
    listed = shop.food.search_restaurants("far", address.id, far.name, 0, None)["restaurants"]
    assert far.id not in [r["id"] for r in listed]
    with pytest.raises(ShopError, match="does not deliver"):
        shop.food.update_cart("far", far.id, address.id, [{"menu_item_id": far.dishes[0].id}], None)
    with pytest.raises(ShopError, match="Bengaluru"):
        shop.addresses.create("far", replace(flat, city="Mumbai", latitude=None, longitude=None))


def test_dineout_capacity_window_and_times(shop: Shop) -> None:
    tomorrow = (FIXED_NOW + timedelta(days=1)).date().isoformat()
    where = (12.97, 77.64)
    venue, slot = next(
        (v, s)
        for v in shop.catalog.venues
        for s in shop.dineout.slots(v.id, tomorrow, where)["slots"]
        if s["availableInventory"] == 1 and s["dateStr"] == tomorrow
    )
    free = next(d["itemId"] for d in slot["deals"] if d["isFree"])
    args = (venue.id, slot["slotId"], free, slot["reservationTime"], 2)
    first = shop.dineout.book("alice", *args)
    with pytest.raises(ShopError, match="Slot unavailable"):
        shop.dineout.book("bob", *args)
    shop.dineout.cancel("alice", first["orderId"], "plans changed")
    assert shop.dineout.book("bob", *args)["status"] == "CONFIRMED"
    with pytest.raises(ShopError, match="Invalid reservationTime"):
        shop.dineout.book("carol", venue.id, slot["slotId"], free, slot["reservationTime"] + 60, 2)
    later = slot["slotId"] + 7 * 10_000
    with pytest.raises(ShopError, match="7 days ahead"):
        shop.dineout.book("carol", venue.id, later, free, slot["reservationTime"] + 7 * 86_400, 2)
    with pytest.raises(ShopError, match="Invalid date"):
        shop.dineout.slots(venue.id, (FIXED_NOW + timedelta(days=9)).date().isoformat(), where)
    with pytest.raises(ShopError, match="Invalid date"):
        shop.dineout.slots(venue.id, "next friday", where)
    epoch = str(int(FIXED_NOW.timestamp()))
    days = {s["dateStr"] for s in shop.dineout.slots(venue.id, epoch, where)["slots"]}
    assert len(days) == 7
    # The window ends seven days after today, whichever day the list starts on.
    last = (FIXED_NOW + timedelta(days=6)).date().isoformat()
    assert {s["dateStr"] for s in shop.dineout.slots(venue.id, last, where)["slots"]} == {last}


def test_concurrent_users_on_threads(shop: Shop) -> None:
    packs = [v for p in shop.catalog.products[:40] for v in p.variations if v.stock > 5][:12]
    errors: list[BaseException] = []

    def shopper(index: int) -> None:
        try:
            for _ in range(5):
                line = CartLine(packs[index].spin_id, None, 1 + index % 3)
                cart = shop.instamart.update_cart(f"user{index}", HOME, [line])
                assert [i["spinId"] for i in cart["items"]] == [packs[index].spin_id]
        except BaseException as exc:  # collected for the main thread
            errors.append(exc)

    threads = [threading.Thread(target=shopper, args=(i,)) for i in range(len(packs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    for index, pack in enumerate(packs):
        cart = shop.instamart.cart(f"user{index}")
        assert [(i["spinId"], i["quantity"]) for i in cart["items"]] == [
            (pack.spin_id, 1 + index % 3)
        ]


def test_token_store() -> None:
    store = TokenStore()
    assert store.user_for("sandbox-demo-token") == "demo"
    token = store.issue("alice")
    assert store.state(token) is TokenState.VALID and store.user_for(token) == "alice"
    store.revoke(token)
    assert store.state(token) is TokenState.REVOKED and store.user_for(token) is None
    assert store.state("never-issued") is TokenState.UNKNOWN
    assert store.issue("alice", token) == token and store.state(token) is TokenState.VALID
    assert TokenStore(demo=False).user_for("sandbox-demo-token") is None
    with pytest.raises(ValueError):
        store.issue("")


def test_rate_limiter_windows() -> None:
    now = [100.0]
    limiter = RateLimiter(RateLimits(requests=3, writes=1, window_seconds=60), lambda: now[0])
    assert limiter.check("u", "food", requests=1, writes=1).allowed
    refused = limiter.check("u", "food", requests=1, writes=1)
    assert not refused.allowed and refused.retry_after == 60 and "writes" in refused.reason
    assert limiter.check("u", "im", requests=1, writes=1).allowed  # per server
    assert limiter.check("v", "food", requests=1, writes=1).allowed  # per user
    now[0] += 10
    assert limiter.check("u", "food", requests=2, writes=0).remaining == 0
    blocked = limiter.check("u", "food", requests=1, writes=0)
    assert not blocked.allowed and blocked.retry_after == 50
    now[0] += 50
    assert limiter.check("u", "food", requests=1, writes=1).allowed
