"""Order and booking confirmations; anything short of a clear success becomes a status.

The original demo showed "booking confirmed" for an unavailable slot: here a result is a
confirmation only with an id and without any failure signal. Swiggy's `book_table`
answers with an `orderId` (no `bookingId`): that id confirms a booking too, because
showing a booking that went through as failed invites a second, paid-for booking. A UPI
answer (`PENDING_PAYMENT`) is not placed yet and says so; a multi-store checkout that
placed some orders is an order, with what failed listed beside it.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from swiggy_core.constants import SWIGGY_TZ
from swiggy_core.parsers._values import (
    as_dict,
    as_list,
    money,
    pick,
    to_bool,
    to_float,
    to_id,
    to_int,
    to_str,
)
from swiggy_core.parsers.checkout_results import BookingConfirmedResult, OrderPlacedResult
from swiggy_core.parsers.plain_results import StatusResult
from swiggy_core.parsers.routing import is_booking_tool
from swiggy_core.parsers.unwrap import Envelope, error_text

_MIN_EPOCH, _MAX_EPOCH = 10**9, 10**11
_ORDER_ID_KEYS = ("orderId", "order_id", "orderID", "orderNumber", "order_number")
_BOOKING_ID_KEYS = (
    *("bookingId", "booking_id", "reservationId", "reservation_id", "confirmationId"),
    *("confirmation_id", "bookingReference", "booking_reference"),
)
_NESTED_KEYS = ("order", "booking", "reservation", "data", "result", "details")
_NESTED_KEY_SET = frozenset(_NESTED_KEYS)
_BOOKING_OR_ORDER_ID_KEYS = (*_BOOKING_ID_KEYS, *_ORDER_ID_KEYS)
_AMOUNT_KEYS = ("toPay", "amount", "totalAmount", "orderTotal", "billTotal", "cartTotal")
_ETA_KEYS = ("eta", "deliveryEta", "estimatedDelivery", "estimatedDeliveryTime", "deliveryTime")
_NEST_LEVELS = 3
_STATUS_KEYS = ("status", "orderStatus", "bookingStatus", "state")
_FAILURE_WORDS = (
    *("fail", "unavailable", "not available", "no longer available", "reject", "declin"),
    *("cancel", "error", "invalid", "sold out", "full", "expired", "denied", "unable"),
    *("could not", "couldn't", "not confirmed", "unsuccessful"),
)
# One scan for all the words (plain alternatives, no nesting: linear).
_FAILURE_RE = re.compile("|".join(map(re.escape, _FAILURE_WORDS)))
_MULTI_STORE_KEYS = frozenset({"orderCount", "successCount", "failureCount", "allSucceeded"})
_PENDING_WORDS = ("pending payment", "awaiting payment", "payment pending")
_PENDING_RE = re.compile("|".join(map(re.escape, _PENDING_WORDS)))
_UPI_KEYS = frozenset({"upiIntentUrl", "bridgeUrl", "isQrFlow"})
# The code of the card a UPI answer gives while the order waits for its payment.
PENDING_PAYMENT = "PENDING_PAYMENT"
_PENDING_MESSAGE = {
    True: "Payment pending: booking {id} is not confirmed until its payment completes. "
    "This app books free tables only; finish or drop the payment in Swiggy.",
    False: "Waiting for your UPI payment: order {id} is not placed until you have paid.",
}
_NO_ID_MESSAGE = {
    True: "No booking id came back, so the booking is not confirmed. Check the booking "
    "status before trying again.",
    False: "No order id came back, so the order is not confirmed. Check your orders before "
    "trying again.",
}


def parse_confirmation(
    tool_name: str, envelope: Envelope, payload: Any
) -> OrderPlacedResult | BookingConfirmedResult | StatusResult:
    """A confirmation card with an id, or a status carrying the failure text."""
    booking = is_booking_tool(tool_name)
    record = _record(payload)
    message = envelope.message or to_str(pick(record, "message", "msg", "displayMessage"), 1000)
    if envelope.ok is not False and not _MULTI_STORE_KEYS.isdisjoint(record):
        return _multi_store(record, message)
    status = to_str(pick(record, *_STATUS_KEYS), 60)
    failure = _failure(envelope, record, status, message)
    if failure is not None:
        return StatusResult(success=False, message=failure, code=status)
    ident = _ident(record, booking)
    if _pending_payment(record, status):
        text = _PENDING_MESSAGE[booking].format(id=ident or "")
        return StatusResult(success=False, message=text.replace("  ", " "), code=PENDING_PAYMENT)
    if ident is None:
        return StatusResult(success=False, message=message or _NO_ID_MESSAGE[booking], code=status)
    if booking:
        return _booking(record, ident, status, message)
    return _order(record, ident, status, message)


def _record(payload: Any) -> dict[str, Any]:
    """The payload merged with its nested order/booking dicts (inner values win)."""
    record = as_dict(payload) or {}
    merged = dict(record)
    for _ in range(_NEST_LEVELS):
        if _NESTED_KEY_SET.isdisjoint(record):
            break
        inner = next((as_dict(record[k]) for k in _NESTED_KEYS if as_dict(record.get(k))), None)
        if inner is None:
            break
        merged.update(inner)
        record = inner
    return merged


def _multi_store(record: dict[str, Any], message: str | None) -> OrderPlacedResult | StatusResult:
    """A checkout split into one order per store; some may have failed."""
    orders = [order for order in as_list(record.get("orders"))[:20] if as_dict(order)]
    placed: list[str] = []
    failures: list[str] = []
    for order in orders:
        order_id = to_id(pick(order, *_ORDER_ID_KEYS))
        status = to_str(pick(order, *_STATUS_KEYS), 60)
        error = error_text(order.get("error"))
        if order_id and not error and not (status and _says_failure(status)):
            placed.append(order_id)
        else:
            failures.append(error or (f"Status: {status}" if status else "Not placed"))
    if not placed:
        reasons = "; ".join(failures) or message or "no reason given"
        return StatusResult(success=False, message=f"No store order was placed: {reasons}")
    total = to_int(record.get("orderCount")) or len(orders)
    return OrderPlacedResult(
        order_id=placed[0],
        order_ids=placed,
        failures=failures,
        status=to_str(pick(as_dict(orders[0]) or {}, *_STATUS_KEYS), 60),
        message=f"{len(placed)} of {total} store orders placed.",
        amount=money(pick(record, "cartTotal", "totalAmount", "amount")),
        payment_method=to_str(pick(record, "paymentMethod", "payment_method"), 40),
    )


def _pending_payment(record: dict[str, Any], status: str | None) -> bool:
    """UPI answers: an order or booking that waits for a payment is not placed yet."""
    if status and _PENDING_RE.search(status.lower().replace("_", " ")):
        return True
    normalized = to_str(record.get("normalizedStatus"), 40)
    if "pending" in ((normalized or "").lower(), (_result_word(record) or "").lower()):
        return True
    return not _UPI_KEYS.isdisjoint(record) and to_bool(record.get("confirmed")) is not True


def _result_word(record: dict[str, Any]) -> str | None:
    """`confirm_order`'s `result`: "success", "failed" or "pending"."""
    value = record.get("result")
    return to_str(value, 40) if isinstance(value, str) else None


