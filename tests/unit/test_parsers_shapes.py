"""Shape variations between accounts and versions: slots, bills, prices, wrong types."""

from __future__ import annotations

import json

import pytest

from swiggy_core.parsers import (
    AddressesResult,
    CartResult,
    InfoResult,
    ProductsResult,
    RestaurantsResult,
    TimeSlotsResult,
    parse_tool_result,
)


def _parse(tool: str, payload: object, vertical: str, tool_input: dict | None = None):
    return parse_tool_result(tool, json.dumps(payload), vertical, tool_input)


def test_slots_keyed_by_date() -> None:
    payload = {
        "data": {
            "2026-05-02": [{"id": 7, "time": "13:00", "available": True}],
            "2026-05-01": [{"id": 8, "time": "12:30", "isAvailable": False}],
        }
    }
    result = _parse("get_available_slots", payload, "dining")
    assert isinstance(result, TimeSlotsResult)
    assert [(d.date, d.slots[0].slot_id, d.slots[0].available) for d in result.days] == [
        ("2026-05-01", "8", False),
        ("2026-05-02", "7", True),
    ]


def test_slots_as_plain_strings_under_days() -> None:
    payload = {"slots": [{"date": "2026-05-01", "slots": ["19:00", "19:30", "not a time"]}]}
    result = _parse("get_available_slots", payload, "dining", {"date": "2026-05-01"})
    assert isinstance(result, TimeSlotsResult)
    assert [(s.time, s.minutes) for s in result.days[0].slots] == [("19:00", 1140), ("19:30", 1170)]


def test_slots_from_epoch_only_with_requested_reservation_time() -> None:
    # 2026-05-01 19:00 and 19:30 IST, one of them in milliseconds
    payload = {
        "slots": [
            {"slotId": 1, "reservationTime": 1777642200},
            {"slotId": 2, "reservationTime": 1777644000000, "soldOut": True},
        ]
    }
    result = _parse("get_available_slots", payload, "dining", {"reservationTime": 1777644000})
    assert isinstance(result, TimeSlotsResult)
    day = result.days[0]
    assert day.date == "2026-05-01" and result.requested_time == "19:30"
    assert [(s.time, s.available, s.requested) for s in day.slots] == [
        ("19:00", True, False),
        ("19:30", False, True),
    ]
    assert result.requested_available is False


@pytest.mark.parametrize(
    ("slot", "available"),
    [
        ({"availability": "AVAILABLE"}, True),
        ({"availability": "SOLD_OUT"}, False),
        ({"status": "FULL"}, False),
        ({"availableSeats": 0}, False),
        ({"availableSeats": "3"}, True),
        ({"is_available": "false"}, False),
        ({"available": 1}, True),
    ],
)
def test_slot_availability_forms(slot: dict[str, object], available: bool) -> None:
    payload = {"slots": [{"slotId": "s", "time": "8:00 pm", **slot}]}
    result = _parse("get_available_slots", payload, "dining")
    assert isinstance(result, TimeSlotsResult)
    assert result.days[0].slots[0].available is available
    assert result.days[0].slots[0].minutes == 20 * 60


def test_restaurant_cost_for_two_units() -> None:
    payload = {
        "restaurants": [
            {"id": "1", "name": "A", "cuisines": ["X"], "costForTwo": "₹400 for two"},
            {"id": "2", "name": "B", "cuisines": ["X"], "costForTwo": "₹5,000 for two"},
            {"id": "3", "name": "C", "cuisines": ["X"], "costForTwo": 40000},
            {"id": "4", "name": "D", "cuisines": ["X"], "costForTwo": 300},
            {
                "id": "5",
                "name": "E",
                "cuisines": ["X"],
                "costForTwoMessage": "₹250 for two",
                "costForTwo": "25000",
            },
        ]
    }
    result = _parse("search_restaurants", payload, "foodorder")
    assert isinstance(result, RestaurantsResult)
    assert [r.cost_for_two for r in result.items] == [400.0, 5000.0, 400.0, 300.0, 250.0]


def test_dineout_venue_with_string_offers_and_value() -> None:
    payload = {
        "restaurants": [
            {
                "id": "v1",
                "name": "Olive",
                "cuisines": ["Italian"],
                "costForTwo": "₹3,000 for two",
                "costForTwoValue": 3000,
                "offers": ["Flat 10% off on total bill"],
                "locality": "Ashok Nagar",
            }
        ]
    }
    result = _parse("search_restaurants_dineout", payload, "dining")
    assert isinstance(result, RestaurantsResult)
    venue = result.items[0]
    assert (venue.cost_for_two, venue.offer, venue.locality) == (
        3000.0,
        "Flat 10% off on total bill",
        "Ashok Nagar",
    )


