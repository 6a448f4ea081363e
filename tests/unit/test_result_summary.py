"""The sandbox's summary form: numbered lines with `(ID: …)`, from documented and older shapes."""

from __future__ import annotations

import json

from mcp_types import CallToolResult, TextContent

from swiggy_core.parsers import parse_tool_result
from swiggy_core.parsers.summary import read_summary
from swiggy_sandbox.servers.envelope import fail, ok, summarised
from swiggy_sandbox.servers.summary import render_summary

PACK = {
    "spinId": "SPN1",
    "skuId": "SKU1",
    "quantityDescription": "500 ml",
    "price": {"mrp": 28, "offerPrice": 27},
    "isInStockAndAvailable": True,
}


def test_products_one_line_per_pack_with_both_ids() -> None:
    sold_out = {**PACK, "spinId": "SPN2", "skuId": "SKU2", "quantityDescription": "1 L"}
    sold_out |= {"price": {"mrp": 56, "offerPrice": 56}, "isInStockAndAvailable": False}
    data = {"products": [{"displayName": "Amul Taaza", "variations": [PACK, sold_out]}]}
    text = render_summary("search_products", data, "Found 1 product for 'milk'.")
    assert text.splitlines() == [
        "Found 1 product for 'milk'.",
        "1. Amul Taaza — 500 ml | ₹27 (MRP ₹28) | in stock (ID: SPN1, SKU: SKU1)",
        "2. Amul Taaza — 1 L | ₹56 | out of stock (ID: SPN2, SKU: SKU2)",
    ]
    first, second = read_summary(text)
    assert (first.record_id, first.ids, first.price) == ("SPN1", {"SKU": "SKU1"}, 27.0)
    assert second.details[-1] == "out of stock"


def test_restaurants_food_and_dineout() -> None:
    food = {
        "id": "233548",
        "name": "Meghana Foods",
        "cuisines": ["Biryani", "Andhra"],
        "avgRating": 4.3,
        "deliveryTimeMinutes": 39,
        "costForTwo": "50000",  # paise, as Food's listing gives it
        "availabilityStatus": "OPEN",
    }
    dineout = {
        "id": "656137",
        "name": "The Fatty Bao",
        "cuisine": ["Asian"],
        "locality": "Indiranagar",
        "rating": {"value": "4.4", "count": 900},
        "costForTwo": "₹1,800 for two",
    }
    closed = {"id": "9", "name": "Empire", "cuisines": ["Kebabs"], "availabilityStatus": "CLOSED"}
    text = render_summary("search_restaurants", {"restaurants": [food, dineout, closed]})
    assert text.splitlines() == [
        "1. Meghana Foods — Biryani, Andhra | 4.3★ | 39 min | ₹500 for two (ID: 233548)",
        "2. The Fatty Bao — Asian | 4.4★ | Indiranagar | ₹1800 for two (ID: 656137)",
        "3. Empire — Kebabs | closed (ID: 9)",
    ]


def test_dishes_legacy_paise_and_documented_flat_items_agree() -> None:
    legacy = {"dishes": [{"card": {"info": {"id": "d1", "name": "Dosa", "price": 9000}}}]}
    flat = {"items": [{"menu_item_id": "d1", "name": "Dosa", "price": 90, "isVeg": True}]}
    assert render_summary("search_menu", legacy) == "1. Dosa — ₹90 (ID: d1)"
    assert render_summary("search_menu", flat) == "1. Dosa — veg | ₹90 (ID: d1)"
    menu = {
        "restaurant": {"id": "r1", "name": "MTR"},
        "items": [{"id": "d2", "name": "Idli", "price": 60, "categories": ["Breakfast"]}],
    }
    assert render_summary("get_restaurant_menu", menu).splitlines() == [
        "Menu of MTR:",
        "1. Idli — Breakfast | ₹60 (ID: d2)",
    ]


def test_slots_per_date_windows_without_ids_and_never_a_paid_or_full_slot_as_free() -> None:
    free = [{"itemId": "r-1", "isFree": True, "bookingPrice": 0}]
    paid = [{"itemId": "r-2", "isFree": False, "bookingPrice": 210}]
    slots = [
        _slot(101, "2026-11-24", "7:00 PM", "Dinner", 3, free),
        _slot(102, "2026-11-24", "8:00 PM", "Dinner", 2, paid),
        _slot(103, "2026-11-24", "9:00 PM", "Dinner", 0, free),  # full
        _slot(104, "2026-11-25", "1:00 PM", "Lunch", 0, free),
    ]
    text = render_summary("get_available_slots", {"slots": slots, "restaurantName": "Bao"})
    assert text.splitlines() == [
        "Tables at Bao:",
        "1. 2026-11-24 (Tuesday) — Dinner 7:00 PM–8:00 PM "
        "(2 open: 1 free booking, 1 paid prebook from ₹210)",
        "2. 2026-11-25 (Wednesday) — fully booked",
    ]
    assert "101" not in text and "r-1" not in text  # the exact ids live in structuredContent


