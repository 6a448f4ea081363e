"""Cart snapshots: items found at three nesting levels plus the server's bill."""

from __future__ import annotations

from typing import Any

from swiggy_core.constants import PARSER_MAX_ITEMS
from swiggy_core.parsers._values import Keys, as_dict, first, pick, to_id, to_str
from swiggy_core.parsers.bill import BILL_KEYS, find_to_pay, looks_like_bill_list, parse_bill
from swiggy_core.parsers.cart_lines import (
    fix_charged_line_totals,
    fix_paise_lines,
    only_charged,
    read_line,
)
from swiggy_core.parsers.cart_notices import coupon_line, notices, payment_methods
from swiggy_core.parsers.checkout_results import CartResult

ITEM_KEYS = (
    "items",
    "cartItems",
    "cart_items",
    "cartMenuItems",
    "menuItems",
    "products",
    "lines",
    "lineItems",
    "line_items",
)
_NEST_KEYS = ("cart", "data", "result", "cartDetails", "cart_details")
_NEST_LEVELS = 3
_ITEM_KEY_SET = frozenset(ITEM_KEYS)
_BILL_KEY_SET = frozenset(BILL_KEYS)
_TO_PAY_KEYS = Keys("toPay", "to_pay")


def parse_cart(payload: Any) -> CartResult | None:
    """The cart in a payload (items and/or bill), or None when there is no cart."""
    outer = as_dict(payload) or {}
    node = _cart_node(payload)
    if node is None:
        return _absent_cart(outer)
    restaurant_id, restaurant_name = _restaurant(node, outer)
    items_source = _items_source(node)
    lines = [read_line(entry, restaurant_id, restaurant_name) for entry in items_source]
    charged = [only_charged(entry) for entry in items_source]
    kept = [
        (line, c) for line, c in zip(lines, charged, strict=True) if line and line["quantity"] > 0
    ]
    items = [line for line, _ in kept]
    bill_source = _bill_source(node)
    bill = parse_bill(bill_source) + coupon_line(node)
    to_pay = find_to_pay(node, bill_source, bill)
    # The amount to pay is its own field; a bill line repeating it would show twice.
    bill = [b for b in bill if not (b.kind == "total" and b.amount == to_pay)]
    fix_paise_lines(items, bill)
    fix_charged_line_totals([line for line, only in kept if only], items, bill)
    # Lines are plain fields until here: the result and all its lines validate once.
    return CartResult.model_validate(
        {
            "items": items[:PARSER_MAX_ITEMS],
            "bill": bill,
            "to_pay": to_pay,
            "restaurant_id": restaurant_id,
            "restaurant_name": restaurant_name,
            "message": to_str(node.get("message"), 500) or _absent_reason(node),
            "notices": notices(node, outer),
            "payment_methods": payment_methods(node, outer),
        }
    )


def _absent_cart(outer: dict[str, Any]) -> CartResult | None:
    """Instamart's `cartAbsent`: no cart at all, which is an empty cart."""
    inner = as_dict(outer.get("data")) or outer
    if inner.get("cartAbsent") is not True:
        return None
    return CartResult(message=_absent_reason(inner) or "Your cart is empty.")


def _absent_reason(node: dict[str, Any]) -> str | None:
    return to_str(node.get("cartAbsentReason"), 300) if node.get("cartAbsent") is True else None


def _cart_node(payload: Any) -> dict[str, Any] | None:
    """The first dict, up to three levels down, that holds items or a bill."""
    node = as_dict(payload)
    for _ in range(_NEST_LEVELS + 1):
        if node is None:
            return None
        if _holds_cart(node):
            return node
        node = next((as_dict(node[k]) for k in _NEST_KEYS if as_dict(node.get(k))), None)
    return None


def _holds_cart(node: dict[str, Any]) -> bool:
    keys = node.keys()
    if not keys.isdisjoint(_BILL_KEY_SET) or node.get("cartAbsent") is True:
        return True
    if not keys.isdisjoint(_ITEM_KEY_SET) and any(isinstance(node.get(k), list) for k in ITEM_KEYS):
        return True
    return first(node, _TO_PAY_KEYS) is not None


def _items_source(node: dict[str, Any]) -> list[dict[str, Any]]:
    if node.keys().isdisjoint(_ITEM_KEY_SET):
        return []
    for key in ITEM_KEYS:
        value = node.get(key)
        if isinstance(value, list) and not looks_like_bill_list(value):
            return [entry for entry in value[: PARSER_MAX_ITEMS * 2] if isinstance(entry, dict)]
    return []


def _bill_source(node: dict[str, Any]) -> Any:
    if node.keys().isdisjoint(_BILL_KEY_SET):
        return None
    for key in BILL_KEYS:
        value = node.get(key)
        if isinstance(value, dict) or (value is not None and looks_like_bill_list(value)):
            return value
    return None


def _restaurant(node: dict[str, Any], outer: dict[str, Any]) -> tuple[str | None, str | None]:
    info = as_dict(node.get("restaurant")) or as_dict(outer.get("restaurant")) or {}
    restaurant_id = to_id(pick(node, "restaurantId", "restaurant_id")) or to_id(
        pick(info, "id", "restaurantId")
    )
    name = to_str(pick(node, "restaurantName", "restaurant_name")) or to_str(info.get("name"))
    return restaurant_id, name