def test_product_price_forms() -> None:
    payload = {
        "products": [
            {"name": "A", "productId": "1", "price": "₹1,249.50"},
            {"name": "B", "productId": "2", "price": {"offerPrice": "45", "mrp": "50"}},
            {"name": "C", "productId": "3", "sellingPrice": 12, "mrp": 15},
            {"name": "D", "productId": "4", "price": None, "mrp": 99},
            {"name": "E", "productId": "5", "price": "free!"},
        ]
    }
    result = _parse("search_products", payload, "food")
    assert isinstance(result, ProductsResult)
    assert [(p.price, p.mrp) for p in result.items] == [
        (1249.5, None),
        (45.0, 50.0),
        (12.0, 15.0),
        (99.0, 99.0),
        (None, None),
    ]


def test_wrong_types_in_every_field_do_not_break_cards() -> None:
    junk: list[object] = [
        None,
        True,
        [],
        {},
        "",
        "abc",
        -1,
        1e308,
        float("inf"),
        10**40,
        {"x": [1]},
    ]
    products = []
    for i, value in enumerate(junk):
        products.append(
            {
                "displayName": f"P{i}",
                "productId": value,
                "brand": value,
                "variations": [
                    {
                        "spinId": value,
                        "skuId": value,
                        "price": value,
                        "quantityDescription": value,
                        "isInStockAndAvailable": value,
                        "maxQuantity": value,
                        "imageUrl": value,
                    },
                    value,
                ],
            }
        )
    text = json.dumps({"products": products}).replace("Infinity", "1e999")
    result = parse_tool_result("search_products", text, "food")
    assert isinstance(result, ProductsResult)
    assert len(result.items) == len(junk)
    assert all(p.price is None or p.price == p.price for p in result.items)  # no NaN


def test_cart_with_paise_lines_next_to_a_rupee_bill() -> None:
    payload = {
        "cart": {
            "restaurantId": "r1",
            "items": [{"id": "m1", "name": "Dosa", "quantity": 2, "price": 9000}],
            "billBreakdown": {"itemTotal": 180, "toPay": 205},
        }
    }
    result = _parse("get_food_cart", payload, "foodorder")
    assert isinstance(result, CartResult)
    line = result.items[0]
    assert (line.menu_item_id, line.unit_price, line.line_total) == ("m1", 90.0, 180.0)
    assert result.to_pay == 205


def test_cart_with_explicit_paise_keys() -> None:
    payload = {
        "cartItems": [{"menu_item_id": "m1", "name": "Idli", "quantity": 3, "pricePaise": 4000}]
    }
    result = _parse("get_food_cart", payload, "foodorder")
    assert isinstance(result, CartResult)
    assert (result.items[0].unit_price, result.items[0].line_total) == (40.0, 120.0)


def test_cart_drops_zero_quantity_lines_and_keeps_unnamed_lines_by_id() -> None:
    payload = {
        "items": [
            {"spinId": "S1", "quantity": 0, "name": "Gone"},
            {"spinId": "S2", "quantity": "2"},
        ]
    }
    result = _parse("update_cart", payload, "food")
    assert isinstance(result, CartResult)
    assert [(i.name, i.spin_id, i.quantity) for i in result.items] == [("Item S2", "S2", 2)]


def test_bill_dict_ignores_counts_and_ids() -> None:
    payload = {
        "cart": {
            "items": [],
            "bill": {
                "itemCount": 3,
                "cartId": 123,
                "currency": "INR",
                "couponDiscount": -20,
                "itemTotal": 100,
                "grandTotal": 80,
            },
        }
    }
    result = _parse("get_cart", payload, "food")
    assert isinstance(result, CartResult)
    assert [(b.label, b.amount, b.kind) for b in result.bill] == [
        ("Coupon discount", -20.0, "discount"),
        ("Item total", 100.0, "item_total"),
    ]
    assert result.to_pay == 80


