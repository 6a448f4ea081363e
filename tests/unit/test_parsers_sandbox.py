"""Results captured from the offline sandbox servers parse into the cards they should."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from swiggy_core.cart import derive_cart
from swiggy_core.models import ChatMessage, McpToolResultBlock, McpToolUseBlock, TextContent
from swiggy_core.parsers import (
    BookingConfirmedResult,
    CartResult,
    InfoResult,
    ProductsResult,
    RestaurantsResult,
    TimeSlotsResult,
    parse_tool_result,
)

FIXTURES = Path(__file__).parents[1] / "fixtures" / "payloads"
SANDBOX_IMAGES = "http://127.0.0.1:8765/img/"


def _captured(name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / f"sandbox_{name}.json").read_text())


def _parse(name: str, vertical: str) -> Any:
    captured = _captured(name)
    content = [{"type": "text", "text": json.dumps(captured["result"])}]
    return parse_tool_result(captured["tool"], content, vertical, captured["input"])


def test_sandbox_search_products() -> None:
    result = _parse("instamart_search_products", "food")
    assert isinstance(result, ProductsResult) and result.kind == "grocery"
    milk = result.items[0]
    assert milk.spin_id and milk.sku_id and milk.product_id and milk.price
    assert milk.image_url and milk.image_url.startswith(SANDBOX_IMAGES)
    assert result.next_offset == 10


def test_sandbox_update_cart() -> None:
    result = _parse("instamart_update_cart", "food")
    assert isinstance(result, CartResult)
    assert [(i.name, i.quantity, i.line_total) for i in result.items] == [
        ("Amul Taaza Toned Milk", 2, 54.0)
    ]
    assert [b.label for b in result.bill] == [
        "Item Total",
        "Delivery Fee",
        "Handling Fee",
        "Small Cart Fee",
    ]
    assert result.to_pay == 113.0


def test_sandbox_food_restaurants_menu_and_cart() -> None:
    restaurants = _parse("food_search_restaurants", "foodorder")
    assert isinstance(restaurants, RestaurantsResult)
    assert all(r.cost_for_two and r.cost_for_two < 2_000 for r in restaurants.items)
    menu = _parse("food_get_restaurant_menu", "foodorder")
    assert isinstance(menu, ProductsResult) and menu.kind == "menu"
    assert menu.restaurant_id == "397693"
    assert all(d.price and d.price < 1_000 for d in menu.items)  # paise became rupees
    assert any(d.variants for d in menu.items)
    cart = _parse("food_get_food_cart", "foodorder")
    assert isinstance(cart, CartResult)
    assert (cart.restaurant_name, cart.to_pay) == ("Paradise Biryani", 988.4)
    assert cart.items[0].unit_price == 454.0


def test_sandbox_slots_booking_and_status() -> None:
    slots = _parse("dineout_get_available_slots", "dining")
    assert isinstance(slots, TimeSlotsResult)
    assert [d.date for d in slots.days] == ["2026-11-24", "2026-11-25"]
    first = slots.days[0].slots[0]
    assert (first.time, first.item_id) == ("7:00 PM", "656137-1371")
    booking = _parse("dineout_book_table", "dining")
    assert isinstance(booking, BookingConfirmedResult) and booking.booking_id == "DO5520001"
    assert isinstance(_parse("dineout_get_booking_status", "dining"), InfoResult)
    assert isinstance(_parse("food_get_food_order_details", "foodorder"), InfoResult)


def test_sandbox_cart_derivation() -> None:
    captured = _captured("instamart_update_cart")
    message = ChatMessage(
        role="assistant",
        content=[
            McpToolUseBlock(id="u1", name="update_cart", server_name="x", input=captured["input"]),
            McpToolResultBlock(
                tool_use_id="u1", content=[TextContent(text=json.dumps(captured["result"]))]
            ),
        ],
    )
    state = derive_cart([message], "food")
    assert [(i.spin_id, i.quantity) for i in state.items] == [("SPN4B97DDF8", 2)]
    assert state.to_pay == 113.0
