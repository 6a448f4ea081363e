"""Past orders as typed records: Instamart's `get_orders`, Food's `get_food_orders`.

These are the facts "Order again" starts from (see `swiggy_core.reorder`): what was
bought, how many, under which id, and, where the server says it, what one cost then.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from swiggy_core.parsers._values import as_dict, as_list, pick, to_float, to_id, to_int, to_str
from swiggy_core.parsers.unwrap import read_envelope

INSTAMART_ORDERS_TOOL = "get_orders"
INSTAMART_DETAILS_TOOL = "get_order_details"
FOOD_ORDERS_TOOL = "get_food_orders"
# The orders a list asks for: get_orders documents 20 as the recommended maximum.
ORDERS_ASKED = 10
_NAME_CHARS = 120


@dataclass(frozen=True)
class PastLine:
    """One line of a past order."""

    name: str
    quantity: int
    # Instamart: the pack it was bought as (`itemId`, a spinId); Food: the `menu_item_id`.
    item_id: str | None = None
    # What one unit cost then (Instamart's get_order_details), when the server says it.
    unit_price: float | None = None
    # Food: the `reorderMeta` item exactly as given (variants and add-ons included).
    cart_item: dict[str, Any] | None = None


@dataclass(frozen=True)
class PastOrder:
    """One past order: its lines, when, the total and where it came from."""

    order_id: str
    lines: tuple[PastLine, ...]
    placed: str | None = None
    total: float | None = None
    status: str | None = None
    # The store (Instamart) or restaurant (Food) it came from.
    shop_name: str | None = None
    restaurant_id: str | None = None
    active: bool = False
    # False when the server offers no way to order it again (Food without reorderMeta).
    reorderable: bool = True


def envelope_data(text: str) -> dict[str, Any]:
    """The `data` of a tool's JSON envelope ({} when it failed or is not JSON)."""
    try:
        payload = json.loads(text)
    except ValueError:
        return {}
    envelope = read_envelope(payload)
    if envelope.ok is False:
        return {}
    return as_dict(envelope.data) or {}


def instamart_orders(data: dict[str, Any]) -> list[PastOrder]:
    """get_orders' `orders`, newest first as listed."""
    orders = []
    for raw in as_list(data.get("orders")):
        record = as_dict(raw)
        order_id = to_id(pick(record, "orderId", "order_id")) if record else None
        if record is None or order_id is None:
            continue
        lines = tuple(
            PastLine(name, _quantity(item), item_id=to_id(item.get("itemId")))
            for item, name in _named(record.get("items"))
        )
        orders.append(
            PastOrder(
                order_id=order_id,
                lines=lines,
                placed=to_str(record.get("createdAt"), 40),
                total=to_float(record.get("totalAmount")),
                status=to_str(pick(record, "currentStatus", "status"), 40),
                shop_name=to_str(record.get("storeName"), _NAME_CHARS),
                active=record.get("isActive") is True,
            )
        )
    return orders


def food_orders(data: dict[str, Any]) -> list[PastOrder]:
    """get_food_orders' `orders`; the lines come from the order's `reorderMeta`."""
    orders = []
    for raw in as_list(data.get("orders")):
        record = as_dict(raw)
        order_id = to_id(record.get("orderId")) if record else None
        if record is None or order_id is None:
            continue
        items = _reorder_items(record)
        lines = tuple(
            PastLine(
                name=name,
                quantity=_quantity(item),
                item_id=to_id(pick(item, "menu_item_id", "item_id")),
                cart_item=item,
            )
            for item, name in _named(items)
        )
        orders.append(
            PastOrder(
                order_id=order_id,
                lines=lines or _ordered_text(record.get("orderedItems")),
                placed=to_str(record.get("orderedTime"), 40),
                total=to_float(record.get("orderTotal")),
                status=to_str(record.get("orderStatus"), 40),
                shop_name=to_str(record.get("restaurantName"), _NAME_CHARS),
                restaurant_id=to_id(record.get("restaurantId")),
                active=record.get("isActiveOrder") is True,
                reorderable=bool(items),
            )
        )
    return orders


def with_paid_prices(order: PastOrder, details: dict[str, Any]) -> PastOrder:
    """The order with each line's unit price then, from get_order_details' `items`
    (`finalPrice` is the line's total; a removed line says nothing about its price)."""
    paid = [as_dict(item) or {} for item in as_list(details.get("items"))]
    if len(paid) != len(order.lines):
        return order
    lines = []
    for line, item in zip(order.lines, paid, strict=True):
        total = to_float(pick(item, "finalPrice", "final_price"))
        quantity = to_int(item.get("quantity")) or line.quantity
        if total is None or quantity <= 0 or item.get("removed") is True:
            lines.append(line)
        else:
            lines.append(replace(line, unit_price=round(total / quantity, 2)))
    return replace(order, lines=tuple(lines))


def _reorder_items(record: dict[str, Any]) -> list[Any]:
    """The first action's `reorderMeta.orderItems` (Food's documented way to reorder)."""
    for action in as_list(record.get("actions")):
        meta = as_dict((as_dict(action) or {}).get("reorderMeta"))
        if meta is not None and as_list(meta.get("orderItems")):
            return as_list(meta.get("orderItems"))
    return []


def _quantity(item: dict[str, Any]) -> int:
    return max(1, to_int(item.get("quantity")) or 1)


def _named(items: Any) -> list[tuple[dict[str, Any], str]]:
    """The items that are records with a name, each with its name."""
    named = []
    for raw in as_list(items):
        item = as_dict(raw)
        name = to_str(item.get("name"), _NAME_CHARS) if item else None
        if item is not None and name:
            named.append((item, name))
    return named


def _ordered_text(text: Any) -> tuple[PastLine, ...]:
    """Food's `orderedItems` text ("2 x Paneer Tikka, 1 x Naan"), shown when no
    reorderMeta came (the lines are then for reading only)."""
    lines = []
    for part in (to_str(text, 400) or "").split(","):
        count, sep, name = part.strip().partition(" x ")
        quantity = to_int(count) if sep else None
        label = name.strip() if quantity else part.strip()
        if label:
            lines.append(PastLine(name=label[:_NAME_CHARS], quantity=quantity or 1))
    return tuple(lines)
