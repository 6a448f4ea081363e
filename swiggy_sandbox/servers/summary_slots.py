"""Dineout slots as Swiggy's text gives them: per-date meal-window summaries.

The exact slotId, itemId and reservationTime are only in structuredContent; the text says
which windows have free tables, and whether booking there is free or a paid prebook.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

from swiggy_core.constants import SWIGGY_TZ
from swiggy_sandbox.servers.summary_format import Record, first, line, numbered, records, rupees


def slots(record: Record) -> str | None:
    """`N. 2026-11-21 (Saturday) — Lunch 12:00 PM–3:00 PM (6 open, free) | Dinner …`."""
    if "slots" not in record and "days" not in record:
        return None
    by_date: dict[str, list[Record]] = {}
    for day in records(record.get("days")):
        for slot in records(day.get("slots")):
            by_date.setdefault(str(first(slot, "dateStr") or day.get("dateStr")), []).append(slot)
    for slot in records(record.get("slots")):
        by_date.setdefault(_date_of(slot), []).append(slot)
    where = first(record, "restaurantName")
    heading = f"Tables at {where}:" if where else "Tables:"
    rows = (_date_line(i, day, found) for i, (day, found) in enumerate(by_date.items(), 1))
    return "\n".join([heading, numbered(rows) or "No slots in the next days."])


def _date_line(index: int, day: str, found: list[Record]) -> str:
    windows: dict[str, list[Record]] = {}
    for slot in found:
        if _open(slot):
            windows.setdefault(str(slot.get("slotGroupName") or "Open"), []).append(slot)
    details = [_window(name, open_slots) for name, open_slots in windows.items()]
    return line(index, _day_name(day), details or ["fully booked"], [])


def _window(name: str, open_slots: list[Record]) -> str:
    """`Dinner 7:00 PM–8:00 PM (2 open: 1 free booking, 1 paid prebook from ₹210)`."""
    start, end = (first(open_slots[i], "displayTime", "time") for i in (0, -1))
    span = f"{start}–{end}" if start != end else str(start)
    free = [slot for slot in open_slots if _free(slot)]
    paid = [slot for slot in open_slots if not _free(slot) and _prices(slot)]
    kinds = []
    if free:
        kinds.append(f"{len(free)} free booking" if paid else "free booking")
    if paid:
        cheapest = rupees(min(price for slot in paid for price in _prices(slot)))
        count = f"{len(paid)} " if free else ""
        kinds.append(f"{count}paid prebook from {cheapest}")
    detail = f": {', '.join(kinds)}" if kinds else ""
    return f"{name} {span} ({len(open_slots)} open{detail})"


def _open(slot: Record) -> bool:
    """A slot with tables left: `availableInventory` > 0 (documented) or `available`."""
    inventory = first(slot, "availableInventory", "availableTables")
    if isinstance(inventory, int | float) and not isinstance(inventory, bool):
        return inventory > 0
    return slot.get("available") is not False


def _free(slot: Record) -> bool:
    """A free deal (isFree and nothing to pay) is on offer; never assumed from silence."""
    deals = records(slot.get("deals"))
    if not deals:
        return slot.get("isFree") is True
    return any(deal.get("isFree") is True and not deal.get("bookingPrice") for deal in deals)


def _prices(slot: Record) -> list[float]:
    found = [deal.get("bookingPrice") for deal in records(slot.get("deals"))]
    return [p for p in found if isinstance(p, int | float) and not isinstance(p, bool) and p > 0]


def _date_of(slot: Record) -> str:
    if slot.get("dateStr"):
        return str(slot["dateStr"])
    moment = slot.get("reservationTime")
    if isinstance(moment, int | float):
        return datetime.fromtimestamp(moment, UTC).astimezone(SWIGGY_TZ).date().isoformat()
    return "Other dates"


def _day_name(day: str) -> str:
    try:
        return f"{day} ({date.fromisoformat(day):%A})"
    except ValueError:
        return day
