"""What the planner says about dine-out venues, slots and bookings."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any

from swiggy_core.constants import SWIGGY_TZ
from swiggy_sandbox.planner import text as en

NEAREST_SLOTS = 3
_NOT_QUERY = re.compile(
    r"\b(book|reserve|reservation|a|an|the|table|tables|for|at|on|near|in|around|me|us|please|"
    r"tonight|today|tomorrow|weekend|this|next|people|persons|guests|pax|of|find|want|need|"
    r"i|we|place|restaurant|restaurants|somewhere|good|nice|dinner|lunch|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"one|two|three|four|five|six|seven|eight|nine|ten|\d+|am|pm)\b"
)


def venue_query(text: str) -> str:
    """Cuisine or vibe words plus the locality: what search_restaurants_dineout should get.

    A search matches only places that have (nearly) every word, so one cuisine or one vibe
    goes in ("rooftop", not "romantic rooftop"); the rest is for the person to weigh.
    """
    where = en.place(text) or ""
    rest = text.lower().replace(where, " ") if where else text.lower()
    rest = _NOT_QUERY.sub(" ", en.without_time(rest.replace("-", " ")))
    words = [w for w in re.findall(r"[a-z]+", rest) if len(w) > 1 and w not in _FILLER]
    joined = " ".join(words)
    joined = " ".join(_ALSO.get(word, word) for word in joined.split())
    main = next((c for c in _CUISINES if re.search(rf"\b{c}\b", joined)), None)
    main = main or next((v for v in _VIBES if re.search(rf"\b{v}\b", joined)), None)
    return " ".join([*(main.split() if main else words), *where.split()]).strip()


# Most specific first: a feature of the place beats a mood ("rooftop" over "romantic").
_CUISINES = (
    "north indian", "south indian", "modern indian", "chinese", "italian", "japanese",
    "korean", "mexican", "asian", "continental", "seafood", "bbq", "pizza", "burgers",
    "andhra", "kerala", "biryani", "cafe", "bakery", "brewpub", "mediterranean",
)  # fmt: skip
_VIBES = (
    "rooftop", "brunch", "breakfast", "buffet", "outdoor", "live music", "craft beer",
    "fine dining", "date night", "romantic", "family", "vegetarian", "cocktails", "desserts",
)  # fmt: skip
# Dishes and cuisines people name, as the places that serve them are listed.
_ALSO = {
    "chinese": "asian", "thai": "asian", "sushi": "japanese", "ramen": "japanese",
    "steak": "steakhouse", "beer": "brewpub", "pub": "brewpub",
    "dosa": "south indian", "idli": "south indian", "tacos": "mexican", "pasta": "italian",
    "fish": "seafood", "coffee": "cafe", "cake": "bakery", "date": "date night",
}  # fmt: skip
_FILLER = frozenset({"where", "can", "get", "go", "friendly", "dine", "eat", "out", "some"})


def day_label(day: date) -> str:
    """ "Saturday 21 November"."""
    return f"{day:%A} {day.day} {day:%B}"


def display_time(hhmm: str) -> str:
    """ "20:00" → "8:00 PM"."""
    hour, minute = (int(part) for part in hhmm.split(":"))
    return f"{hour % 12 or 12}:{minute:02d} {'PM' if hour >= 12 else 'AM'}"


def venues_reply(
    data: dict[str, Any], wish: str, missing: list[str], cap: float | None = None
) -> str:
    """The place that fits best and why, then the question that moves things on."""
    found = data.get("restaurants") or []
    if not found:
        return "I couldn't find a matching place nearby. Shall I try another cuisine or area?"
    if cap is not None:
        within = [v for v in found if (_cost(v) or 0) <= cap]
        if not within:
            return f"None of these is within {en.rupees(cap)} for two; here they are anyway."
        found = within
    ask = "Which one should I check for free slots?"
    if missing:
        ask = f"Also tell me {' and '.join(missing)}. {ask}"
    return f"{_venue_pick(found[0])} looks best{wish}. {ask}"


def _cost(venue: dict[str, Any]) -> int | None:
    """Rupees for two from "₹2,000 for two"."""
    digits = re.sub(r"[^\d]", "", str(venue.get("costForTwo") or "").split("for")[0])
    return int(digits) if digits else None


def _venue_pick(venue: dict[str, Any]) -> str:
    """ "Toit in Indiranagar (rated 4.5, 15% off)": the name and what makes it stand out."""
    rating = venue.get("rating")
    value = rating.get("value") if isinstance(rating, dict) else venue.get("avgRating")
    facts = [f"rated {value}"] if value else []
    offers = venue.get("offers") or []
    first = offers[0] if offers else None
    title = first.get("offerTitle") if isinstance(first, dict) else first
    if title:
        facts.append(str(title))
    where = f" in {venue['locality']}" if venue.get("locality") else ""
    stands_out = f" ({', '.join(facts)})" if facts else ""
    return f"{venue.get('name')}{where}{stands_out}"


def slot_when(slot: dict[str, Any]) -> tuple[date, str]:
    """The local day and 'HH:MM' of a slot, from its reservationTime (unix seconds)."""
    local = datetime.fromtimestamp(int(slot["reservationTime"]), SWIGGY_TZ)
    return local.date(), f"{local:%H:%M}"


def slots_on(data: dict[str, Any], day: date | None) -> list[dict[str, Any]]:
    """The flat slots of `day` (of every day when None), in time order."""
    slots = [s for s in data.get("slots") or [] if isinstance(s, dict) and "reservationTime" in s]
    if day is not None:
        slots = [s for s in slots if slot_when(s)[0] == day]
    return sorted(slots, key=lambda s: int(s["reservationTime"]))


def free_deal(slot: dict[str, Any]) -> dict[str, Any] | None:
    """The slot's FREE deal with a table left; a paid prebook deal never counts as free."""
    for deal in slot.get("deals") or []:
        price = deal.get("bookingPrice") or 0
        left = deal.get("availableInventory", slot.get("availableInventory", 0))
        if deal.get("isFree") is True and price == 0 and left > 0:
            return dict(deal)
    return None


