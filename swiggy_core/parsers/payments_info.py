"""Payment options and status, coupons, and Dineout payment carts as titled facts.

Orders are paid in cash on delivery or by UPI (chosen in the confirmation), tables are
booked free only: a pending payment is said to be not placed, and a paid prebook cart is
shown as not bookable here.
"""

from __future__ import annotations

from typing import Any

from swiggy_core.parsers._values import as_dict, as_list, money, pick, to_bool, to_id, to_str
from swiggy_core.parsers.info_fields import (
    MAX_ENTRIES,
    amount,
    flagged_title,
    info,
    joined,
    status_words,
    yes_no,
)
from swiggy_core.parsers.plain_results import InfoResult

_ONLINE_ONLY_WORDS = (
    *("upi", "online payment", "pay online", "prepaid", "credit card", "debit card"),
    "wallet",
)
_CASH_NOTE = "needs online payment: not usable with cash on delivery"
PAID_PREBOOK_TITLE = "Paid prebook — not bookable here"
# Every reader below (but the coupon tools' one) needs one of these keys.
_GATE_KEYS = frozenset(
    {"paasId", "cod", "allMethods", "availableCoupons", "coupon_sections", "cartKey", "cart"}
)


def read_payment_record(tool_name: str, payload: Any) -> InfoResult | None:
    """A payment, coupon or Dineout cart record of a documented shape, else None."""
    record = as_dict(payload)
    if record is None:
        return None
    coupon_tool = "coupon" in tool_name.lower()
    if not coupon_tool and _GATE_KEYS.isdisjoint(record):
        return None
    for reader in (_payment_status, _payment_options, _coupons, _food_coupons):
        result = reader(record)
        if result is not None:
            return result
    if coupon_tool:
        return _coupon_applied(record)
    return _dineout_cart(record)


def _payment_status(record: dict[str, Any]) -> InfoResult | None:
    """`check_payment_status`: one poll of a UPI payment."""
    if "paasId" not in record or not record.keys() & {"terminal", "isTerminalSuccess"}:
        return None
    title = flagged_title(
        record, {"isTerminalSuccess": "Payment successful", "isTerminalFailure": "Payment failed"}
    )
    return info(
        title or "Payment pending: not placed yet",
        {
            "Order": to_id(record.get("orderId")),
            "Status": status_words(record.get("status")),
            "Order status": status_words(record.get("orderStatus")),
            "Amount": amount(record.get("cartTotal")),
            "Confirmed": yes_no(record.get("confirmed")),
        },
    )


def _payment_options(record: dict[str, Any]) -> InfoResult | None:
    """`get_payment_options`: whether cash on delivery is offered, and what else is."""
    cod = as_dict(record.get("cod"))
    if cod is None and "allMethods" not in record:
        return None
    available = to_bool((cod or {}).get("available"))
    methods = [_method(m) for m in as_list(record.get("allMethods"))[:MAX_ENTRIES]]
    listed = ", ".join(m for m in methods if m)
    return info(
        "Payment options",
        {
            "Cash on delivery": "available" if available else "not available",
            "Amount": amount(record.get("paymentAmount")),
            "Other methods": listed or None,
        },
    )


def _method(value: Any) -> str | None:
    method = as_dict(value) or {}
    name = to_str(pick(method, "displayName", "id"), 40)
    if name is None:
        return None
    return f"{name} (disabled)" if to_bool(method.get("enabled")) is False else name


def _coupons(record: dict[str, Any]) -> InfoResult | None:
    """Instamart `list_coupons`: applicable coupons first."""
    if "availableCoupons" not in record:
        return None
    coupons = [as_dict(c) for c in as_list(record.get("availableCoupons"))[:MAX_ENTRIES]]
    entries = [c for c in coupons if c and to_str(c.get("couponCode"), 40)]
    entries.sort(key=lambda c: to_bool(c.get("isApplicable")) is False)
    fields = {
        to_str(c.get("couponCode"), 40) or "": _coupon_text(
            to_str(c.get("title"), 120),
            to_str(c.get("description"), 160),
            to_bool(c.get("isApplicable")) is not False,
            to_str(c.get("applicabilityMessage"), 120),
        )
        for c in entries
    }
    return info("Coupons", fields) or InfoResult(title="Coupons")


def _food_coupons(record: dict[str, Any]) -> InfoResult | None:
    """Food `fetch_food_coupons`: sections of coupons; online-only ones flagged for cash."""
    if "coupon_sections" not in record:
        return None
    fields: dict[str, str | None] = {}
    for section in as_list(record.get("coupon_sections"))[:MAX_ENTRIES]:
        for coupon in as_list((as_dict(section) or {}).get("coupons"))[:MAX_ENTRIES]:
            entry = as_dict(coupon) or {}
            code = to_str(pick(entry, "title", "id"), 40)
            if code is not None and code not in fields:
                online_only = _online_only(entry)
                fields[code] = _coupon_text(
                    to_str(entry.get("subtitle"), 120),
                    _CASH_NOTE if online_only else to_str(entry.get("description"), 160),
                    to_bool(entry.get("applicable")) is not False,
                    to_str(entry.get("description"), 120),
                )
    return info("Coupons", fields) or InfoResult(title="Coupons")


def _coupon_text(title: str | None, detail: str | None, applicable: bool, why: str | None) -> str:
    if applicable:
        return joined(title, detail)
    return joined(title, f"not applicable: {why}" if why else "not applicable")


def _online_only(coupon: dict[str, Any]) -> bool:
    text = " ".join(
        to_str(coupon.get(key), 200) or "" for key in ("title", "subtitle", "description")
    ).lower()
    return any(word in text for word in _ONLINE_ONLY_WORDS)


def _coupon_applied(record: dict[str, Any]) -> InfoResult | None:
    """`apply_food_coupon`: a zero discount means the coupon was only suggested."""
    inner = as_dict(record.get("data")) or record
    offers = as_dict(inner.get("offers"))
    pricing = as_dict(inner.get("pricing")) or {}
    if offers is None or "coupon_applied" not in offers or inner.get("items"):
        return None
    code = to_str(offers.get("coupon_applied"), 40)
    discount = money(pick(offers, "coupon_discount")) or money(pricing.get("coupon_discount"))
    if code and discount:
        title = f"Coupon {code} applied"
    elif code:
        title = f"Coupon {code} was not applied"
    else:
        title = "No coupon applied"
    fields: dict[str, str | None] = {}
    for key, value in list(pricing.items())[:MAX_ENTRIES]:
        label = str(key).replace("_", " ").capitalize()[:60]
        number = money(value)
        if number is not None and "discount" in label.lower():
            number = -abs(number)  # a discount takes away, whatever its sign in the data
        fields[label] = amount(number, signed=True)
    return info(title, fields)


def _dineout_cart(record: dict[str, Any]) -> InfoResult | None:
    """Dineout `create_cart`: a payment cart (paid prebook or bill payment)."""
    cart = as_dict(record.get("cart")) or {}
    if "cartKey" not in record and "cartKey" not in cart:
        return None
    bill = as_dict(cart.get("bill")) or {}
    pricing = as_dict(bill.get("dineoutPricingInfo")) or {}
    to_pay = pick(bill, "billToPay") or pick(pricing, "billToPay")
    return info(
        PAID_PREBOOK_TITLE,
        {
            "Amount": amount(to_pay),
            "Why": "This app books free tables and pays cash on delivery only.",
        },
    )
