"""Instamart coupons: the offers, whether one fits a cart, and the coupon on each cart."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Column, Connection, String, select

from swiggy_sandbox.shop import db
from swiggy_sandbox.shop.common import amount_text
from swiggy_sandbox.shop.im_rules import Bill, bill

# The coupon applied to a user's Instamart cart (dropped when the cart no longer qualifies).
im_coupons = db.table(
    "im_coupons",
    Column("user_id", String, primary_key=True),
    Column("coupon_code", String, nullable=False),
)


@dataclass(frozen=True, slots=True)
class Coupon:
    """An Instamart offer: a flat or percentage discount on the item total."""

    code: str
    title: str
    description: str
    min_total: int
    flat: int = 0
    percent: int = 0
    max_discount: int = 0
    needs_online_payment: bool = False

    def blocker(self, item_total: int) -> str | None:
        """Why the coupon cannot apply to this cart (None when it can)."""
        if self.needs_online_payment:
            return "Needs online payment; the sandbox takes cash on delivery only."
        if item_total < self.min_total:
            return f"Add items worth {amount_text(self.min_total - item_total)} more to use this."
        return None

    def discount(self, item_total: int) -> int:
        """Rupees off this item total (0 when the coupon does not apply)."""
        if self.blocker(item_total) is not None:
            return 0
        if self.flat:
            return min(self.flat, item_total)
        return min(item_total * self.percent // 100, self.max_discount)


COUPONS = (
    Coupon("FRESH50", "Flat ₹50 off", "On orders above ₹299.", 299, flat=50),
    Coupon(
        "SAVE10", "10% off up to ₹75", "On orders above ₹199.", 199, percent=10, max_discount=75
    ),
    Coupon("MEGA100", "Flat ₹100 off", "On orders above ₹699.", 699, flat=100),
    Coupon(
        "UPI75",
        "₹75 off with UPI",
        "On orders above ₹249 paid by UPI.",
        249,
        flat=75,
        needs_online_payment=True,
    ),
)
_COUPONS = {c.code: c for c in COUPONS}


def find_coupon(code: str) -> Coupon | None:
    """The coupon for a code, whatever its case (Swiggy upper-cases codes)."""
    return _COUPONS.get(code.strip().upper())


def coupon_wire(coupon: Coupon, item_total: int, applied: str | None) -> dict[str, Any]:
    """One list_coupons entry."""
    blocker = coupon.blocker(item_total)
    if coupon.code == applied:
        status, message = "APPLIED", f"You save {amount_text(coupon.discount(item_total))}."
    elif blocker is None:
        status, message = "APPLICABLE", f"You save {amount_text(coupon.discount(item_total))}."
    else:
        status, message = "NOT_APPLICABLE", blocker
    return {
        "couponCode": coupon.code,
        "title": coupon.title,
        "description": coupon.description,
        "isApplicable": blocker is None,
        "applicabilityStatus": status,
        "applicabilityMessage": message,
        "tnc": {
            "title": "Terms and conditions",
            "bulletTexts": [
                coupon.description,
                "One coupon per order.",
                "Valid on Instamart orders in the sandbox only.",
            ],
        },
    }


def applied_coupon(conn: Connection, user_id: str) -> Coupon | None:
    """The coupon on the user's cart, if any."""
    code = conn.execute(
        select(im_coupons.c.coupon_code).where(im_coupons.c.user_id == user_id)
    ).scalar()
    return find_coupon(code) if code else None


def set_coupon(conn: Connection, user_id: str, coupon: Coupon | None) -> None:
    """Put `coupon` on the user's cart (None removes it)."""
    conn.execute(im_coupons.delete().where(im_coupons.c.user_id == user_id))
    if coupon is not None:
        conn.execute(im_coupons.insert().values(user_id=user_id, coupon_code=coupon.code))


def priced(total: int, coupon: Coupon | None) -> Bill:
    """The bill for an item total with this coupon (if it still applies)."""
    discount = coupon.discount(total) if coupon else 0
    return bill(total, discount, coupon.code if coupon else None)
