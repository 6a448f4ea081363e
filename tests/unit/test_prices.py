"""Negative, non-finite and absurd prices never show as numbers, and never raise."""

from __future__ import annotations

import json
import math

import pytest

from swiggy_core.constants import MAX_RUPEES
from swiggy_core.formatting import PRICE_UNKNOWN
from swiggy_core.parsers import CartResult, ProductsResult, parse_tool_result
from swiggy_core.parsers._values import money
from swiggy_ui.cards.products import price_line


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (249, 249.0),
        ("₹1,249.50", 1249.5),
        ({"offerPrice": 80}, 80.0),
        (-40, -40.0),  # a bill's discount line
        (MAX_RUPEES, float(MAX_RUPEES)),
        (MAX_RUPEES + 1, None),
        (-(MAX_RUPEES + 1), None),
        ("₹99,99,99,999", None),
        (1e300, None),
        (10**50, None),
        (math.nan, None),
        (math.inf, None),
        ("NaN", None),
        (True, None),
        ({"value": {"amount": 1}}, None),
    ],
)
def test_money_refuses_absurd_and_non_finite_amounts(value, expected):
    assert money(value) == expected


def test_paise_are_checked_after_scaling():
    assert money(150_000_000, scale=100) is None  # ₹15,00,000
    assert money(24_900, scale=100) == 249.0


@pytest.mark.parametrize(
    ("price", "mrp", "text"),
    [
        (80, 100, "**₹80** ~~₹100~~ · :green[20% off]"),
        (80, None, "**₹80**"),
        (None, None, f"_{PRICE_UNKNOWN}_"),
        (-30, 40, f"_{PRICE_UNKNOWN}_"),
        (math.nan, 40, f"_{PRICE_UNKNOWN}_"),
        (math.inf, None, f"_{PRICE_UNKNOWN}_"),
        (9e9, 9e9, f"_{PRICE_UNKNOWN}_"),
        (80, 9e9, "**₹80**"),  # an absurd MRP is not shown as a discount
        (80, math.nan, "**₹80**"),
    ],
)
def test_price_line(price, mrp, text):
    assert price_line(price, mrp) == text


def _product(name: str, price: object, mrp: object = None) -> dict:
    offer = {"offerPrice": price} if mrp is None else {"offerPrice": price, "mrp": mrp}
    return {
        "displayName": name,
        "productId": name,
        "variations": [{"spinId": name, "price": offer}],
    }


def test_product_cards_from_bad_prices_read_price_unknown():
    payload = {
        "success": True,
        "data": {
            "products": [
                _product("nan", math.nan),
                _product("negative", -30),
                _product("huge", 5e7),
                _product("huge-mrp", 5e7, 9e9),
                _product("inf", math.inf),
                _product("fine", 54, 56),
            ]
        },
    }
    # json.dumps writes NaN and Infinity, which json.loads (and the parser) accept.
    result = parse_tool_result("search_products", json.dumps(payload), "food")
    assert isinstance(result, ProductsResult)
    lines = {item.name: price_line(item.price, item.mrp) for item in result.items}
    assert lines.pop("fine") == "**₹54** ~~₹56~~ · :green[4% off]"
    assert set(lines.values()) == {f"_{PRICE_UNKNOWN}_"}, lines


def test_cart_with_absurd_amounts_parses_without_them():
    payload = {
        "success": True,
        "data": {
            "items": [
                {"name": "Milk", "quantity": 1, "price": 5e12, "totalPrice": math.nan},
            ],
            "billBreakdown": {
                "lineItems": [
                    {"label": "Item Total", "value": 5e12},
                    {"label": "Coupon Discount", "value": -40},
                ],
                "toPay": math.inf,
            },
        },
    }
    result = parse_tool_result("get_cart", json.dumps(payload), "food")
    assert isinstance(result, CartResult)
    assert [(line.label, line.amount) for line in result.bill] == [("Coupon Discount", -40.0)]
    assert result.to_pay is None
    assert all(line.line_total is None or line.line_total <= MAX_RUPEES for line in result.items)
