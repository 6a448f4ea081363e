"""Every shape of SWIGGY_REFERENCE.md section 3, in every result form, becomes the right card."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from swiggy_core.approval import ApprovalInvalid, prepare
from swiggy_core.approval.request_tool import ApprovalRequest
from swiggy_core.cart import derive_cart
from swiggy_core.models import ChatMessage, McpToolResultBlock, McpToolUseBlock, TextContent
from swiggy_core.parsers import (
    AddressesResult,
    BookingConfirmedResult,
    CartResult,
    InfoResult,
    OrderPlacedResult,
    ParsedToolResult,
    ProductsResult,
    RestaurantsResult,
    StatusResult,
    TimeSlotsResult,
    parse_tool_result,
    parsed_result_adapter,
)
from swiggy_core.verticals import get_vertical

FIXTURES = Path(__file__).parents[1] / "fixtures" / "payloads"
SERVERS = ("instamart", "food", "dineout", "payments")
CASES: dict[str, dict[str, Any]] = {
    f"{server}/{name}": case
    for server in SERVERS
    for name, case in json.loads((FIXTURES / f"documented_{server}.json").read_text()).items()
}
FORMS = ("envelope-text", "structured-data", "structured-envelope", "two-blocks", "joined-text")
VERTICALS = {"instamart": "food", "food": "foodorder", "dineout": "dining", "payments": "food"}
SUMMARY = "Here is what Swiggy returned.\n1. Something — detail | ₹10 (ID: 1)"


def _content(case: dict[str, Any], form: str) -> Any:
    """One result in each form Swiggy or our engines may deliver it."""
    envelope = case["result"]
    data_text = json.dumps(envelope["data"])
    if form == "envelope-text":
        return [{"type": "text", "text": json.dumps(envelope)}]
    if form == "structured-data":
        return {
            "content": [{"type": "text", "text": SUMMARY}],
            "structuredContent": envelope["data"],
        }
    if form == "structured-envelope":
        return {"content": [{"type": "text", "text": SUMMARY}], "structured_content": envelope}
    if form == "two-blocks":
        return [{"type": "text", "text": SUMMARY}, {"type": "text", "text": data_text}]
    return SUMMARY + "\n" + data_text  # the two blocks joined into one string


def parse(key: str, form: str = "envelope-text", vertical: str | None = None) -> ParsedToolResult:
    case = CASES[key]
    vertical = vertical or VERTICALS[key.split("/")[0]]
    result = parse_tool_result(case["tool"], _content(case, form), vertical, case["input"])
    assert parsed_result_adapter.validate_python(result.model_dump()) == result
    return result


# --- The five reproductions of issue 10 -----------------------------------------------


@pytest.mark.parametrize("form", FORMS)
def test_repro_a_successful_booking_with_order_id_is_confirmed(form: str) -> None:
    result = parse("dineout/book_table_free", form)
    assert isinstance(result, BookingConfirmedResult), result
    assert (result.booking_id, result.status, result.guest_count) == ("DO-55120045", "CONFIRMED", 2)
    assert result.restaurant_name == "The Fatty Bao"
    assert result.date_time == "2026-11-24 7:00 PM"


@pytest.mark.parametrize("form", FORMS)
def test_repro_a_full_or_paid_slot_is_never_offered_as_a_free_booking(form: str) -> None:
    result = parse("dineout/get_available_slots", form)
    assert isinstance(result, TimeSlotsResult), result
    seven, half_past, eight = result.days[0].slots
    assert (seven.available, seven.free, seven.item_id) == (True, True, "656137-1371")
    assert (seven.seats_left, seven.meal) == (4, "Dinner")
    assert (half_past.available, half_past.seats_left) == (False, 0)
    # A paid prebook keeps its seats but is not a free booking and carries no deal to book.
    assert (eight.available, eight.free, eight.item_id, eight.paid_price) == (
        True,
        False,
        None,
        210,
    )
    assert not any(s.item_id == "656137-1372" for day in result.days for s in day.slots)


@pytest.mark.parametrize("form", FORMS)
def test_repro_instamart_cart_lines_keep_the_price_charged(form: str) -> None:
    result = parse("instamart/get_cart", form)
    assert isinstance(result, CartResult), result
    milk, yogurt = result.items
    assert (milk.name, milk.quantity_description, milk.quantity) == (
        "Amul Taaza Toned Fresh Milk",
        "500 ml",
        2,
    )
    assert (milk.unit_price, milk.mrp, milk.line_total) == (27.0, 29.0, 54.0)
    assert (yogurt.unit_price, yogurt.mrp, yogurt.line_total) == (52.5, 60.0, 52.5)
    assert [(b.label, b.amount, b.kind) for b in result.bill] == [
        ("Item Total", 106.5, "item_total"),
        ("Delivery Fee", 30.0, "fee"),
        ("Handling Fee", 9.0, "fee"),
        ("Coupon Discount", -12.0, "discount"),
    ]
    assert result.to_pay == 133.5


@pytest.mark.parametrize("form", FORMS)
def test_repro_addresses_keep_their_label(form: str) -> None:
    result = parse("instamart/get_addresses", form)
    assert isinstance(result, AddressesResult), result
    assert [(a.address_id, a.label) for a in result.items] == [
        ("d1f2a3", "Home"),
        ("e7c9b1", "Work"),
    ]
    assert (result.total, result.has_more) == (5, True)
    locations = parse("dineout/get_saved_locations", form)
    assert isinstance(locations, AddressesResult)
    assert [(a.address_id, a.label) for a in locations.items] == [
        ("loc-1", "Home"),
        ("loc-2", "Office"),
    ]


def test_repro_a_summary_with_structured_content_shows_cards() -> None:
    case = CASES["instamart/search_products"]
    raw = {
        "content": [{"type": "text", "text": "Found 2 products for 'milk':\n1. Amul — 500 ml"}],
        "structuredContent": case["result"]["data"],
        "isError": False,
    }
    result = parse_tool_result("search_products", raw, "food")
    assert isinstance(result, ProductsResult)
    assert [p.name for p in result.items][:1] == ["Amul Taaza Toned Fresh Milk"]


# --- Instamart ------------------------------------------------------------------------


@pytest.mark.parametrize("form", FORMS)
def test_instamart_search_products(form: str) -> None:
    result = parse("instamart/search_products", form)
    assert isinstance(result, ProductsResult) and result.kind == "grocery"
    milk, organic = result.items  # similarProducts stay out of the main results
    assert (milk.product_id, milk.spin_id, milk.sku_id) == ("PRD-10231", "SPN-88121", "SKU-5501")
    assert (milk.price, milk.mrp, milk.quantity_description, milk.brand) == (
        27.0,
        29.0,
        "500 ml",
        "Amul",
    )
    assert [(v.spin_id, v.price, v.in_stock) for v in milk.variations] == [
        ("SPN-88121", 27.0, True),
        ("SPN-88122", 54.0, False),
    ]
    assert organic.in_stock is False  # product-level inStock/isAvail false
    assert result.next_offset == 20


def test_instamart_your_go_to_items_has_the_same_shape() -> None:
    case = CASES["instamart/search_products"]
    result = parse_tool_result("your_go_to_items", json.dumps(case["result"]), "style")
    assert isinstance(result, ProductsResult) and result.items[0].spin_id == "SPN-88121"


@pytest.mark.parametrize("form", FORMS)
def test_instamart_get_cart_warning_and_payment_methods(form: str) -> None:
    result = parse("instamart/get_cart", form)
    assert isinstance(result, CartResult)
    assert result.notices == ["Prices may change at checkout."]
    assert result.payment_methods == ["Cash", "UPI"]


@pytest.mark.parametrize("form", FORMS)
def test_instamart_update_cart_reports_removed_and_capped_lines(form: str) -> None:
    result = parse("instamart/update_cart", form)
    assert isinstance(result, CartResult)
    assert [(i.spin_id, i.quantity) for i in result.items] == [("SPN-88121", 2), ("SPN-44010", 1)]
    assert result.notices == [
        "Removed (out of stock): Akshayakalpa Organic Cow Milk",
        "Epigamia Greek Yogurt - Blueberry: 1 in the cart, not 3 (Only 1 left in stock)",
    ]
    assert result.to_pay == 133.5
    if form in ("envelope-text", "structured-envelope"):  # the data alone carries no message
        assert result.message == "Cart updated"


def test_instamart_absent_cart_is_an_empty_cart_with_its_reason() -> None:
    result = parse("instamart/get_cart_absent")
    assert isinstance(result, CartResult)
    assert (result.items, result.message) == ([], "Your cart is empty")


@pytest.mark.parametrize("form", FORMS)
def test_instamart_checkout_single_order(form: str) -> None:
    result = parse("instamart/checkout_single", form)
    assert isinstance(result, OrderPlacedResult)
    assert (result.order_id, result.status, result.amount, result.payment_method) == (
        "IM-2291038475",
        "PLACED",
        133.5,
        "Cash",
    )


@pytest.mark.parametrize("form", FORMS)
def test_instamart_multi_store_checkout_with_partial_success(form: str) -> None:
    result = parse("instamart/checkout_multi", form)
    assert isinstance(result, OrderPlacedResult)  # what was placed must never look failed
    assert (result.order_id, result.order_ids) == ("IM-2291038476", ["IM-2291038476"])
    assert result.failures == ["Store closed for the day"]
    assert result.message == "1 of 2 store orders placed."
    assert result.amount == 240.0


def test_instamart_multi_store_checkout_with_no_success_is_a_failure() -> None:
    result = parse("instamart/checkout_multi_failed")
    assert isinstance(result, StatusResult) and result.success is False
    assert "Store closed for the day" in result.message and "Item out of stock" in result.message


@pytest.mark.parametrize(
    "key", ["instamart/checkout_upi", "food/place_food_order_upi", "dineout/book_table_upi"]
)
@pytest.mark.parametrize("form", FORMS)
def test_upi_pending_payment_is_not_placed_and_says_so(key: str, form: str) -> None:
    result = parse(key, form)
    assert isinstance(result, StatusResult), result
    assert (result.success, result.code) == (False, "PENDING_PAYMENT")
    assert "not" in result.message and "payment" in result.message.lower()


def test_instamart_get_orders() -> None:
    result = parse("instamart/get_orders")
    assert isinstance(result, InfoResult) and result.title == "Your orders"
    delivered = result.fields["Order IM-2291038475"]
    assert "Delivered" in delivered and "₹133.50" in delivered and "3 items" in delivered
    assert "Out for delivery" in result.fields["Order IM-2291038480"]


def test_instamart_get_order_details() -> None:
    result = parse("instamart/get_order_details")
    assert isinstance(result, InfoResult)
    assert result.title == "Order IM-2291038475 · Delivered"
    assert result.fields["Items"] == (
        "2 × Amul Taaza Toned Fresh Milk ₹54, 1 × Epigamia Greek Yogurt - Blueberry ₹52.50, "
        "1 × Akshayakalpa Organic Cow Milk (removed)"
    )
    assert result.fields["Coupon Discount"] == "-₹12"
    assert result.fields["Total"] == "₹133.50"


def test_instamart_track_order() -> None:
    result = parse("instamart/track_order")
    assert isinstance(result, InfoResult) and result.title == "Order on the way"
    assert result.fields["Status"] == "Out for delivery · Picked up at 18:05"
    assert result.fields["Arriving in"] == "6 mins"
    assert result.fields["Deliver to"] == "Home · Flat 402, Prestige Lakeside, Varthur Road"
    assert result.fields["Items"] == "1 × Basmati Rice 5 kg ₹240"
    assert result.fields["Payment"] == "Pay on delivery · ₹240"


def test_instamart_list_coupons_applicable_first() -> None:
    result = parse("instamart/list_coupons")
    assert isinstance(result, InfoResult) and result.title == "Coupons"
    assert list(result.fields) == ["MILK10", "FRESH50"]
    assert result.fields["FRESH50"] == (
        "₹50 off on fresh produce · not applicable: Add ₹166 more to apply"
    )


# --- Food -----------------------------------------------------------------------------


@pytest.mark.parametrize("form", FORMS)
def test_food_search_restaurants_with_dishes(form: str) -> None:
    result = parse("food/search_restaurants", form)
    assert isinstance(result, RestaurantsResult), result
    meghana, empire = result.items
    assert (meghana.restaurant_id, meghana.rating, meghana.cost_for_two) == ("23678", 4.5, 500.0)
    assert (meghana.delivery_time_minutes, meghana.distance_km, meghana.is_open) == (32, 2.4, True)
    assert (empire.is_open, empire.availability, empire.next_open) == (
        False,
        "CLOSED",
        "Opens at 11:30 AM",
    )
    (dish,) = result.dishes
    assert (dish.name, dish.menu_item_id, dish.price, dish.restaurant_id) == (
        "Chicken Dum Biryani",
        "118830551",
        349.0,
        "23678",
    )
    assert result.next_offset == 10


@pytest.mark.parametrize("form", FORMS)
def test_food_get_restaurant_menu_flat_items(form: str) -> None:
    result = parse("food/get_restaurant_menu", form)
    assert isinstance(result, ProductsResult) and result.kind == "menu"
    assert (result.restaurant_id, result.restaurant_name, result.truncated) == (
        "23678",
        "Meghana Foods",
        True,
    )
    assert [(d.name, d.category, d.price, d.in_stock) for d in result.items] == [
        ("Chicken Dum Biryani", "Biryani", 349.0, True),
        ("Paneer 65", "Starters/Veg", 269.0, True),
        ("Mutton Biryani", "Biryani", 429.0, False),
    ]
    assert [d.customisable for d in result.items] == [True, True, False]
    assert result.items[0].bestseller is True


@pytest.mark.parametrize("form", FORMS)
def test_food_search_menu_variations_variants_v2_and_addons(form: str) -> None:
    result = parse("food/search_menu", form)
    assert isinstance(result, ProductsResult) and result.kind == "menu"
    biryani, paneer, mutton = result.items
    assert (biryani.menu_item_id, biryani.price, biryani.restaurant_id) == (
        "118830551",
        349.0,
        "23678",
    )
    assert [
        (v.group, v.group_id, v.name, v.variant_id, v.extra_price) for v in biryani.variants
    ] == [
        ("Quantity", "g1", "Half", "v1", 0.0),
        ("Quantity", "g1", "Full", "v2", 140.0),
    ]
    assert [(a.group, a.group_id, a.name, a.addon_id, a.price) for a in biryani.addons] == [
        ("Extras", "g9", "Extra Raita", "a1", 30.0),
        ("Extras", "g9", "Salan", "a2", 25.0),
    ]
    # A dish with legacy `variations` is still a dish, not a grocery product.
    assert (paneer.menu_item_id, paneer.is_veg, paneer.spin_id) == ("118830601", True, None)
    assert [(v.group_id, v.name, v.variant_id, v.extra_price) for v in paneer.variants] == [
        ("g5", "Regular", "x1", 269.0),
        ("g5", "Large", "x2", 349.0),
    ]
    assert mutton.in_stock is False
    assert result.next_offset == 10


@pytest.mark.parametrize("key", ["food/get_food_cart", "food/update_food_cart"])
@pytest.mark.parametrize("form", FORMS)
def test_food_cart_nested_data_with_pricing(key: str, form: str) -> None:
    result = parse(key, form)
    assert isinstance(result, CartResult), result
    assert (result.restaurant_id, result.restaurant_name) == ("23678", "Meghana Foods")
    assert [(i.menu_item_id, i.quantity, i.unit_price, i.line_total) for i in result.items] == [
        ("118830551", 2, 349.0, 698.0),
        ("118830590", 1, 279.0, 279.0),
    ]
    assert [(b.label, b.amount, b.kind) for b in result.bill] == [
        ("Item total", 977.0, "item_total"),
        ("Delivery charge", 42.0, "fee"),
        ("Taxes and charges", 102.35, "tax"),
    ]
    assert result.to_pay == 1121.35


@pytest.mark.parametrize("form", FORMS)
def test_food_place_food_order_cash(form: str) -> None:
    result = parse("food/place_food_order_cod", form)
    assert isinstance(result, OrderPlacedResult)
    assert (result.order_id, result.status, result.amount, result.eta) == (
        "171234598761",
        "CONFIRMED",
        1121.35,
        "35 mins",
    )


def test_food_get_food_orders() -> None:
    result = parse("food/get_food_orders")
    assert isinstance(result, InfoResult) and result.title == "Your orders"
    value = result.fields["Order 171234598761"]
    assert "Meghana Foods" in value and "Delivered" in value and "₹1,121.35" in value
    assert "Chicken Dum Biryani x 2" in value


def test_food_get_food_order_details() -> None:
    result = parse("food/get_food_order_details")
    assert isinstance(result, InfoResult)
    assert result.title == "Order 171234598761 · Delivered"
    assert result.fields["Restaurant"] == "Meghana Foods"
    assert result.fields["Items"] == "2 × Chicken Dum Biryani ₹698, 1 × Chilli Chicken ₹279"
    assert result.fields["Item total"] == "₹977"
    assert result.fields["GST"] == "₹62.35"
    assert result.fields["Total"] == "₹1,121.35"
    assert result.fields["Payment"] == "Cash"


def test_food_track_food_order() -> None:
    result = parse("food/track_food_order")
    assert isinstance(result, InfoResult) and result.title == "Order status"
    assert result.fields["Meghana Foods"] == (
        "Preparing · Your order is being prepared · Arriving in 24 mins"
    )


def test_food_get_food_delivery_status() -> None:
    result = parse("food/get_food_delivery_status")
    assert isinstance(result, InfoResult) and result.title == "On the way"
    assert result.fields == {"Order": "171234598761", "Arriving in": "15 mins"}


def test_food_fetch_food_coupons_flags_online_payment_offers() -> None:
    result = parse("food/fetch_food_coupons")
    assert isinstance(result, InfoResult) and result.title == "Coupons"
    assert list(result.fields) == ["TRYNEW", "UPI100", "BIG500"]
    assert result.fields["TRYNEW"] == "60% off up to ₹120 · Valid on orders above ₹199"
    assert "needs online payment" in result.fields["UPI100"]
    assert result.fields["BIG500"] == "₹150 off · not applicable: Add ₹120 more"


def test_food_apply_food_coupon() -> None:
    result = parse("food/apply_food_coupon")
    assert isinstance(result, InfoResult) and result.title == "Coupon TRYNEW applied"
    assert result.fields["Coupon discount"] == "-₹120"
    assert result.fields["To pay"] == "₹1,001.35"


def test_food_coupon_with_zero_discount_was_only_suggested() -> None:
    result = parse("food/apply_food_coupon_suggested")
    assert isinstance(result, InfoResult)
    assert result.title == "Coupon BIG500 was not applied"


# --- Dineout --------------------------------------------------------------------------


@pytest.mark.parametrize("form", FORMS)
def test_dineout_search_restaurants(form: str) -> None:
    result = parse("dineout/search_restaurants_dineout", form)
    assert isinstance(result, RestaurantsResult)
    bao, toscano = result.items
    assert (bao.restaurant_id, bao.rating, bao.cost_for_two, bao.cuisines) == (
        "656137",
        4.4,
        1800.0,
        ["Asian", "Sushi"],
    )
    assert (bao.locality, bao.offer, bao.distance_km) == (
        "Indiranagar",
        "Flat 15% off on total bill",
        1.2,
    )
    assert (toscano.cost_for_two, toscano.rating) == (2500.0, 4.2)
    assert result.next_offset == 10


@pytest.mark.parametrize("form", FORMS)
def test_dineout_restaurant_details_mark_paid_deals(form: str) -> None:
    result = parse("dineout/get_restaurant_details", form)
    assert isinstance(result, RestaurantsResult)
    (bao,) = result.items
    assert (bao.restaurant_id, bao.name, bao.rating, bao.cost_for_two) == (
        "656137",
        "The Fatty Bao",
        4.4,
        1800.0,
    )
    assert [(d.title, d.paid, d.price) for d in bao.deals] == [
        ("Free table reservation + 15% off", False, None),
        ("Prime deal: 30% off the bill", True, 210.0),
    ]


def test_dineout_slots_group_by_date_and_report_the_requested_time() -> None:
    case = CASES["dineout/get_available_slots"]
    asked = {**case["input"], "time": "20:00"}
    result = parse_tool_result(case["tool"], json.dumps(case["result"]), "dining", asked)
    assert isinstance(result, TimeSlotsResult)
    assert [d.date for d in result.days] == ["2026-11-24", "2026-11-25"]
    assert result.requested_available is False  # 8 PM exists, but only as a paid prebook
    assert result.days[1].slots[0].item_id == "656137-1371"


def test_dineout_get_booking_status() -> None:
    result = parse("dineout/get_booking_status")
    assert isinstance(result, InfoResult)
    assert result.title == "Booking DO-55120045 · Confirmed"
    assert result.fields["Restaurant"] == "The Fatty Bao"
    assert result.fields["When"] == "2026-11-24 7:00 PM"
    assert (result.fields["Guests"], result.fields["Can cancel"]) == ("2", "yes")


def test_dineout_cancel_booking() -> None:
    result = parse("dineout/cancel_booking")
    assert isinstance(result, InfoResult)
    assert result.title == "Booking DO-55120045 · Cancelled"


def test_dineout_paid_prebook_cart_is_not_bookable_here() -> None:
    result = parse("dineout/create_cart")
    assert isinstance(result, InfoResult)
    assert result.title == "Paid prebook — not bookable here"
    assert result.fields["Amount"] == "₹210"


# --- Shared payment tools -------------------------------------------------------------


def test_payment_options_with_cash_on_delivery() -> None:
    result = parse("payments/get_payment_options")
    assert isinstance(result, InfoResult) and result.title == "Payment options"
    assert result.fields["Cash on delivery"] == "available"
    assert result.fields["Amount"] == "₹133.50"
    assert result.fields["Other methods"] == ("Google Pay, PhonePe (disabled)")


def test_payment_options_without_cash_on_delivery() -> None:
    result = parse("payments/get_payment_options_no_cod", vertical="foodorder")
    assert isinstance(result, InfoResult)
    assert result.fields["Cash on delivery"] == "not available"


@pytest.mark.parametrize(
    ("key", "title"),
    [
        ("payments/check_payment_status_pending", "Payment pending: not placed yet"),
        ("payments/check_payment_status_success", "Payment successful"),
        ("payments/check_payment_status_failed", "Payment failed"),
    ],
)
@pytest.mark.parametrize("form", FORMS)
def test_check_payment_status(key: str, title: str, form: str) -> None:
    result = parse(key, form)
    assert isinstance(result, InfoResult), result
    assert result.title == title
    assert result.fields["Order"] == "IM-2291038477"


def test_confirm_order_outcomes() -> None:
    placed = parse("payments/confirm_order_success")
    assert isinstance(placed, OrderPlacedResult)
    assert (placed.order_id, placed.status) == ("IM-2291038477", "PLACED")
    pending = parse("payments/confirm_order_pending")
    assert isinstance(pending, StatusResult)
    assert (pending.success, pending.code) == (False, "PENDING_PAYMENT")
    failed = parse("payments/confirm_order_failed")
    assert isinstance(failed, StatusResult) and failed.success is False


# --- Old shapes stay recognisable next to the new ones --------------------------------


def test_legacy_booking_id_still_confirms() -> None:
    payload = {"success": True, "data": {"bookingId": "BK-1", "status": "CONFIRMED"}}
    result = parse_tool_result("book_table", json.dumps(payload), "dining")
    assert isinstance(result, BookingConfirmedResult) and result.booking_id == "BK-1"


def test_legacy_paise_menu_next_to_a_rupee_menu() -> None:
    paise = {"items": [{"id": "d1", "name": "Dosa", "price": 9000, "isVeg": 1}]}
    rupees = {"items": [{"menu_item_id": "d1", "name": "Dosa", "price": 90, "isVeg": True}]}
    for payload in (paise, rupees):
        result = parse_tool_result("search_menu", json.dumps(payload), "foodorder")
        assert isinstance(result, ProductsResult)
        assert result.items[0].price == 90.0, payload


# --- Approvals read the documented shapes in either result form -----------------------

SLOTS_CASE = CASES["dineout/get_available_slots"]
WHERE = {"latitude": 12.9719, "longitude": 77.6412}


def _reader(case: dict[str, Any], form: str) -> Any:
    """A Reader answering one read tool with `case` in the given result form."""

    def read(tool: str, arguments: dict[str, Any]) -> Any:
        if tool == "get_addresses":  # the dialog offers the saved addresses too
            return _content(CASES["instamart/get_addresses"], "envelope-text")[0]["text"]
        if tool == "get_payment_options":  # and the ways to pay
            return _content(CASES["payments/get_payment_options"], "envelope-text")[0]["text"]
        assert tool == case["tool"], tool
        content = _content(case, form)
        return content if form != "envelope-text" else content[0]["text"]

    return read


def _booking(slot_id: int, item_id: str, when: int) -> ApprovalRequest:
    arguments = {
        "restaurantId": "656137",
        "slotId": slot_id,
        "itemId": item_id,
        "reservationTime": when,
        "guestCount": 2,
        **WHERE,
    }
    return ApprovalRequest(tool="book_table", arguments=arguments)


@pytest.mark.parametrize("form", FORMS)
def test_approval_books_a_free_deal_with_seats(form: str) -> None:
    request = _booking(7399441900, "656137-1371", 1795527000)
    prepared = prepare(get_vertical("dining"), request, None, _reader(SLOTS_CASE, form))
    assert prepared.arguments["itemId"] == "656137-1371"
    assert prepared.view.restaurant_name == "The Fatty Bao" and prepared.view.guests == 2


@pytest.mark.parametrize(
    ("slot_id", "item_id", "when", "why"),
    [
        (7399441930, "656137-1371", 1795528800, "full"),  # availableInventory 0
        (7399441900, "656137-1372", 1795527000, "paid prebook (₹210)"),  # isFree false
        (7399442000, "656137-1372", 1795530600, "paid prebook (₹210)"),  # a paid-only slot
        (7399441900, "656137-9999", 1795527000, "not one of this slot's deals"),
    ],
)
@pytest.mark.parametrize("form", ["envelope-text", "two-blocks", "joined-text"])
def test_approval_refuses_a_full_or_paid_slot(
    slot_id: int, item_id: str, when: int, why: str, form: str
) -> None:
    request = _booking(slot_id, item_id, when)
    with pytest.raises(ApprovalInvalid) as refused:
        prepare(get_vertical("dining"), request, None, _reader(SLOTS_CASE, form))
    assert why in refused.value.message


def test_approval_refuses_slots_it_cannot_read() -> None:
    request = _booking(7399441900, "656137-1371", 1795527000)
    with pytest.raises(ApprovalInvalid):
        prepare(get_vertical("dining"), request, None, lambda tool, args: "1. 7:00 PM — Dinner")


@pytest.mark.parametrize("form", FORMS)
def test_approval_shows_the_charged_cart_and_string_bill(form: str) -> None:
    address = {"id": "d1f2a3", "label": "Home", "address": "Flat 402"}
    request = ApprovalRequest(tool="checkout", arguments={})
    reader = _reader(CASES["instamart/get_cart"], form)
    prepared = prepare(get_vertical("food"), request, address, reader)
    view = prepared.view
    assert [(line.unit_price, line.line_total) for line in view.lines] == [
        (27.0, 54.0),
        (52.5, 52.5),
    ]
    assert view.to_pay == 133.5 and view.bill[-1].amount == -12.0
    assert prepared.arguments == {"addressId": "d1f2a3", "paymentMethod": "COD"}


def test_approval_refuses_a_cart_with_an_out_of_stock_line() -> None:
    case = json.loads(json.dumps(CASES["instamart/get_cart"]))
    case["result"]["data"]["items"][1]["isInStockAndAvailable"] = False
    address = {"id": "d1f2a3", "label": "Home"}
    with pytest.raises(ApprovalInvalid) as refused:
        prepare(
            get_vertical("style"),
            ApprovalRequest(tool="checkout"),
            address,
            _reader(case, "envelope-text"),
        )
    assert "Epigamia" in refused.value.message


def test_approval_reads_the_food_cart_nested_under_data() -> None:
    address = {"id": "d1f2a3", "label": "Home"}
    request = ApprovalRequest(tool="place_food_order", arguments={"noteToRestaurant": "Less spicy"})
    reader = _reader(CASES["food/get_food_cart"], "structured-data")
    prepared = prepare(get_vertical("foodorder"), request, address, reader)
    assert prepared.view.restaurant_name == "Meghana Foods" and prepared.view.to_pay == 1121.35
    assert prepared.arguments["noteToRestaurant"] == "Less spicy"


# --- The cart derived from a conversation of documented results ------------------------


def _turn(*calls: tuple[str, str]) -> list[ChatMessage]:
    """Tool calls (fixture key, result form) as the stored blocks of one assistant reply."""
    blocks: list[Any] = []
    for index, (key, form) in enumerate(calls):
        case = CASES[key]
        content = _content(case, form)
        if isinstance(content, dict):  # a raw MCP result is stored as its two blocks
            data = content.get("structuredContent", content.get("structured_content"))
            content = [
                {"type": "text", "text": SUMMARY},
                {"type": "text", "text": json.dumps(data)},
            ]
        texts = [content] if isinstance(content, str) else [b["text"] for b in content]
        blocks.append(
            McpToolUseBlock(id=f"u{index}", name=case["tool"], server_name="s", input=case["input"])
        )
        blocks.append(
            McpToolResultBlock(
                tool_use_id=f"u{index}", content=[TextContent(text=t) for t in texts]
            )
        )
    return [ChatMessage(role="assistant", content=blocks)]


@pytest.mark.parametrize("form", FORMS)
def test_cart_from_documented_instamart_results(form: str) -> None:
    state = derive_cart(
        _turn(("instamart/search_products", form), ("instamart/update_cart", form)), "food"
    )
    assert [(i.spin_id, i.quantity, i.unit_price, i.line_total) for i in state.items] == [
        ("SPN-88121", 2, 27.0, 54.0),
        ("SPN-44010", 1, 52.5, 52.5),
    ]
    assert state.to_pay == 133.5
    # A UPI checkout that waits for payment placed nothing: the cart stays.
    pending = derive_cart(
        _turn(("instamart/update_cart", form), ("instamart/checkout_upi", form)), "food"
    )
    assert pending.item_count == 3
    placed = derive_cart(
        _turn(("instamart/update_cart", form), ("instamart/checkout_single", form)), "food"
    )
    assert placed.is_empty
    absent = derive_cart(
        _turn(("instamart/update_cart", form), ("instamart/get_cart_absent", "envelope-text")),
        "food",
    )
    assert absent.is_empty


@pytest.mark.parametrize("form", FORMS)
def test_cart_from_documented_food_results(form: str) -> None:
    calls = (
        ("food/search_menu", form),
        ("food/update_food_cart", form),
        ("food/apply_food_coupon", form),  # pricing only: the lines stay as they were
    )
    state = derive_cart(_turn(*calls), "foodorder")
    assert (state.restaurant_id, state.restaurant_name) == ("23678", "Meghana Foods")
    assert [(i.menu_item_id, i.quantity, i.line_total) for i in state.items] == [
        ("118830551", 2, 698.0),
        ("118830590", 1, 279.0),
    ]
    assert state.to_pay == 1121.35


def test_cart_lines_are_named_from_the_dishes_a_restaurant_search_listed() -> None:
    search = CASES["food/search_restaurants"]
    update = CASES["food/update_food_cart"]
    blocks = [
        McpToolUseBlock(id="a", name=search["tool"], server_name="s", input=search["input"]),
        McpToolResultBlock(tool_use_id="a", content=json.dumps(search["result"])),
        McpToolUseBlock(id="b", name=update["tool"], server_name="s", input=update["input"]),
        McpToolResultBlock(tool_use_id="b", content=json.dumps({"success": True})),
    ]
    state = derive_cart([ChatMessage(role="assistant", content=blocks)], "foodorder")
    assert (state.items[0].name, state.items[0].unit_price) == ("Chicken Dum Biryani", 349.0)
