"""Small display helpers shared by the cards and the planner (no Streamlit here)."""

from __future__ import annotations

import math
import re
from datetime import date

from swiggy_core.constants import MAX_RUPEES

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


# --- Dates, times and distances as a person reads them --------------------------------

# Where a slot without a meal name belongs: before 11:30 is breakfast, before 4 PM lunch.
_LUNCH_FROM_MINUTES = 11 * 60 + 30
_DINNER_FROM_MINUTES = 16 * 60
_ISO_DATE_CHARS = 10


def clock_label(minutes: int | None) -> str | None:
    """Minutes after midnight as "8:00 PM" (the one time format the app shows)."""
    if minutes is None or not 0 <= minutes < 24 * 60:
        return None
    hours, mins = divmod(minutes, 60)
    return f"{(hours % 12) or 12}:{mins:02d} {'AM' if hours < 12 else 'PM'}"


def time_label(text: str | None) -> str:
    """ "20:00", "8 pm" or "8:00 PM" as "8:00 PM"; anything else as given."""
    if not text:
        return ""
    return clock_label(_minutes(text)) or text


def day_label(value: str | None) -> str:
    """An ISO date ("2026-11-23") as "Mon 23 Nov"; any other label as given."""
    if not value:
        return ""
    parsed = _iso_date(value)
    return f"{parsed:%a} {parsed.day} {parsed:%b}" if parsed else value


def date_time_label(text: str | None) -> str:
    """ "2026-11-23 20:00" as "Mon 23 Nov, 8:00 PM"; a lone date or time alike."""
    if not text:
        return ""
    parsed = _iso_date(text[:_ISO_DATE_CHARS])
    rest = text[_ISO_DATE_CHARS:].lstrip(" T,") if parsed else text
    day = day_label(text[:_ISO_DATE_CHARS]) if parsed else ""
    clock = clock_label(_minutes(rest)) if rest else None
    if parsed and (clock or not rest):
        return f"{day}, {clock}" if clock else day
    return clock or text


def meal_label(meal: str | None, minutes: int | None) -> str:
    """Breakfast, Lunch or Dinner: the server's name for the slot group, else by the clock."""
    if meal and meal.strip():
        return meal.strip().capitalize()
    if minutes is None:
        return "Other times"
    if minutes < _LUNCH_FROM_MINUTES:
        return "Breakfast"
    return "Lunch" if minutes < _DINNER_FROM_MINUTES else "Dinner"


_ASKED_TIME_RE = re.compile(
    r"\b(\d{1,2})(?:[:.](\d{2}))?\s*(am|pm)\b|\b([01]?\d|2[0-3])[:.]([0-5]\d)\b",
    re.IGNORECASE,
)


def asked_time(text: str) -> str | None:
    """The clock time a person asked for in their words ("at 8 pm", "7:30"), as "8:00 PM".

    Stricter than reading a slot's time: "for 2 people" has no time in it.
    """
    match = _ASKED_TIME_RE.search(text[:500])
    if match is None:
        return None
    if match.group(3):
        hours, minutes = int(match.group(1)), int(match.group(2) or 0)
        if not 1 <= hours <= 12 or minutes > 59:
            return None
        hours = hours % 12 + (12 if match.group(3).lower() == "pm" else 0)
    else:
        hours, minutes = int(match.group(4)), int(match.group(5))
    return clock_label(hours * 60 + minutes)


def distance_label(km: float | None) -> str | None:
    """ "1.2 km" or "800 m"; None when unknown, zero or not a sane number."""
    if isinstance(km, bool) or not isinstance(km, int | float):
        return None
    if not math.isfinite(km) or km <= 0 or km > _MAX_KM:
        return None
    if km < 1:
        return f"{max(round(km * 1000, -1), 10):.0f} m"
    return f"{km:.1f} km"


_MAX_KM = 1_000  # no restaurant a person would go to is further away


def _iso_date(text: str) -> date | None:
    if len(text) != _ISO_DATE_CHARS:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


def _minutes(text: str) -> int | None:
    # Imported here: the parsers import this module for prices.
    from swiggy_core.parsers.clock import clock_minutes

    return clock_minutes(text)
