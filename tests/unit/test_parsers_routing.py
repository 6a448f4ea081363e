"""Routing on meaning: tool-name patterns, payload signals, shape detection, FeedMe."""

from __future__ import annotations

import json

import pytest

from swiggy_core.parsers import (
    AddressesResult,
    CartResult,
    InfoResult,
    ProductsResult,
    RestaurantsResult,
    StatusResult,
    TimeSlotsResult,
    parse_tool_result,
)
from swiggy_core.parsers.routing import (
    PayloadSignals,
    Route,
    is_add_tool,
    is_clear_tool,
    is_read_tool,
    prefer_products_for_food,
    route_for,
    scan_signals,
)

RESTAURANTS = {
    "restaurants": [
        {
            "id": "1",
            "name": "Truffles",
            "cuisines": ["Burgers"],
            "avgRating": 4.4,
            "sla": {"deliveryTime": 25},
        },
        {"id": "2", "name": "Nagarjuna", "cuisines": ["Andhra"], "costForTwo": "60000"},
    ]
}
DISHES = {
    "items": [
        {"id": "d1", "name": "Paneer Tikka", "price": 24900, "isVeg": 1},
        {"id": "d2", "name": "Chicken 65", "price": 27900, "isVeg": 0},
    ]
}


@pytest.mark.parametrize(
    ("tool", "route"),
    [
        ("search_products", Route.SEARCH),
        ("search_restaurants", Route.SEARCH),
        ("search_restaurants_dineout", Route.SEARCH),
        ("get_restaurant_menu", Route.SEARCH),
        ("get_restaurant_details", Route.SEARCH),
        ("your_go_to_items", Route.SEARCH),
        ("update_cart", Route.CART),
        ("get_food_cart", Route.CART),
        ("flush_food_cart", Route.CART),
        ("add_item", Route.CART),
        ("get_available_slots", Route.SLOTS),
        ("check_availability", Route.SLOTS),
        ("get_addresses", Route.ADDRESS),
        ("get_saved_locations", Route.ADDRESS),
        ("checkout", Route.CONFIRM),
        ("place_food_order", Route.CONFIRM),
        ("book_table", Route.CONFIRM),
        ("reserve_table", Route.CONFIRM),
        # reads about orders and bookings are not confirmations
        ("get_booking_status", Route.NONE),
        ("track_order", Route.NONE),
        ("get_food_orders", Route.NONE),
        ("cancel_booking", Route.NONE),
        ("fetch_food_coupons", Route.NONE),
        ("", Route.NONE),
    ],
)
def test_route_for_tool_names(tool: str, route: Route) -> None:
    assert route_for(tool) is route


def test_cart_tool_kinds() -> None:
    assert is_clear_tool("clear_cart") and is_clear_tool("flush_food_cart")
    assert not is_clear_tool("update_cart")
    assert is_read_tool("get_cart") and is_read_tool("getCart") and not is_read_tool("checkout")
    assert (
        is_add_tool("add_to_cart")
        and is_add_tool("cart_add_item")
        and not is_add_tool("update_cart")
    )


def test_route_for_is_fast_on_hostile_names() -> None:
    assert route_for("get_" + "a" * 100_000) is Route.NONE
    assert route_for(None) is Route.NONE  # type: ignore[arg-type]


def test_foodorder_restaurant_search_gives_restaurants() -> None:
    result = parse_tool_result("search_restaurants", json.dumps(RESTAURANTS), "foodorder")
    assert isinstance(result, RestaurantsResult)
    assert [r.name for r in result.items] == ["Truffles", "Nagarjuna"]
    assert result.items[1].cost_for_two == 600.0


def test_foodorder_menu_search_gives_dishes_even_under_a_restaurant_tool_name() -> None:
    result = parse_tool_result("search_restaurants", json.dumps(DISHES), "foodorder")
    assert isinstance(result, ProductsResult) and result.kind == "menu"
    assert [d.price for d in result.items] == [249.0, 279.0]


