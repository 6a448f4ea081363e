"""Past and active orders and bookings as titled facts: lists, details, tracking, status.

These are records to read, never a cart or a confirmation: a placed order's lines and
bill show as facts with the server's own amounts.
"""

from __future__ import annotations

from typing import Any

from swiggy_core.parsers._values import as_dict, as_list, pick, to_float, to_id, to_int, to_str
from swiggy_core.parsers.info_fields import (
    MAX_ENTRIES,
    amount,
    flagged_title,
    info,
    items_line,
    joined,
    status_words,
    yes_no,
)
from swiggy_core.parsers.plain_results import InfoResult

_LIST_MARKERS = frozenset(
    {"totalAmount", "orderTotal", "restaurantName", "storeName", "itemCount", "orderedItems"}
)
_TRACK_MARKERS = frozenset({"etaText", "progressPercentage", "subtitle"})
_BOOKING_MARKERS = frozenset({"canCancel", "reservationDate", "dealTitle", "cancelledAt"})
# Every reader below needs one of these keys: without them no reader is asked.
_GATE_KEYS = frozenset({"orders", "order", "orderId", "order_id"})


def read_order_record(tool_name: str, payload: Any) -> InfoResult | None:
    """An order or booking record of a documented shape, else None."""
    record = as_dict(payload)
    if record is None or _GATE_KEYS.isdisjoint(record):
        return None
    orders = [o for o in as_list(record.get("orders"))[:MAX_ENTRIES] if as_dict(o)]
    if orders and _has_id(orders[0]):
        if orders[0].keys() & _TRACK_MARKERS or "track" in tool_name.lower():
            return _tracked_orders(orders, record)
        if orders[0].keys() & _LIST_MARKERS:
            return _order_list(orders)
    for reader in (_food_order_details, _order_details, _tracking, _delivery, _booking):
        result = reader(record)
        if result is not None:
            return result
    return None


def _has_id(record: dict[str, Any]) -> bool:
    return to_id(pick(record, "orderId", "order_id")) is not None


def _order_list(orders: list[dict[str, Any]]) -> InfoResult | None:
    fields: dict[str, str | None] = {}
    for order in orders:
        order_id = to_id(pick(order, "orderId", "order_id"))
        fields[f"Order {order_id}"] = joined(
            to_str(order.get("restaurantName"), 80),
            status_words(pick(order, "status", "orderStatus", "currentStatus")),
            to_str(order.get("statusMessage"), 80) if order.get("isActive") else None,
            amount(pick(order, "totalAmount", "orderTotal")),
            _count(order.get("itemCount")),
            to_str(order.get("orderedItems"), 160),
            to_str(order.get("storeName"), 80),
            _moment(pick(order, "createdAt", "orderedTime")),
        )
    return info("Your orders", fields)


def _count(value: Any) -> str | None:
    count = to_int(value)
    return None if count is None else f"{count} item{'s' if count != 1 else ''}"


def _moment(value: Any) -> str | None:
    """ "2026-11-20T09:12:00+05:30" → "2026-11-20 09:12"; other text as given."""
    text = to_str(value, 40)
    if text and len(text) >= 16 and text[10:11] in ("T", " "):
        return f"{text[:10]} {text[11:16]}"
    return text


def _order_details(record: dict[str, Any]) -> InfoResult | None:
    """Instamart `get_order_details`: items with final prices and a string bill."""
    bill = as_dict(record.get("bill")) or {}
    if not _has_id(record) or not ("totalBill" in record or bill.get("lineItems")):
        return None
    fields: dict[str, str | None] = {
        "Items": items_line(record.get("items"), ("finalPrice", "final_price"))
    }
    for line in as_list(bill.get("lineItems"))[:MAX_ENTRIES]:
        entry = as_dict(line) or {}
        label = to_str(pick(entry, "name", "label"), 60)
        if label:
            fields[label] = amount(pick(entry, "amount", "value"), signed=True)
    fields["Total"] = amount(pick(bill, "grandTotal")) or amount(record.get("totalBill"))
    fields["Refunds"] = "yes" if record.get("hasRefunds") is True else None
    title = joined(f"Order {to_id(pick(record, 'orderId', 'order_id'))}", _status(record))
    return info(title, fields)


def _status(record: dict[str, Any]) -> str | None:
    return status_words(pick(record, "status", "orderStatus", "order_status"))


