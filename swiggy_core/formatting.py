"""Small display helpers shared by the cards and the planner (no Streamlit here)."""

from __future__ import annotations


def rupees(amount: float | None) -> str:
    """₹ with Indian digit grouping; paise only when present (₹1,23,456 or ₹99.50)."""
    if amount is None:
        return "—"
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
    if price is None or mrp is None or mrp <= 0 or price >= mrp:
        return None
    return round((mrp - price) * 100 / mrp)