def test_carts_list_lines_and_the_bill() -> None:
    instamart = {
        "items": [
            {
                "spinId": "SPN1",
                "skuId": "SKU1",
                "itemName": "Milk",
                "quantity": 2,
                "mrp": 29,
                "discountedFinalPrice": 27,
            }
        ],
        "billBreakdown": {
            "lineItems": [{"label": "Item Total", "value": "₹54.00"}],
            "toPay": {"label": "To Pay", "value": "₹84.00"},
        },
    }
    assert render_summary("get_cart", instamart).splitlines() == [
        "Your cart:",
        "1. Milk — qty 2 | ₹54 (₹27 each) (ID: SPN1, SKU: SKU1)",
        "Bill: Item Total ₹54.00 · To Pay ₹84.00",
    ]
    food = {
        "data": {
            "restaurant": {"name": "MTR"},
            "items": [{"menu_item_id": "d1", "name": "Dosa", "quantity": 2, "total": 180}],
            "pricing": {"item_total": 180, "to_pay": 210},
        },
        "addressId": "a1",
    }
    assert render_summary("get_food_cart", food).splitlines() == [
        "Your cart from MTR:",
        "1. Dosa — qty 2 | ₹180 (ID: d1)",
        "Bill: Item total ₹180 · To pay ₹210",
    ]
    assert render_summary("get_cart", {"items": [], "billBreakdown": {}}) == "Your cart is empty."


def test_addresses_and_confirmations() -> None:
    addresses = {"addresses": [{"id": "a1", "addressLine": "12th Main", "addressCategory": "HOME"}]}
    assert render_summary("get_addresses", addresses) == "1. Home — 12th Main (ID: a1)"
    booked = {
        "orderId": "DO-1",
        "isDineout": True,
        "restaurantName": "Bao",
        "reservationDate": "2026-11-24",
        "guestCount": 2,
        "status": "CONFIRMED",
    }
    sentence = render_summary("book_table", booked)
    assert sentence == "Booking DO-1 is CONFIRMED at Bao for 2 on 2026-11-24."
    placed = {"orderId": "IM-9", "status": "CONFIRMED", "paymentMethod": "Cash", "cartTotal": 84}
    assert render_summary("checkout", placed, "Order placed.") == (
        "Order placed.\nOrder IM-9 is CONFIRMED. Cash on delivery, total ₹84."
    )


def test_summarised_results_carry_the_data_and_failures_stay_envelopes() -> None:
    data = {"addresses": [{"id": "a1", "addressLine": "12th Main", "addressTag": "Home"}]}
    done = summarised("get_addresses", _result(ok(data, "1 saved address.")))
    assert done.structured_content == data
    assert isinstance(done.content[0], TextContent)
    assert done.content[0].text == "1 saved address.\n1. Home — 12th Main (ID: a1)"
    refused = _result(fail("No such address."))
    assert summarised("checkout", refused) is refused
    broken = _result(fail("Invalid addressId."), is_error=True)
    assert summarised("checkout", broken) is broken
    listing = summarised("x", _result(ok([1, 2])))  # structuredContent must be an object
    assert listing.structured_content == {"success": True, "data": [1, 2], "message": ""}


def _slot(
    slot_id: int, day: str, time: str, group: str, left: int, deals: list[dict[str, object]]
) -> dict[str, object]:
    return {
        "slotId": slot_id,
        "dateStr": day,
        "displayTime": time,
        "slotGroupName": group,
        "availableInventory": left,
        "reservationTime": 1_790_000_000 + slot_id,
        "deals": deals,
    }


def _result(text: str, *, is_error: bool = False) -> CallToolResult:
    assert json.loads(text)
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=is_error)


def test_dish_prices_read_the_same_in_the_summary_and_in_the_data() -> None:
    """Swiggy states no unit for dish prices: the summary and the parsers decide alike."""
    for prices in ([210, 2_100, 2_300, 2_400], [24_900, 31_900, 45_000]):
        items = [
            {"menu_item_id": f"D{i}", "name": f"Dish {i}", "price": price, "isVeg": 1}
            for i, price in enumerate(prices)
        ]
        data = {"items": items, "totalItems": len(items), "hasMore": False}
        from_data = parse_tool_result("search_menu", {"success": True, "data": data}, "foodorder")
        from_text = parse_tool_result(
            "search_menu", render_summary("search_menu", data, ""), "foodorder"
        )
        assert [d.price for d in from_text.items] == [d.price for d in from_data.items]