def _failure(
    envelope: Envelope, record: dict[str, Any], status: str | None, message: str | None
) -> str | None:
    error = envelope.error or error_text(record.get("error"))
    if envelope.ok is False or error or _explicit_false(record.get("success")):
        return error or message or "The request failed."
    result = _result_word(record)
    if result is not None and _says_failure(result):
        return message or f"The payment was not confirmed ({result})."
    if status is not None:
        return (message or f"Status: {status}") if _says_failure(status) else None
    if message is not None and _says_failure(message):
        return message
    return None


def _explicit_false(value: Any) -> bool:
    return value is False or (isinstance(value, str) and value.strip().lower() == "false")


def _says_failure(text: str) -> bool:
    return _FAILURE_RE.search(text[:500].lower().replace("_", " ")) is not None


def _ident(record: dict[str, Any], booking: bool) -> str | None:
    """The order id; for a booking its booking id, else the `orderId` Swiggy now returns."""
    keys = _BOOKING_OR_ORDER_ID_KEYS if booking else _ORDER_ID_KEYS
    return to_id(pick(record, *keys)) or to_id(record.get("id"))


def _order(
    record: dict[str, Any], order_id: str, status: str | None, message: str | None
) -> OrderPlacedResult:
    return OrderPlacedResult(
        order_id=order_id,
        status=status,
        message=message,
        amount=money(pick(record, *_AMOUNT_KEYS)),
        payment_method=to_str(pick(record, "paymentMethod", "payment_method", "paymentMode"), 40),
        eta=to_str(pick(record, *_ETA_KEYS), 60),
    )


def _booking(
    record: dict[str, Any], booking_id: str, status: str | None, message: str | None
) -> BookingConfirmedResult:
    restaurant = as_dict(record.get("restaurant")) or {}
    return BookingConfirmedResult(
        booking_id=booking_id,
        status=status,
        message=message,
        restaurant_name=to_str(record.get("restaurantName")) or to_str(restaurant.get("name")),
        date_time=_date_time(record),
        guest_count=to_int(pick(record, "guestCount", "guest_count", "guests", "partySize")),
    )


def _date_time(record: dict[str, Any]) -> str | None:
    value = pick(record, "reservationTime", "reservation_time", "dateTime", "slotTime", "time")
    epoch = to_float(value) if isinstance(value, int | float) else None
    if epoch is not None and _MIN_EPOCH <= epoch < _MAX_EPOCH:
        return datetime.fromtimestamp(epoch, tz=SWIGGY_TZ).strftime("%Y-%m-%d %H:%M")
    text = to_str(value, 60)
    date = to_str(pick(record, "reservationDate", "date"), 20)
    if text and date and date not in text:
        return f"{date} {text}"
    return text or date
