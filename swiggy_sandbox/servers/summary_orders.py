"""Summary text for what was done or booked: confirmations, order lists, coupons, venues."""

from __future__ import annotations

from swiggy_sandbox.servers.summary_format import (
    Record,
    child,
    field,
    first,
    line,
    numbered,
    records,
    rupees,
)
from swiggy_sandbox.servers.summary_shop import restaurant_line

_ID_KEYS = ("bookingId", "orderId", "order_id")
_BOOKING_KEYS = ("bookingId", "isDineout", "guestCount", "reservationDate")
_MAX_FACTS = 8


def confirmation(record: Record) -> str | None:
    """One sentence with the order or booking id: `Order IM410001 is CONFIRMED from …`."""
    order_id = first(record, *_ID_KEYS)
    if order_id is None or "orders" in record or "bookings" in record:
        return None
    booking = first(record, *_BOOKING_KEYS) is not None
    status = first(record, "status", "orderStatus", "result")
    state = f"is {status}" if status else ""
    if isinstance(status, dict):  # tracking: a sentence of its own
        status = first(status, "statusMessage", "etaText")
        state = f"· {status}" if status else ""
    where = child(record, "restaurant").get("name") or first(
        record, "restaurantName", "restaurant_name", "storeName"
    )
    words = [f"{'Booking' if booking else 'Order'} {order_id}", state]
    if where:
        words.append(f"at {where}" if booking else f"from {where}")
    if booking:
        guests = record.get("guestCount")
        day = first(record, "dateStr", "reservationDate")
        when = " ".join(str(part) for part in (day, record.get("time")) if part)
        words += [f"for {guests}" if guests else "", f"on {when}" if when else ""]
    sentence = " ".join(word for word in words if word) + "."
    extras = _order_extras(record)
    return f"{sentence} {extras}" if extras else sentence


def _order_extras(record: Record) -> str:
    parts = []
    method = str(record.get("paymentMethod") or "").upper()
    if method in ("COD", "CASH"):
        parts.append("Cash on delivery")
    elif method:
        parts.append(f"Payment: {method}")
    total = rupees(first(record, "toPay", "cartTotal", "totalAmount", "totalBill", "order_total"))
    if total:
        parts.append(f"total {total}")
    eta = first(record, "etaText", "etaMinutes")
    if eta is not None:
        parts.append(f"ETA {eta} min" if isinstance(eta, int | float) else f"ETA {eta}")
    text = ", ".join(parts)
    return f"{text[:1].upper()}{text[1:]}." if text else ""


def orders(record: Record) -> str | None:
    """`N. Order 123 — DELIVERED | Meghana Foods | ₹586.9 (ID: 123)`; bookings alike."""
    if "orders" not in record and "bookings" not in record:
        return None
    rows = []
    for i, order in enumerate(records(first(record, "orders", "bookings")), 1):
        order_id = first(order, *_ID_KEYS)
        where = child(order, "restaurant").get("name")
        details = [
            first(order, "status", "orderStatus", "currentStatus"),
            first(order, "error", "title"),
            where or first(order, "restaurantName", "storeName"),
            " ".join(str(v) for v in (order.get("dateStr"), order.get("time")) if v),
            rupees(first(order, "toPay", "totalAmount", "orderTotal")),
        ]
        name = f"Order {order_id}" if order_id is not None else "Order"
        rows.append(line(i, name, details, [("ID", order_id)]))
    return numbered(rows) or "Nothing here yet."


def coupons(record: Record) -> str | None:
    """`N. CODE — description | applicable (ID: CODE)`."""
    found = records(first(record, "coupons", "availableCoupons"))
    for section in records(record.get("coupon_sections")):
        found += records(section.get("coupons"))
    if not found:
        return None
    rows = []
    for i, coupon in enumerate(found, 1):
        code = first(coupon, "couponCode", "code", "id")
        usable = first(coupon, "isApplicable", "applicable")
        state = None if usable is None else "applicable" if usable else "not applicable"
        rows.append(line(i, code, [first(coupon, "description", "title"), state], [("ID", code)]))
    return numbered(rows)


def venue(record: Record) -> str | None:
    """A restaurant's details: its line, then one `Deal:` line per deal (free or paid)."""
    place = child(record, "restaurant") or record
    if not place.get("name") or first(place, "deals", "timings") is None:
        return None
    rows = [restaurant_line(1, place)]
    for deal in records(place.get("deals")):
        kind = deal_kind(deal) or first(deal, "offerCategory")
        title = field(first(deal, "title", "description"))
        rows.append(f"Deal: {title} ({kind})" if kind else f"Deal: {title}")
    return "\n".join(rows)


def deal_kind(deal: Record) -> str | None:
    """ "free", "paid ₹200", or None when the deal does not say (never assumed free)."""
    price = deal.get("bookingPrice")
    paid = isinstance(price, int | float) and price > 0
    if deal.get("isFree") is True and not paid:
        return "free"
    if paid or deal.get("isFree") is False:
        return f"paid {rupees(price) or ''}".strip()
    return None


def facts(record: Record) -> str | None:
    """Anything else: its plain fields as `key: value`, and payment methods as lines."""
    methods = records(record.get("allMethods"))
    rows = [
        line(
            i,
            first(m, "displayName", "id"),
            [m.get("groupName"), m.get("kind")],
            [("ID", m.get("id"))],
        )
        for i, m in enumerate(methods, 1)
    ]
    shown = [
        f"{key}: {', '.join(map(str, value)) if isinstance(value, list) else value}"
        for key, value in record.items()
        if isinstance(value, str | int | float)
        or (isinstance(value, list) and value and all(isinstance(v, str) for v in value))
    ]
    text = "\n".join([" · ".join(shown[:_MAX_FACTS]), *rows]).strip()
    return text or None
