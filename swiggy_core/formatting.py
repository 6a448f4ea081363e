"""Small display helpers shared by the cards and the planner (no Streamlit here)."""

from __future__ import annotations

import math

# No single line, price or bill on Swiggy comes near ₹10,00,000: a larger amount is a fault
# in the data, shown as unknown rather than as a number.
MAX_RUPEES = 1_000_000
PRICE_UNKNOWN = "price unknown"


def price_known(amount: float | None) -> bool:
    """True for a real price: a finite number from ₹0 to ₹10,00,000."""
    return _sane(amount) and amount is not None and amount >= 0


def rupees(amount: float | None, *, allow_negative: bool = False) -> str:
    """₹ with Indian digit grouping; paise only when present (₹1,23,456 or ₹99.50).

    None is "—". A negative, non-finite or absurd amount (over ₹10,00,000) is "price
    unknown"; `allow_negative` lets a bill's discount line show as -₹40. Never raises.
    """
    if amount is None:
        return "—"
    if not _sane(amount) or (amount < 0 and not allow_negative):
        return PRICE_UNKNOWN
    sign = "-" if amount < 0 else ""
    value = abs(round(amount, 2))
    whole = int(value)
    paise = round((value - whole) * 100)
    if paise == 100:
        whole, paise = whole + 1, 0
    digits = str(whole)
    if len(digits) > 3:
        head, tail = digits[:-3], digits[-3:]
        groups: list[str] = []
        while len(head) > 2:
            groups.insert(0, head[-2:])
            head = head[:-2]
        if head:
            groups.insert(0, head)
        digits = ",".join([*groups, tail])
    return f"{sign}₹{digits}" + (f".{paise:02d}" if paise else "")


def discount_percent(price: float | None, mrp: float | None) -> int | None:
    """Whole-percent discount of price against MRP, or None when there is none."""
    if not price_known(price) or not price_known(mrp) or price is None or mrp is None:
        return None
    if mrp <= 0 or price >= mrp:
        return None
    return round((mrp - price) * 100 / mrp)


def _sane(amount: float | None) -> bool:
    """A real number (not bool, NaN or ±inf) no larger than MAX_RUPEES either way."""
    if isinstance(amount, bool) or not isinstance(amount, int | float):
        return False
    try:
        return math.isfinite(amount) and abs(amount) <= MAX_RUPEES
    except OverflowError:  # an int too large for a float
        return False
