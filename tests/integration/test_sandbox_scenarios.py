"""Tool-by-tool scenarios for the sandbox servers, shared by the in-memory, HTTP and stdio tests.

Each `exercise_*` function calls every tool of one server through a `Call` and checks the
Swiggy envelopes; test_sandbox_memory, _http and _stdio run them over each transport.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from food_scenarios import FOOD_TOOLS, exercise_food

from swiggy_core.constants import SWIGGY_TZ

# 13:00 IST on a Tuesday: lunch is on, most restaurants are open, morning slots are past.
FIXED_NOW = datetime(2026, 11, 24, 7, 30, tzinfo=UTC)
FIXED_NOW_ISO = "2026-11-24T13:00:00+05:30"
HOME = "addr_home_indiranagar"

EXPECTED_TOOLS = {
    "instamart": {
        "get_addresses", "create_address", "delete_address", "search_products",
        "your_go_to_items", "get_cart", "update_cart", "clear_cart", "list_coupons",
        "apply_coupon", "get_payment_options", "check_payment_status", "confirm_order",
        "checkout", "track_order", "get_delivery_status", "get_orders", "get_order_details",
        "report_error",
    },
    "food": FOOD_TOOLS,
    "dineout": {
        "get_saved_locations", "search_restaurants_dineout", "get_restaurant_details",
        "get_available_slots", "create_cart", "book_table", "get_booking_status",
        "cancel_booking", "get_payment_options", "check_payment_status", "confirm_order",
        "report_error",
    },
}  # fmt: skip

Call = Callable[[str, dict[str, Any]], Awaitable[tuple[dict[str, Any], bool]]]


def call_via(session: Any) -> Call:
    """A Call over an MCP ClientSession or Client: returns (envelope, is_error)."""

    async def call(name: str, arguments: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        result = await session.call_tool(name, arguments)
        structured = result.structured_content
        if structured is None:  # the envelope as text (and every failure, in both forms)
            return json.loads(result.content[0].text), bool(result.is_error)
        # The summary form: prose in the text, the data (or the envelope) in structuredContent.
        envelope = structured if "success" in structured else {"success": True, "data": structured}
        return envelope, bool(result.is_error)

    return call


async def ok(call: Call, name: str, **arguments: Any) -> dict[str, Any]:
    """Call a tool that must succeed; return its data."""
    envelope, is_error = await call(name, arguments)
    assert envelope["success"] is True, (name, envelope)
    assert not is_error
    return envelope["data"]


async def refused(call: Call, name: str, **arguments: Any) -> str:
    """Call a tool that must answer a domain failure (success false, not an MCP error)."""
    envelope, is_error = await call(name, arguments)
    assert envelope == {"success": False, "error": {"message": envelope["error"]["message"]}}
    assert not is_error, envelope
    return envelope["error"]["message"]


async def exercise_instamart(call: Call) -> None:
    """Every Instamart tool in Swiggy's documented shapes: search → cart → coupon → checkout
    → orders and tracking, the payment and support tools, addresses, plus refusals."""
    listed = await ok(call, "get_addresses", page=1, pageSize=2)
    assert [a["addressTag"] for a in listed["addresses"]] == ["Home", "Work"]
    assert listed["pagination"] == {
        "page": 1, "pageSize": 2, "total": 3, "totalPages": 2, "hasMore": True,
    }  # fmt: skip
    staples = await ok(call, "your_go_to_items", addressId=HOME)
    assert staples["products"] and staples["nextOffset"] == ""
    found = await ok(call, "search_products", addressId=HOME, query="milk")
    assert found["nextOffset"] == "10" and found["similarProducts"]
    milk = found["products"][0]
    pack = next(v for v in milk["variations"] if v["isInStockAndAvailable"])
    assert {"mrp", "offerPrice"} <= pack["price"].keys() and milk["inStock"] is True
    butter = (await ok(call, "search_products", addressId=HOME, query="amul butter"))["products"]
    line2 = butter[0]["variations"][0]
    items = [{"spinId": pack["spinId"], "skuId": pack["skuId"], "quantity": 2}]
    cart = await ok(call, "update_cart", selectedAddressId=HOME, items=items)
    assert [(i["itemName"], i["quantity"]) for i in cart["items"]] == [(milk["displayName"], 2)]
    # update_cart replaces: sending only the butter drops the milk.
    items = [{"spinId": line2["spinId"], "skuId": line2["skuId"], "quantity": 1}]
    cart = await ok(call, "update_cart", selectedAddressId=HOME, items=items)
    assert [i["spinId"] for i in cart["items"]] == [line2["spinId"]]
    items = [{**items[0], "quantity": 2}, {"spinId": pack["spinId"], "quantity": 5}]
    await ok(call, "update_cart", selectedAddressId=HOME, items=items)
    cart = await ok(call, "get_cart")
    bill = cart["billBreakdown"]
    labels = [line["label"] for line in bill["lineItems"]]
    assert labels[:3] == ["Item Total", "Delivery Fee", "Handling Fee"]
    expected = 2 * line2["price"]["offerPrice"] + 5 * pack["price"]["offerPrice"]
    assert bill["lineItems"][0]["value"] == f"₹{expected:.2f}"
    assert bill["toPay"]["value"] == cart["cartTotalAmount"] and cart["availablePaymentMethods"]
    coupons = (await ok(call, "list_coupons", addressId=HOME))["availableCoupons"]
    usable = next(c["couponCode"] for c in coupons if c["isApplicable"])
    cart = await ok(call, "apply_coupon", couponCode=usable.lower())
    assert any(usable in line["label"] for line in cart["billBreakdown"]["lineItems"])
    options = await ok(call, "get_payment_options")
    assert options["cod"]["available"] and options["placeOrderToolName"] == "checkout"
    assert options["paymentAmount"] == cart["cartTotalAmount"]
    assert "UPI" in await refused(call, "checkout", addressId=HOME, paymentMethod="UPI")
    order = await ok(call, "checkout", addressId=HOME, paymentMethod="Cash")
    assert order["orderId"].startswith("IM") and order["status"] == "CONFIRMED"
    assert f"₹{order['cartTotal']:.2f}" == cart["cartTotalAmount"]
    assert (await ok(call, "get_cart"))["items"] == []
    assert "empty" in await refused(call, "checkout", addressId=HOME)
    assert "paasId" in await refused(call, "check_payment_status", paasId="PAAS-1")
    assert "cash" in await refused(call, "confirm_order", orderId=order["orderId"], paasId="P1")
    orders = await ok(call, "get_orders", count=5, activeOnly=True)
    assert [o["orderId"] for o in orders["orders"]] == [order["orderId"]]
    assert orders["orders"][0]["billDetails"]["grandTotal"] == order["cartTotal"]
    details = await ok(call, "get_order_details", orderId=order["orderId"])
    assert details["totalBill"] == order["cartTotal"]
    tracked = await ok(call, "track_order", orderId=order["orderId"], lat=12.97, lng=77.64)
    assert tracked["status"]["statusMessage"] and tracked["pollingIntervalSeconds"] >= 10
    status = await ok(call, "get_delivery_status", orderId=order["orderId"], addressId=HOME)
    assert status["delivered"] is False
    staples = await ok(call, "your_go_to_items", addressId=HOME)
    bought = {milk["productId"], butter[0]["productId"]}
    assert {p["productId"] for p in staples["products"]} == bought
    assert (await ok(call, "clear_cart"))["items"] == []
    report = await ok(call, "report_error", tool="checkout", errorMessage="It failed.")
    assert report["mailtoLink"].startswith("mailto:") and "checkout" in report["summary"]
    made = await ok(
        call,
        "create_address",
        fullAddress="12, 5th Cross, HSR Layout, Bengaluru 560102",
        addressLine="12",
        addressLine2="5th Cross",
        city="Bengaluru",
        postalCode="560102",
        addressCategory="OTHER",
        addressTag="Gym",
        userName="Asha",
        userPhone="9876543210",
    )
    new_id = made["addressId"]
    assert new_id in [a["id"] for a in (await ok(call, "get_addresses"))["addresses"]]
    deleted = await ok(call, "delete_address", addressId=new_id)
    assert deleted["statusCode"] == 200
    assert "not found" in await refused(call, "delete_address", addressId=new_id)
    negative = [{"spinId": pack["spinId"], "quantity": -1}]
    assert "Invalid quantity" in await refused(
        call, "update_cart", selectedAddressId=HOME, items=negative
    )
    unknown = [{"spinId": "SPN-NOPE", "quantity": 1}]
    assert "spinId" in await refused(call, "update_cart", selectedAddressId=HOME, items=unknown)
    assert "not found" in await refused(call, "search_products", addressId="nope", query="milk")


def _yesterday(slot: dict[str, Any]) -> dict[str, Any]:
    """The same time a day earlier (slot ids are date ordinal * 10000 + HHMM)."""
    return {
        "slotId": slot["slotId"] - 10_000,
        "reservationTime": slot["reservationTime"] - 86_400,
    }


async def exercise_dineout(call: Call) -> None:
    """Every Dineout tool: search → details → slots → book → status → cancel, plus refusals."""
    home = (await ok(call, "get_saved_locations"))["locations"][0]
    documented = {"index", "id", "addressLine", "phoneNumber", "addressCategory", "addressTag"}
    assert set(home) == documented and (home["index"], home["addressTag"]) == (0, "Home")
    near = await ok(
        call, "search_restaurants_dineout", query="indiranagar", addressId=home["id"], limit=2
    )
    where = {"latitude": near["latitude"], "longitude": near["longitude"]}
    assert near["total"] > len(near["restaurants"]) == 2 and near["nextOffset"] == 2
    rooftop = await ok(call, "search_restaurants_dineout", query="rooftop", **where)
    venue = rooftop["restaurants"][0]
    assert "limit" in await refused(
        call, "search_restaurants_dineout", query="x", limit=31, **where
    )
    assert "Missing location" in await refused(call, "search_restaurants_dineout", query="x")
    details = await ok(call, "get_restaurant_details", restaurantId=venue["id"], **where)
    deals = details["data"]["restaurant"]["deals"]
    assert sorted(d["coverCharge"] > 0 for d in deals) == [False, True]
    today = FIXED_NOW.astimezone(SWIGGY_TZ).date().isoformat()
    slots = await ok(call, "get_available_slots", restaurantId=venue["id"], date=today, **where)
    assert len({s["dateStr"] for s in slots["slots"]}) == 7
    slot = next(s for s in slots["slots"] if s["dateStr"] > today and s["availableInventory"])
    free = next(d for d in slot["deals"] if d["isFree"])
    paid = next(d for d in slot["deals"] if not d["isFree"])
    booking_args = {
        "restaurantId": venue["id"],
        "slotId": slot["slotId"],
        "itemId": free["itemId"],
        "reservationTime": slot["reservationTime"],
        "guestCount": 4,
        **where,
    }
    paid_args = {**booking_args, "itemId": paid["itemId"]}
    cart = await ok(call, "create_cart", cartType="DEAL_TICKET_PURCHASE", **paid_args)
    assert cart["cart"]["bill"]["billToPay"] == paid["bookingPrice"] > 0
    booking = await ok(call, "book_table", **booking_args)
    assert booking["status"] == "CONFIRMED" and booking["guestCount"] == 4
    assert "bookingId" not in booking
    assert "already" in await refused(call, "book_table", **booking_args)
    past = _yesterday(slot)
    assert "past" in await refused(call, "book_table", **{**booking_args, **past})
    assert "guestCount" in await refused(call, "book_table", **{**booking_args, "guestCount": 25})
    assert "Paid deal" in await refused(call, "book_table", **paid_args)
    status = await ok(call, "get_booking_status", orderId=booking["orderId"])
    assert (status["status"], status["canCancel"]) == ("CONFIRMED", True)
    cancelled = await ok(call, "cancel_booking", orderId=booking["orderId"])
    assert cancelled["status"] == "CANCELLED" and cancelled["cancelledAt"]
    assert "already cancelled" in await refused(call, "cancel_booking", orderId=booking["orderId"])


EXERCISES: dict[str, Callable[[Call], Awaitable[None]]] = {
    "instamart": exercise_instamart,
    "food": exercise_food,
    "dineout": exercise_dineout,
}