def bookable(slot: dict[str, Any]) -> bool:
    """A table is left and the slot has a free deal."""
    return (slot.get("availableInventory") or 0) > 0 and free_deal(slot) is not None


def find_slot(data: dict[str, Any], day: date | None, hhmm: str) -> dict[str, Any] | None:
    """The slot at that time (on that day when given)."""
    return next((s for s in slots_on(data, day) if slot_when(s)[1] == hhmm), None)


def nearest(data: dict[str, Any], day: date, hhmm: str | None) -> list[dict[str, Any]]:
    """Bookable slots of the day, closest to the wanted time first."""
    free = [s for s in slots_on(data, day) if bookable(s)]
    if hhmm is None:
        return free[:NEAREST_SLOTS]
    wanted = _minutes(hhmm)
    return sorted(free, key=lambda s: abs(_minutes(slot_when(s)[1]) - wanted))[:NEAREST_SLOTS]


def slots_reply(data: dict[str, Any], day: date, hhmm: str | None, guests: int | None) -> str:
    """The requested time first, then the nearest free alternatives."""
    name = data.get("restaurantName", "The restaurant")
    when = day_label(day)
    others = nearest(data, day, hhmm)
    options = ", ".join(display_time(slot_when(s)[1]) for s in others)
    party = f" for {guests}" if guests else ""
    if hhmm is not None:
        wanted = find_slot(data, day, hhmm)
        if wanted is not None and bookable(wanted):
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
    day, hhmm = slot_when(slot)
    note = " (I assumed 2 people; tell me if you're more)" if assumed else ""
    return (
        f"A free table for {guests}{note} at {venue} on {day_label(day)} at {display_time(hhmm)}."
    )


def booked_reply(booking: dict[str, Any]) -> str:
    """The booking exactly as book_table's confirmation says (its orderId is the reference)."""
    order_id = booking["orderId"]
    venue = booking.get("restaurantName") or "the restaurant"
    when = ""
    if booking.get("reservationDate"):
        day = date.fromisoformat(str(booking["reservationDate"]))
        when = f" on {day_label(day)}"
    if booking.get("reservationTime"):
        when += f" at {booking['reservationTime']}"
    party = f" for {booking['guestCount']}" if booking.get("guestCount") else ""
    status = str(booking.get("status") or "").upper()
    state = "Booked" if status in ("", "CONFIRMED") else f"Booking {status.lower()}"
    return f"{state} — table{party} at {venue}{when}. Booking id {order_id}."


def _minutes(hhmm: str) -> int:
    hour, minute = (int(part) for part in hhmm.split(":"))
    return hour * 60 + minute