def _food_order_details(record: dict[str, Any]) -> InfoResult | None:
    """Food `get_food_order_details`: `{order: {order_id, order_items, charges, ...}}`."""
    order = as_dict(record.get("order"))
    if order is None or not ({"order_id", "order_items"} <= order.keys()):
        return None
    fields: dict[str, str | None] = {
        "Restaurant": to_str(order.get("restaurant_name"), 80),
        "Items": items_line(order.get("order_items"), ("final_price", "total")),
        "Item total": amount(order.get("item_total")),
    }
    for label, value in list((as_dict(order.get("charges")) or {}).items())[:MAX_ENTRIES]:
        fields[str(label)[:60]] = amount(value, signed=True)
    discount = amount(order.get("order_discount"))
    fields["Discount"] = f"-{discount}" if discount and discount != "₹0" else None
    fields["Total"] = amount(order.get("order_total"))
    fields["Payment"] = to_str(order.get("payment_method"), 40)
    fields["Placed"] = to_str(order.get("order_time"), 40)
    address = as_dict(order.get("delivery_address")) or {}
    fields["Deliver to"] = to_str(pick(address, "address", "address_line1"), 160)
    title = joined(f"Order {to_id(order.get('order_id'))}", _status(order))
    return info(title, fields)


def _tracking(record: dict[str, Any]) -> InfoResult | None:
    """Instamart `track_order`: a status object, ETA, store, address, items, payment."""
    status = as_dict(record.get("status"))
    if not _has_id(record) or status is None:
        return None
    store = as_dict(record.get("storeInfo")) or {}
    delivery = as_dict(record.get("deliveryInfo")) or {}
    payment = as_dict(record.get("paymentInfo")) or {}
    fields: dict[str, str | None] = {
        "Status": joined(
            to_str(status.get("statusMessage"), 80), to_str(status.get("subStatusMessage"), 80)
        ),
        "Arriving in": to_str(status.get("etaText"), 40) or _minutes(status.get("etaMinutes")),
        "Update": to_str(record.get("orderSubtitle"), 120),
        "Store": to_str(store.get("name"), 80),
        "Deliver to": joined(
            to_str(delivery.get("addressLabel"), 40), to_str(delivery.get("fullAddress"), 160)
        ),
        "Items": items_line(record.get("items"), ("price",)),
        "Payment": joined(to_str(payment.get("message"), 80), amount(payment.get("amount"))),
    }
    title = to_str(record.get("orderTitle"), 80) or f"Order {to_id(record.get('orderId'))}"
    return info(title, fields)


def _minutes(value: Any) -> str | None:
    minutes = to_int(value)
    return None if minutes is None else f"{minutes} mins"


def _tracked_orders(orders: list[dict[str, Any]], record: dict[str, Any]) -> InfoResult | None:
    """Food `track_food_order`: active orders with their progress."""
    fields: dict[str, str | None] = {}
    for order in orders:
        key = to_str(order.get("title"), 80) or f"Order {to_id(pick(order, 'orderId'))}"
        fields[key] = joined(
            status_words(pick(order, "orderStatus", "status")),
            to_str(order.get("subtitle"), 120),
            to_str(order.get("etaText"), 60),
        )
    return info(to_str(record.get("statusMessage"), 80) or "Order status", fields)


def _delivery(record: dict[str, Any]) -> InfoResult | None:
    """Food `get_food_delivery_status`: delivered, cancelled, or the time left."""
    if not _has_id(record) or not record.keys() & {"deliveryBy", "pollIntervalSec"}:
        return None
    title = (
        flagged_title(record, {"delivered": "Delivered", "cancelled": "Cancelled"})
        or to_str(record.get("statusText"), 80)
        or "On its way"
    )
    arriving = to_str(record.get("etaText"), 40) or _time_left(record)
    return info(title, {"Order": to_id(record.get("orderId")), "Arriving in": arriving})


def _time_left(record: dict[str, Any]) -> str | None:
    # Epoch milliseconds: far above what `to_int` accepts as a count.
    due, now = to_float(record.get("deliveryBy")), to_float(record.get("serverNow"))
    if due is None or now is None or due < now:
        return None
    return f"{round((due - now) / 60_000)} mins"


def _when(record: dict[str, Any]) -> str | None:
    parts = (to_str(record.get(key), 20) for key in ("reservationDate", "reservationTime"))
    return " ".join(part for part in parts if part) or None


def _booking(record: dict[str, Any]) -> InfoResult | None:
    """Dineout `get_booking_status` and `cancel_booking` (an `orderId` is the booking)."""
    if not _has_id(record) or not record.keys() & _BOOKING_MARKERS:
        return None
    fields: dict[str, str | None] = {
        "Restaurant": to_str(record.get("restaurantName"), 80),
        "When": _when(record),
        "Guests": to_str(record.get("guestCount")),
        "Deal": to_str(record.get("dealTitle"), 120),
        "Can cancel": yes_no(record.get("canCancel")),
        "Cancelled at": _moment(record.get("cancelledAt")),
    }
    title = joined(f"Booking {to_id(record.get('orderId'))}", _status(record))
    return info(title, fields)


# Shared with the tracking card's reader (`order_tracking`): the same words for the same facts.
minutes_text = _minutes
time_left_text = _time_left
