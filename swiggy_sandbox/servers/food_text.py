"""Food results that are assembled at the server edge: messages, payment view, coupons."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from swiggy_core.formatting import rupees
from swiggy_sandbox.shop.common import amount_text
from swiggy_sandbox.shop.food_cart import CASH, CartState, FoodCart
from swiggy_sandbox.shop.food_rules import Coupon

CASH_ONLY = (
    "The sandbox supports cash on delivery only: UPI and other online payments are not "
    "available. Place the order with paymentMethod 'Cash'. No order was placed."
)
_CASH_SPELLINGS = frozenset({"cash", "cod", "cash on delivery", "cash_on_delivery"})
_CASH_METHOD = {
    "id": "COD",
    "groupName": "Cash",
    "displayName": "Cash on Delivery",
    "enabled": True,
}


def is_cash(method: str) -> bool:
    """True for "Cash" and its usual spellings ("COD", "Cash on delivery")."""
    return method.strip().lower() in _CASH_SPELLINGS


def amount_due(food: FoodCart) -> Callable[[str, str | None], str | None]:
    """get_payment_options' `paymentAmount`: the cart's to_pay ("₹539.00"), None if empty."""

    def amount(user_id: str, address_id: str | None) -> str | None:
        to_pay = food.cart_state(user_id, address_id).pricing.to_pay
        return amount_text(to_pay) if to_pay > 0 else None

    return amount


def cart_message(cart: dict[str, Any], note: str = "") -> str:
    """A sentence about the cart (the tool's `message`)."""
    if not cart["items"]:
        return f"{note} Your food cart is empty.".strip() if note else "Your food cart is empty."
    summary = (
        f"{cart['item_count']} item(s) from {cart['restaurant']['name']}; "
        f"to pay {rupees(cart['pricing']['to_pay'])}."
    )
    return f"{note} {summary}".strip()


def payment_view(to_pay: float) -> dict[str, Any]:
    """get_food_cart's `availablePaymentMethods` and cart-embedded `paymentOptions`."""
    if to_pay <= 0:
        return {"availablePaymentMethods": [], "paymentOptions": None}
    return {
        "availablePaymentMethods": [CASH],
        "paymentOptions": {
            "allMethods": [dict(_CASH_METHOD)],
            "allGroups": [
                {"group_name": CASH, "display_name": "Pay on delivery", "methods": [_CASH_METHOD]}
            ],
            "paymentAmount": amount_text(to_pay),
        },
    }


def _coupon(coupon: Coupon, problem: str | None, applied: bool) -> dict[str, Any]:
    status = "APPLIED" if applied else "NOT_APPLICABLE" if problem else "APPLICABLE"
    return {
        "id": coupon.code,
        "applicable": problem is None,
        "applicabilityStatus": status,
        "title": coupon.code,
        "subtitle": coupon.title,
        "description": problem or coupon.description,
        "ribbon_text": "Valid on cash on delivery",
        "terms_and_conditions": {
            "title": "Terms and conditions",
            "bullet_texts": [coupon.description, f"Minimum order ₹{coupon.min_order}."],
        },
    }


def coupon_sections(
    found: list[tuple[Coupon, str | None, bool]], code: str | None
) -> dict[str, Any]:
    """fetch_food_coupons: usable coupons first, then the rest, with a summary."""
    wanted = (code or "").strip().upper()
    rows = [row for row in found if not wanted or row[0].code == wanted]
    usable = [_coupon(*row) for row in rows if row[1] is None]
    other = [_coupon(*row) for row in rows if row[1] is not None]
    sections = [
        {"title": title, "type": kind, "coupons": coupons}
        for title, kind, coupons in (
            ("Available coupons", "APPLICABLE", usable),
            ("More offers", "NOT_APPLICABLE", other),
        )
        if coupons
    ]
    summary: dict[str, Any] = {
        "total_coupons": len(rows),
        "applicable_coupons": len(usable),
        "sections_count": len(sections),
    }
    if wanted:
        summary["filter_applied"] = wanted
    message = f"{len(usable)} of {len(rows)} coupon(s) apply to your cart."
    return {"status_message": message, "coupon_sections": sections, "summary": summary}


def coupon_applied(state: CartState, cart: dict[str, Any]) -> dict[str, Any]:
    """apply_food_coupon: the new pricing, the coupon and its discount in rupees."""
    pricing = state.pricing
    code = pricing.coupon.code if pricing.coupon else None
    message = f"Coupon {code} applied: you save {rupees(pricing.coupon_discount)}."
    return {
        "statusCode": 0,
        "statusMessage": message,
        "data": {
            "cart_id": state.cart_id,
            "result": "SUCCESS",
            "pricing": {
                "item_total": pricing.item_total,
                "delivery_fee": pricing.delivery_charge,
                "packaging_fee": 0,
                "taxes": pricing.taxes_and_charges,
                "coupon_discount": pricing.coupon_discount,
                "to_pay": pricing.to_pay,
            },
            "offers": {"coupon_applied": code, "coupon_discount": pricing.coupon_discount},
            "item_count": cart["item_count"],
        },
    }


def placed_message(order: dict[str, Any]) -> str:
    """What place_food_order says (shown to the person unchanged)."""
    return (
        f"Order {order['orderId']} placed with {order['restaurantName']}. "
        f"Pay {rupees(order['totalAmount'])} in cash on delivery; it cannot be cancelled."
    )
