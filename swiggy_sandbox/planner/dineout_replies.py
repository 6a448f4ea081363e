"""What the planner says about dine-out venues, slots and bookings."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from swiggy_sandbox.planner import text as en

SHOWN_VENUES = 5
NEAREST_SLOTS = 3
_NOT_QUERY = re.compile(
    r"\b(book|reserve|reservation|a|an|the|table|tables|for|at|on|near|in|around|me|us|please|"
    r"tonight|today|tomorrow|weekend|this|next|people|persons|guests|pax|of|find|want|need|"
    r"i|we|place|restaurant|restaurants|somewhere|good|nice|dinner|lunch|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"one|two|three|four|five|six|seven|eight|nine|ten|\d+|am|pm)\b"
)


def venue_query(text: str) -> str:
    """Cuisine or vibe words plus the locality: what search_restaurants_dineout should get."""
    where = en.place(text) or ""
    rest = text.lower().replace(where, " ") if where else text.lower()
    rest = _NOT_QUERY.sub(" ", en.without_time(rest))
    words = [w for w in re.findall(r"[a-z]+", rest) if len(w) > 1]
    return " ".join([*words, *where.split()]).strip()


def day_label(day: date) -> str:
    """ "Saturday 21 November"."""
    return f"{day:%A} {day.day} {day:%B}"


def display_time(hhmm: str) -> str:
    """ "20:00" → "8:00 PM"."""
    hour, minute = (int(part) for part in hhmm.split(":"))
    return f"{hour % 12 or 12}:{minute:02d} {'PM' if hour >= 12 else 'AM'}"


def venues_reply(data: dict[str, Any], wish: str, missing: list[str]) -> str:
    """Venues with cuisine, rating and price, then the question that moves things on."""
    found = data.get("restaurants") or []
    if not found:
        return "I couldn't find a matching place nearby. Shall I try another cuisine or area?"
    lines = [_venue_line(v) for v in found[:SHOWN_VENUES]]
    ask = "Which one should I check for free slots?"
    if missing:
        ask = f"Also tell me {' and '.join(missing)}. {ask}"
    return f"Here are places{wish}:\n{en.listing(lines)}\n\n{ask}"


def _venue_line(venue: dict[str, Any]) -> str:
    facts = [", ".join(venue.get("cuisines") or [])]
    if venue.get("avgRating"):
        facts.append(f"★{venue['avgRating']}")
    if venue.get("costForTwo"):
        facts.append(str(venue["costForTwo"]))
    if venue.get("distance"):
        facts.append(str(venue["distance"]))
    offer = f" — {venue['offers'][0]}" if venue.get("offers") else ""
    details = " · ".join(fact for fact in facts if fact)
    return f"{venue.get('name')} ({venue.get('locality', '')}) · {details}{offer}"


def slots_on(data: dict[str, Any], day: date | None) -> list[dict[str, Any]]:
    """Every slot of `day` (or of every day when None), in time order."""
    slots: list[dict[str, Any]] = []
    for entry in data.get("days") or []:
        if day is None or entry.get("dateStr") == day.isoformat():
            slots.extend(entry.get("slots") or [])
    return slots


def find_slot(data: dict[str, Any], day: date | None, hhmm: str) -> dict[str, Any] | None:
    """The slot at that time (on that day when given)."""
    return next((s for s in slots_on(data, day) if s.get("time") == hhmm), None)


def nearest(data: dict[str, Any], day: date, hhmm: str | None) -> list[dict[str, Any]]:
    """Free slots of the day, closest to the wanted time first."""
    free = [s for s in slots_on(data, day) if s.get("available")]
    if hhmm is None:
        return free[:NEAREST_SLOTS]
    wanted = _minutes(hhmm)
    return sorted(free, key=lambda s: abs(_minutes(str(s["time"])) - wanted))[:NEAREST_SLOTS]


def slots_reply(data: dict[str, Any], day: date, hhmm: str | None, guests: int | None) -> str:
    """The requested time first, then the nearest free alternatives."""
    name = data.get("restaurantName", "The restaurant")
    when = day_label(day)
    others = nearest(data, day, hhmm)
    options = ", ".join(display_time(str(s["time"])) for s in others)
    party = f" for {guests}" if guests else ""
    if hhmm is not None:
        wanted = find_slot(data, day, hhmm)
        if wanted is not None and wanted.get("available"):
            spoken = display_time(hhmm).lower().replace(":00", "")
            return (
                f"{display_time(hhmm)} on {when} is free at {name}. Shall I book it{party}? "
                f"Tap the slot or say “book the {spoken} slot”."
            )
        status = "is taken" if wanted is not None else "isn't offered"
        asked = f"{display_time(hhmm)} on {when} {status} at {name}"
        if not others:
            return f"{asked}, and nothing else is free that day."
        return f"{asked}. Nearest free slots: {options}. Want one of these?"
    if not others:
        return f"{name} has no free slots on {when}. Shall I look at another day?"
    return f"Free slots at {name} on {when}: {options}. Which time, and for how many people?"


def booking_review(venue: str, slot: dict[str, Any], guests: int, assumed: bool) -> str:
    """What the person approves before book_table: venue, day, time and party size."""
    day = date.fromisoformat(str(slot["dateStr"]))
    note = " (I assumed 2 people; tell me if you're more)" if assumed else ""
    return (
        f"A free table for {guests}{note} at {venue} on {day_label(day)} at "
        f"{display_time(str(slot['time']))}."
    )


def booked_reply(booking: dict[str, Any]) -> str:
    """The booking exactly as the confirmation says."""
    venue = (booking.get("restaurant") or {}).get("name", "the restaurant")
    day = date.fromisoformat(str(booking["dateStr"]))
    offer = f" Your deal: {booking['offer']}." if booking.get("offer") else ""
    return (
        f"Booked — table for {booking.get('guestCount')} at {venue} on {day_label(day)} at "
        f"{display_time(str(booking['time']))}. Booking id {booking.get('bookingId')}.{offer}"
    )


def _minutes(hhmm: str) -> int:
    hour, minute = (int(part) for part in hhmm.split(":"))
    return hour * 60 + minute