def test_address_variants() -> None:
    payload = {
        "data": [
            {
                "addressId": 5,
                "formattedAddress": "1 Church St",
                "annotation": "Gym",
                "location": {"lat": "12.97", "lng": 77.6},
            },
            {"id": "x", "address": "No coords", "lat": 999},
        ]
    }
    result = _parse("get_addresses", payload, "food")
    assert isinstance(result, AddressesResult)
    first, second = result.items
    assert (first.address_id, first.label, first.lat, first.lng) == ("5", "Gym", 12.97, 77.6)
    assert second.lat is None


def test_large_lists_are_capped_and_flagged() -> None:
    payload = {"products": [{"name": f"P{i}", "productId": str(i), "price": i} for i in range(500)]}
    result = _parse("search_products", payload, "food")
    assert isinstance(result, ProductsResult)
    assert len(result.items) == 60 and result.truncated


def test_long_strings_are_shortened() -> None:
    payload = {
        "products": [
            {"name": "N" * 10_000, "productId": "1", "price": 5, "description": "d" * 10_000}
        ]
    }
    result = _parse("search_products", payload, "food")
    assert isinstance(result, ProductsResult)
    assert len(result.items[0].name) <= 300 and len(result.items[0].description or "") <= 500


# --- Shapes the offline sandbox serves (swiggy_sandbox) -------------------------------


def test_sandbox_slots_with_date_str_display_time_and_deals() -> None:
    deals = [
        {"itemId": "656137-1372", "isFree": False, "bookingPrice": 210},
        {"itemId": "656137-1371", "isFree": True, "bookingPrice": 0},
    ]
    slot = {"slotId": 7399441900, "time": "19:00", "displayTime": "7:00 PM", "available": True}
    payload = {
        "restaurantId": "656137",
        "days": [
            {"dateStr": "2026-11-24", "slots": [{**slot, "deals": deals}, {**slot, "slotId": 1}]}
        ],
    }
    result = _parse("get_available_slots", {"success": True, "data": payload}, "dining")
    assert isinstance(result, TimeSlotsResult)
    first = result.days[0].slots[0]
    assert (first.date, first.time, first.minutes) == ("2026-11-24", "7:00 PM", 19 * 60)
    assert (first.slot_id, first.item_id) == ("7399441900", "656137-1371")  # the free deal


def test_booking_status_is_info_not_a_slot_list() -> None:
    payload = {
        "success": True,
        "data": {
            "bookingId": "DO1",
            "status": "CONFIRMED",
            "dateStr": "2026-11-25",
            "time": "12:00",
            "slotId": 7,
            "guestCount": 4,
        },
    }
    for tool in ("get_booking_status", "cancel_booking"):
        result = _parse(tool, payload, "dining")
        assert isinstance(result, InfoResult), tool
        assert result.fields["bookingId"] == "DO1"


def test_order_details_with_items_and_bill_are_info_not_a_cart() -> None:
    payload = {
        "success": True,
        "data": {
            "orderId": "178340001",
            "status": "PLACED",
            "items": [{"menu_item_id": "1", "name": "Margherita", "quantity": 1, "price": 237}],
            "billBreakdown": {"itemTotal": 237, "toPay": 304.85},
        },
    }
    result = _parse("get_food_order_details", payload, "foodorder")
    assert isinstance(result, InfoResult)
    assert result.fields["orderId"] == "178340001"
    assert "Margherita" in result.fields["items"]


def test_order_lists_become_numbered_fields() -> None:
    payload = {
        "success": True,
        "data": {
            "orders": [
                {"orderId": "1", "status": "PLACED"},
                {"orderId": "2", "status": "DELIVERED"},
            ],
            "next": None,
        },
    }
    result = _parse("get_food_orders", payload, "foodorder")
    assert isinstance(result, InfoResult)
    assert result.fields == {
        "1": "orderId: 1; status: PLACED",
        "2": "orderId: 2; status: DELIVERED",
    }


def test_bill_line_list_wins_over_restating_keys() -> None:
    bill = {
        "lineItems": [
            {"label": "Item Total", "value": 908},
            {"label": "GST & Restaurant Charges", "value": 45.4},
            {"label": "To Pay", "value": 988.4},
        ],
        "itemTotal": 908,
        "taxes": 45.4,
        "savings": 2,
        "toPay": 988.4,
    }
    result = _parse(
        "get_food_cart",
        {"success": True, "data": {"items": [], "billBreakdown": bill}},
        "foodorder",
    )
    assert isinstance(result, CartResult)
    assert [(b.label, b.amount) for b in result.bill] == [
        ("Item Total", 908.0),
        ("GST & Restaurant Charges", 45.4),
    ]
    assert result.to_pay == 988.4
