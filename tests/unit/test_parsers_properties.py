"""Property tests: any JSON or text gives a valid result, fast, never an exception."""

from __future__ import annotations

import json
import math
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from swiggy_core.parsers import (
    CARD_KINDS,
    BookingConfirmedResult,
    OrderPlacedResult,
    StatusResult,
    parse_tool_result,
    parsed_result_adapter,
)
from swiggy_core.parsers.shapes import (
    ADDRESS_TEXT_KEYS,
    AVAILABILITY_KEYS,
    NAME_KEYS,
    PRODUCT_KEYS,
    STRONG_RESTAURANT_KEYS,
    TIME_KEYS,
)

TOOLS = [
    "search_products",
    "update_cart",
    "get_cart",
    "checkout",
    "get_addresses",
    "search_restaurants",
    "search_menu",
    "get_restaurant_menu",
    "update_food_cart",
    "get_food_cart",
    "place_food_order",
    "get_saved_locations",
    "search_restaurants_dineout",
    "get_restaurant_details",
    "get_available_slots",
    "book_table",
    "track_order",
]
# Keys the parsers look for, so generated payloads reach deep into every parser.
KEYS = sorted(
    {
        *NAME_KEYS,
        *PRODUCT_KEYS,
        *STRONG_RESTAURANT_KEYS,
        *TIME_KEYS,
        *AVAILABILITY_KEYS,
        *ADDRESS_TEXT_KEYS,
        *("success", "data", "message", "error", "items", "products", "restaurants", "cart"),
        *("slots", "date", "id", "card", "info", "itemCards", "billBreakdown", "toPay", "status"),
        *("bookingId", "orderId", "quantity", "lat", "lng", "label", "imageUrl", "variants"),
        *("cloudinaryImageId", "menu_item_id", "restaurantId", "categories", "title", "sla"),
    }
)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**20), max_value=10**20)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=30)
    | st.sampled_from(
        [
            "₹1,299",
            "19:30",
            "7 PM",
            "2026-05-01",
            "https://x.example/a.png",
            "javascript:alert(1)",
            "SOLD_OUT",
            "FAILED",
        ]
    )
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda children: (
        st.lists(children, max_size=6)
        | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=8), children, max_size=6)
    ),
    max_leaves=40,
)
VERTICALS = st.sampled_from(["food", "style", "dining", "foodorder", "unknown"])
TOOL_NAMES = st.sampled_from(TOOLS) | st.text(max_size=40)
FAST = settings(
    deadline=timedelta(seconds=3),  # a hang guard, not a speed target (see bench/)
    suppress_health_check=[HealthCheck.too_slow],
)


def _as_content(value: Any, form: int) -> Any:
    text = json.dumps(value)
    return [text, [{"type": "text", "text": text}], value, text[: len(text) // 2]][form]


def _check(result: Any) -> None:
    assert result.type in CARD_KINDS
    assert parsed_result_adapter.validate_python(result.model_dump()) == result
    _check_values(result.model_dump())


def _check_values(value: Any) -> None:
    """Every float is finite and every image URL is https or loopback http."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "image_url" and item is not None:
                parts = urlsplit(item)
                assert parts.scheme == "https" or (
                    parts.scheme == "http" and parts.hostname in ("127.0.0.1", "localhost", "::1")
                ), item
            _check_values(item)
    elif isinstance(value, list):
        for item in value:
            _check_values(item)
    elif isinstance(value, float):
        assert math.isfinite(value)


@FAST
@given(tool=TOOL_NAMES, value=JSON_VALUES, vertical=VERTICALS, form=st.integers(0, 3))
def test_any_json_gives_a_valid_result(tool: str, value: Any, vertical: str, form: int) -> None:
    _check(parse_tool_result(tool, _as_content(value, form), vertical))


@FAST
@given(tool=TOOL_NAMES, text=st.text(max_size=400), vertical=VERTICALS)
def test_any_text_gives_a_valid_result(tool: str, text: str, vertical: str) -> None:
    _check(parse_tool_result(tool, text, vertical))


@FAST
@given(
    tool=st.sampled_from(TOOLS),
    inner=JSON_VALUES,
    tool_input=st.dictionaries(st.sampled_from(KEYS), SCALARS, max_size=4),
)
def test_envelope_payloads_with_any_data(tool: str, inner: Any, tool_input: dict[str, Any]) -> None:
    content = json.dumps({"success": True, "data": inner, "message": "ok"})
    _check(parse_tool_result(tool, content, "foodorder", tool_input))


@FAST
@given(tool=st.sampled_from(TOOLS), inner=JSON_VALUES, error=SCALARS)
def test_failures_are_never_confirmations(tool: str, inner: Any, error: Any) -> None:
    failed = json.dumps({"success": False, "data": inner, "error": error})
    for result in (
        parse_tool_result(tool, failed, "dining"),
        parse_tool_result(tool, json.dumps(inner), "dining", is_error=True),
    ):
        assert isinstance(result, StatusResult) and result.success is False
        assert not isinstance(result, OrderPlacedResult | BookingConfirmedResult)


@settings(max_examples=examples(50), deadline=timedelta(seconds=2))
@given(value=JSON_VALUES)
def test_never_raises_on_non_json_content_objects(value: Any) -> None:
    for content in (object(), 3.5, None, b"bytes", {"content": value, "type": "mcp_tool_result"}):
        _check(parse_tool_result("get_cart", content, "food"))


@pytest.mark.timeout(120)  # a hang fails the test; speed itself is measured in bench/
def test_hostile_payloads_never_hang() -> None:
    deep_list = "[" * 200_000 + "]" * 200_000
    deep_dict = '{"data":' * 50_000 + "1" + "}" * 50_000
    wide = json.dumps({"data": {"items": [{"k": i} for i in range(200_000)]}})
    brackets = "{" * 100_000
    numbers = "1," * 500_000
    html = "<html><title>" + "x" * 1_000_000
    for text in (deep_list, deep_dict, wide, brackets, numbers, html):
        for tool in ("search_products", "get_cart", "book_table", "mystery"):
            _check(parse_tool_result(tool, text, "foodorder"))