def test_foodorder_menu_tool_falls_back_to_restaurants() -> None:
    result = parse_tool_result("search_menu", json.dumps(RESTAURANTS), "foodorder")
    assert isinstance(result, RestaurantsResult)


def test_foodorder_weak_rating_only_records() -> None:
    weak = {"results": [{"id": "7", "name": "Chicken Biryani", "rating": 4.2}]}
    # A dish name under a non-discovery tool reads as a dish-like product list…
    signals = scan_signals(weak)
    assert signals.weak_restaurants == 1 and not signals.strong_restaurant
    assert prefer_products_for_food("search_menu", signals) is True
    # …while a restaurant discovery tool without dish hints keeps restaurants.
    plain = {"results": [{"id": "8", "name": "Corner House", "rating": 4.6}]}
    assert prefer_products_for_food("search_restaurants", scan_signals(plain)) is None
    result = parse_tool_result("search_restaurants", json.dumps(plain), "foodorder")
    assert isinstance(result, RestaurantsResult) and result.items[0].rating == 4.6


def test_prefer_products_for_food_rules() -> None:
    assert prefer_products_for_food("get_restaurant_menu", PayloadSignals()) is True
    assert prefer_products_for_food("search_restaurants", PayloadSignals(restaurants=2)) is False
    assert prefer_products_for_food("search_restaurants", PayloadSignals(products=2)) is True
    assert prefer_products_for_food("x", PayloadSignals(products=1, restaurants=3)) is False


def test_dining_prefers_restaurants_for_search() -> None:
    details = {
        "restaurant": {"id": "DO-1", "name": "Toit", "locality": "Indiranagar", "price": 2000}
    }
    result = parse_tool_result("get_restaurant_details", json.dumps(details), "dining")
    assert isinstance(result, RestaurantsResult) and result.items[0].restaurant_id == "DO-1"


def test_instamart_search_without_products_can_still_show_restaurants() -> None:
    result = parse_tool_result("search_products", json.dumps(RESTAURANTS), "food")
    assert isinstance(result, RestaurantsResult)


@pytest.mark.parametrize(
    ("payload", "kind"),
    [
        (DISHES, ProductsResult),
        (RESTAURANTS, RestaurantsResult),
        (
            {
                "slots": [
                    {"slotId": "s1", "time": "19:00", "available": True},
                    {"slotId": "s2", "time": "19:30", "available": False},
                ]
            },
            TimeSlotsResult,
        ),
        ({"addresses": [{"id": "a1", "address": "12 MG Road", "label": "Home"}]}, AddressesResult),
        (
            {
                "success": True,
                "message": "ok",
                "cart": {"items": [{"spinId": "S", "name": "Eggs", "quantity": 1}]},
            },
            CartResult,
        ),
        ({"billBreakdown": {"itemTotal": 10, "toPay": 12}}, CartResult),
        ({"orderId": "1", "eta": "10 min"}, InfoResult),
        ({"success": True}, StatusResult),
    ],
)
def test_shape_detection_for_unknown_tool_names(payload: dict[str, object], kind: type) -> None:
    result = parse_tool_result("mystery_tool_v2", json.dumps(payload), "food")
    assert isinstance(result, kind)


def test_apply_coupon_returning_a_cart_is_a_cart() -> None:
    payload = {
        "success": True,
        "data": {
            "cartItems": [{"menu_item_id": "m1", "name": "Dosa", "quantity": 1, "price": 90}],
            "bill": {"itemTotal": 90, "couponDiscount": -20, "toPay": 70},
        },
    }
    result = parse_tool_result("apply_food_coupon", json.dumps(payload), "foodorder")
    assert isinstance(result, CartResult)
    assert result.to_pay == 70 and result.bill[1].kind == "discount"


def test_signals_scan_is_bounded() -> None:
    huge = {"items": [{"name": f"Item {i}", "price": i} for i in range(50_000)]}
    signals = scan_signals(huge)
    assert 0 < signals.products < 2_000
