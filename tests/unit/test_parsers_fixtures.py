"""Every payload shape of SWIGGY_FACTS.md, per vertical, as MCP text content."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from swiggy_core.parsers import (
    AddressesResult,
    BookingConfirmedResult,
    CartResult,
    OrderPlacedResult,
    ProductsResult,
    RestaurantsResult,
    StatusResult,
    TimeSlotsResult,
    parse_tool_result,
    parsed_result_adapter,
)

FIXTURES = Path(__file__).parents[1] / "fixtures" / "payloads"
CDN = (
    "https://media-assets.swiggy.com/swiggy/image/upload/fl_lossy,f_auto,q_auto,w_264,h_288,c_fill/"
)


def _content(name: str) -> list[dict[str, Any]]:
    """A fixture as the connector delivers it: a JSON string inside a text block."""
    return [{"type": "text", "text": (FIXTURES / f"{name}.json").read_text()}]


def _parse(tool: str, fixture: str, vertical: str, tool_input: dict[str, Any] | None = None):
    result = parse_tool_result(tool, _content(fixture), vertical, tool_input)
    # Every result survives a round trip through the discriminated union.
    assert parsed_result_adapter.validate_python(result.model_dump()) == result
    return result


# --- Instamart (NutriCart `food`, StyleKit `style`) ---------------------------------


@pytest.mark.parametrize("vertical", ["food", "style"])
def test_instamart_get_addresses(vertical: str) -> None:
    result = _parse("get_addresses", "instamart_get_addresses", vertical)
    assert isinstance(result, AddressesResult)
    home, work = result.items
    assert (home.address_id, home.label, home.lat, home.lng) == ("d1f2a3", "Home", 12.9401, 77.7352)
    assert home.address.startswith("Flat 402")
    assert (work.label, work.lat, work.lng) == ("Work", 12.9716, 77.605)


@pytest.mark.parametrize("vertical", ["food", "style"])
def test_instamart_search_products(vertical: str) -> None:
    result = _parse("search_products", "instamart_search_products", vertical)
    assert isinstance(result, ProductsResult)
    assert result.kind == "grocery"
    assert result.next_offset == 20
    # similarProducts are not mixed into the main results.
    assert [p.name for p in result.items] == [
        "Amul Taaza Toned Fresh Milk",
        "Epigamia Greek Yogurt - Blueberry",
    ]
    milk = result.items[0]
    assert (milk.product_id, milk.spin_id, milk.sku_id) == ("PRD-10231", "SPN-88121", "SKU-5501")
    assert (milk.price, milk.mrp, milk.quantity_description) == (27.0, 29.0, "500 ml")
    assert milk.brand == "Amul" and milk.in_stock and milk.max_quantity == 6
    assert milk.image_url == CDN + "NI_CATALOG/IMAGES/CIW/2025/3/12/8d7b0d4e-amul-taaza.png"
    assert [v.quantity_description for v in milk.variations] == ["500 ml", "1 L"]
    assert milk.variations[1].in_stock is False and milk.variations[1].price == 54.0
    assert result.items[1].price == 52.5


def test_instamart_similar_products_shown_when_no_main_results() -> None:
    payload = json.loads((FIXTURES / "instamart_search_products.json").read_text())
    payload["data"]["products"] = []
    result = parse_tool_result("search_products", json.dumps(payload), "food")
    assert isinstance(result, ProductsResult)
    assert [p.name for p in result.items] == ["Nandini Toned Milk"]


def test_instamart_update_cart() -> None:
    result = _parse("update_cart", "instamart_update_cart", "food")
    assert isinstance(result, CartResult)
    assert [(i.spin_id, i.sku_id, i.quantity) for i in result.items] == [
        ("SPN-88121", "SKU-5501", 2),
        ("SPN-44010", "SKU-9011", 1),
    ]
    assert [(i.unit_price, i.line_total) for i in result.items] == [(27.0, 54.0), (52.5, 52.5)]
    assert [(b.label, b.amount, b.kind) for b in result.bill] == [
        ("Item total", 106.5, "item_total"),
        ("Delivery fee", 30.0, "fee"),
        ("Handling fee", 9.0, "fee"),
        ("Small cart fee", 15.0, "fee"),
    ]
    assert result.to_pay == 160.5  # its own field, not repeated as a bill line
    assert result.message == "Cart updated"


def test_instamart_get_cart_keeps_the_amount_to_pay_exactly_as_reported() -> None:
    result = _parse("get_cart", "instamart_get_cart", "style")
    assert isinstance(result, CartResult)
    assert [i.name for i in result.items] == [
        "Amul Taaza Toned Fresh Milk",
        "Epigamia Greek Yogurt - Blueberry",
    ]
    assert result.items[0].line_total == 54.0  # 2 x 27 when the server gives no line total
    labels = [(b.label, b.amount, b.kind) for b in result.bill]
    assert ("Discount", -10.0, "discount") in labels
    assert ("Item Total", 106.5, "item_total") in labels
    # The lines add up to 150.50; the server says 150.49 and that is what is shown.
    assert result.to_pay == 150.49


def test_instamart_checkout_is_an_order() -> None:
    result = _parse("checkout", "instamart_checkout", "food")
    assert isinstance(result, OrderPlacedResult)
    assert (result.order_id, result.status, result.payment_method) == (
        "IM-2291038475",
        "PLACED",
        "COD",
    )
    assert result.amount == 150.49 and result.eta == "12 mins"


# --- Food (FeedMe `foodorder`) --------------------------------------------------------


def test_food_search_restaurants_with_info_nesting() -> None:
    result = _parse("search_restaurants", "food_search_restaurants", "foodorder")
    assert isinstance(result, RestaurantsResult)
    meghana, empire = result.items
    assert (meghana.restaurant_id, meghana.name) == ("23678", "Meghana Foods")
    assert meghana.cuisines == ["Biryani", "Andhra", "South Indian"]
    assert (meghana.rating, meghana.cost_for_two, meghana.delivery_time_minutes) == (4.5, 500.0, 32)
    assert meghana.locality == "Koramangala" and meghana.is_open is True
    assert meghana.image_url == CDN + "xqwpuhgnsaf18te7zvtv"
    assert meghana.offer == "20% OFF UPTO ₹50"
    # costForTwo "45000" is paise; availability.opened false means closed.
    assert (empire.cost_for_two, empire.rating, empire.is_open) == (450.0, 4.1, False)


def test_food_search_menu_prices_are_paise() -> None:
    result = _parse("search_menu", "food_search_menu", "foodorder", {"query": "biryani"})
    assert isinstance(result, ProductsResult)
    assert result.kind == "menu"
    chicken, paneer = result.items
    assert (chicken.menu_item_id, chicken.price, chicken.is_veg) == ("118830551", 349.0, False)
    assert (chicken.restaurant_id, chicken.restaurant_name) == ("23678", "Meghana Foods")
    assert chicken.image_url == CDN + "f3a9c1b6e7d2"
    assert (paneer.price, paneer.mrp, paneer.is_veg) == (269.0, 299.0, True)


def test_food_get_restaurant_menu_flattens_categories_and_card_info() -> None:
    result = _parse(
        "get_restaurant_menu", "food_get_restaurant_menu", "foodorder", {"restaurantId": "23678"}
    )
    assert isinstance(result, ProductsResult)
    assert result.kind == "menu"
    assert (result.restaurant_id, result.restaurant_name) == ("23678", "Meghana Foods")
    names = [(d.name, d.category, d.price) for d in result.items]
    assert names == [
        ("Chicken Dum Biryani", "Biryani", 349.0),
        ("Meghana Special Paneer Biryani", "Recommended", 319.0),
        ("Chilli Chicken", "Starters", 279.0),
    ]
    special = result.items[1]
    assert special.is_veg is True  # from itemAttribute.vegClassifier
    assert [(v.group, v.name, v.variant_id, v.extra_price) for v in special.variants] == [
        ("Quantity", "Half", "v1", 0.0),
        ("Quantity", "Full", "v2", 140.0),
    ]
    assert [(v.name, v.extra_price) for v in result.items[2].variants] == [("Medium", None)]


def test_food_update_food_cart() -> None:
    result = _parse("update_food_cart", "food_update_food_cart", "foodorder")
    assert isinstance(result, CartResult)
    assert (result.restaurant_id, result.restaurant_name) == ("23678", "Meghana Foods")
    assert [(i.menu_item_id, i.quantity, i.unit_price, i.line_total) for i in result.items] == [
        ("118830551", 2, 349.0, 698.0),
        ("118830590", 1, 279.0, 279.0),
    ]
    assert all(i.restaurant_id == "23678" for i in result.items)
    kinds = {b.label: b.kind for b in result.bill}
    assert kinds["Packaging charges"] == "fee" and kinds["Gst"] == "tax"
    assert result.to_pay == 1121.35


def test_food_get_food_cart_with_bill_lines() -> None:
    result = _parse("get_food_cart", "food_get_food_cart", "foodorder")
    assert isinstance(result, CartResult)
    assert result.restaurant_name == "Meghana Foods"
    assert [i.name for i in result.items] == ["Chicken Dum Biryani", "Chilli Chicken"]
    assert [b.kind for b in result.bill] == ["item_total", "fee", "fee", "tax"]
    assert result.to_pay == 1121.35


def test_food_place_food_order() -> None:
    result = _parse("place_food_order", "food_place_food_order", "foodorder")
    assert isinstance(result, OrderPlacedResult)
    assert (result.order_id, result.status, result.amount) == ("171234598761", "CONFIRMED", 1121.35)
    assert result.eta == "35 mins" and result.message == "Order placed"


# --- Dineout (TableScout `dining`) ----------------------------------------------------


def test_dineout_get_saved_locations() -> None:
    result = _parse("get_saved_locations", "dineout_get_saved_locations", "dining")
    assert isinstance(result, AddressesResult)
    home, office = result.items
    assert (home.address_id, home.label, home.lat, home.lng) == ("loc-1", "Home", 12.9116, 77.6474)
    assert office.address == "Embassy Tech Village, Devarabeesanahalli, Bengaluru"


def test_dineout_search_restaurants() -> None:
    result = _parse("search_restaurants_dineout", "dineout_search_restaurants_dineout", "dining")
    assert isinstance(result, RestaurantsResult)
    toit, karavalli = result.items
    assert toit.cuisines == ["Pub Food", "Continental", "Pizza"]
    assert (toit.rating, toit.cost_for_two, toit.locality) == (4.6, 2000.0, "Indiranagar")
    assert toit.offer == "Flat 15% off on total bill"
    # Dineout reports rupees: ₹6000 for two stays ₹6000; a javascript: image is dropped.
    assert karavalli.cost_for_two == 6000.0 and karavalli.image_url is None
    assert result.next_offset == 10


def test_dineout_get_restaurant_details() -> None:
    result = _parse("get_restaurant_details", "dineout_get_restaurant_details", "dining")
    assert isinstance(result, RestaurantsResult)
    (toit,) = result.items
    assert (toit.restaurant_id, toit.name, toit.is_open) == ("DO-5521", "Toit", True)
    assert toit.image_url == "http://127.0.0.1:8765/static/img/toit.svg"


def test_dineout_get_available_slots_grouped_by_date_requested_first() -> None:
    tool_input = {"restaurantId": "DO-5521", "date": "2026-05-01", "time": "20:00"}
    result = _parse("get_available_slots", "dineout_get_available_slots", "dining", tool_input)
    assert isinstance(result, TimeSlotsResult)
    assert [d.date for d in result.days] == ["2026-05-01", "2026-05-02"]
    first_day = result.days[0].slots
    assert first_day[0].slot_id == "SL-1-2000" and first_day[0].requested
    assert (first_day[0].item_id, first_day[0].time) == ("IT-1", "8:00 PM")
    assert first_day[0].reservation_time == 1777645800
    # nearest available next, unavailable last
    assert [s.slot_id for s in first_day] == ["SL-1-2000", "SL-1-1900", "SL-1-1930", "SL-1-2030"]
    assert [s.available for s in first_day] == [True, True, False, False]
    assert result.requested_available is True
    assert result.restaurant_id == "DO-5521" and result.requested_time == "20:00"
    # other days keep the server's order
    assert [s.time for s in result.days[1].slots] == ["7:00 PM", "7:30 PM"]


def test_dineout_slots_report_an_unavailable_requested_time() -> None:
    tool_input = {"restaurantId": "DO-5521", "date": "2026-05-01", "time": "7:30 PM"}
    result = _parse("get_available_slots", "dineout_get_available_slots", "dining", tool_input)
    assert isinstance(result, TimeSlotsResult)
    assert result.requested_available is False
    assert result.days[0].slots[0].available  # an available alternative comes first


def test_dineout_book_table_success() -> None:
    result = _parse("book_table", "dineout_book_table_success", "dining")
    assert isinstance(result, BookingConfirmedResult)
    assert (result.booking_id, result.status, result.guest_count) == ("BK-77120934", "CONFIRMED", 4)
    assert result.restaurant_name == "Toit" and result.date_time == "2026-05-01 20:00"


def test_dineout_book_table_failure_envelope() -> None:
    result = _parse("book_table", "dineout_book_table_failure", "dining")
    assert isinstance(result, StatusResult)
    assert result.success is False
    assert result.message == "Selected slot is no longer available"


def test_regression_unavailable_slot_is_never_booking_confirmed() -> None:
    """The original demo showed "booking confirmed" when the slot was unavailable."""
    result = _parse("book_table", "dineout_book_table_unavailable", "dining")
    assert isinstance(result, StatusResult)
    assert result.success is False
    assert "not available" in result.message
    assert result.code == "SLOT_UNAVAILABLE"
