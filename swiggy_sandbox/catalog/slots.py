"""Dine-out reservation slots, computed from the calendar so every day has fresh slots."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from swiggy_core.constants import SWIGGY_TZ
from swiggy_sandbox.catalog.geo import parse_hhmm
from swiggy_sandbox.catalog.models import Venue

BOOKING_WINDOW_DAYS = 7
SLOT_MINUTES = 30
MAX_TABLES_PER_SLOT = 4
MEAL_WINDOWS: dict[str, tuple[str, str, str]] = {
    "breakfast": ("08:00", "11:00", "Breakfast"),
    "lunch": ("12:00", "15:30", "Lunch"),
    "dinner": ("19:00", "23:00", "Dinner"),
}
# slotId = date ordinal * 10_000 + HHMM: a plain number, as the real API uses, that decodes back.
_SLOT_ID_BASE = 10_000


@dataclass(frozen=True, slots=True)
class Slot:
    """One bookable time at a venue."""

    slot_id: int
    day: date
    time: str
    reservation_time: int
    group: str
    tables: int  # tables the venue offers at this time (0 = sold out before we start)


def slot_id_for(day: date, hhmm: str) -> int:
    """Numeric slot id for a day and a 'HH:MM' time."""
    clock = parse_hhmm(hhmm)
    return day.toordinal() * _SLOT_ID_BASE + clock.hour * 100 + clock.minute


def decode_slot_id(slot_id: int) -> tuple[date, str] | None:
    """Day and 'HH:MM' of a slot id, or None when it cannot be one."""
    ordinal, hhmm = divmod(slot_id, _SLOT_ID_BASE)
    hours, minutes = divmod(hhmm, 100)
    if ordinal < 700_000 or hours > 23 or minutes > 59:
        return None
    return date.fromordinal(ordinal), f"{hours:02d}:{minutes:02d}"


def reservation_time(day: date, hhmm: str) -> int:
    """Unix seconds of a local (IST) day and time."""
    return int(datetime.combine(day, parse_hhmm(hhmm), tzinfo=SWIGGY_TZ).timestamp())


def _tables(venue_id: str, day: date, hhmm: str) -> int:
    seed = int(hashlib.sha1(f"{venue_id}|{day}|{hhmm}".encode()).hexdigest()[:8], 16)
    return 0 if seed % 9 == 0 else 1 + seed % MAX_TABLES_PER_SLOT


def _times(start: str, end: str) -> list[str]:
    first, last = parse_hhmm(start), parse_hhmm(end)
    cursor = datetime.combine(date(2000, 1, 1), first)
    out = []
    while cursor.time() <= last:
        out.append(cursor.strftime("%H:%M"))
        cursor += timedelta(minutes=SLOT_MINUTES)
    return out


def slots_for_day(venue: Venue, day: date) -> list[Slot]:
    """Every slot a venue offers on a day, in time order."""
    out = []
    for meal in venue.meals:
        start, end, group = MEAL_WINDOWS[meal]
        for hhmm in _times(start, end):
            out.append(
                Slot(
                    slot_id_for(day, hhmm),
                    day,
                    hhmm,
                    reservation_time(day, hhmm),
                    group,
                    _tables(venue.id, day, hhmm),
                )
            )
    return out


def find_slot(venue: Venue, slot_id: int) -> Slot | None:
    """The slot with this id at the venue, if the venue offers it."""
    decoded = decode_slot_id(slot_id)
    if decoded is None:
        return None
    return next((s for s in slots_for_day(venue, decoded[0]) if s.slot_id == slot_id), None)
