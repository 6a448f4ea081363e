"""TableScout on Dineout: one search, a choice, availability, then a booking the person approves."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from swiggy_sandbox.connector import Finish, Step
from swiggy_sandbox.planner import dineout_replies as say
from swiggy_sandbox.planner import misses, phrasing
from swiggy_sandbox.planner import text as en
from swiggy_sandbox.planner.approval import ask_approval
from swiggy_sandbox.planner.common import Handler, call, chosen_restaurant_id, plan_with
from swiggy_sandbox.planner.intents import Intent, read_intent
from swiggy_sandbox.planner.view import ConversationView

DEFAULT_GUESTS = 2
Coords = tuple[float, float]
# Words about the party or the occasion's wording, never a kind of place to search for.
_NOT_VENUE = re.compile(
    r"\b(?:we are|we're|there are|there'll be|we will be)\s+\w+"
    r"|\b(?:party|food|spot|somewhere|place|celebration|please)\b"
)
# How a chip says the day the person asked for.
_DAY_SAID = {"tonight": " tonight", "today": " today", "tomorrow": " tomorrow"}


def plan_dineout(view: ConversationView, intent: Intent) -> Step:
    """The next step for TableScout."""
    return plan_with(view, intent, _HANDLERS)


def _search(view: ConversationView, intent: Intent) -> Step:
    query = say.venue_query(_venue_words(view.text))
    intro = ""
    if not query and (_guests(view) or view.detail("date", en.day_word) or _time(view)):
        # A party and a day but no cuisine: start from places that suit the party.
        query = "family" if (_guests(view) or DEFAULT_GUESTS) > 2 else "date night"
        intro = f"You didn't name a cuisine, so here are {query} favourites; name one to narrow it."
    if not query:
        return misses.vague_venue(_details(view))
    done = view.searched("search_restaurants_dineout", query)
    if done is not None:
        if not done.data.get("restaurants"):
            query = str(done.input.get("query") or query)
            return misses.venue_miss(view.vertical, query, _details(view))
        cap = misses.budget(view.text, _costs(done.data))
        return Finish(say.venues_reply(done.data, _wish(view), _missing(view), cap))
    where = _search_place(view)
    if not isinstance(where, dict):
        return where
    return call(view, "search_restaurants_dineout", {"query": query, **where}, say=intro)


def _venue_words(text: str) -> str:
    """What kind of place, without who it is for, the budget or the time of day.

    A table for parents or kids is a family outing, which is a kind of place.
    """
    cleaned = phrasing.for_whom(en.without_cheap(en.without_price(text)))
    cleaned = _NOT_VENUE.sub(" ", phrasing.without_day_parts(cleaned))
    return f"{cleaned} family" if phrasing.family_outing(text) else cleaned


def _costs(data: dict[str, Any]) -> list[float]:
    """Rupees for two of each place found ("₹2,000 for two")."""
    found = (re.search(r"\d[\d,]*", str(v.get("costForTwo") or "")) for v in data["restaurants"])
    return [float(match.group().replace(",", "")) for match in found if match]


def _details(view: ConversationView) -> str:
    """The party, day and time the person gave, as a chip says them (" for 4 tomorrow")."""
    parts = [f" for {guests}" if (guests := _guests(view)) else ""]
    if day := view.detail("date", en.day_word):
        parts.append(_DAY_SAID.get(day, f" on {say.day_label(_day(view)).split()[0]}"))
    if hhmm := _time(view):
        parts.append(f" at {say.display_time(hhmm)}")
    return "".join(parts)


def _search_place(view: ConversationView) -> dict[str, Any] | Step:
    """Where to search: the active address's point, else a location id (Swiggy's own way)."""
    if coords := view.coordinates():
        return {"latitude": coords[0], "longitude": coords[1]}
    if address_id := view.address_id():
        return {"addressId": address_id}
    if view.called("get_saved_locations") is None:
        return call(view, "get_saved_locations", {}, say="Let me check your saved locations.")
    return Finish("I need a location to search near. Save an address in Swiggy, then ask again.")


def _venue_coords(view: ConversationView) -> Coords | None:
    """The search's latitude/longitude (reused for slots and booking), else the address's."""
    search = view.latest("search_restaurants_dineout")
    if search is not None:
        latitude, longitude = search.data.get("latitude"), search.data.get("longitude")
        if isinstance(latitude, int | float) and isinstance(longitude, int | float):
            return float(latitude), float(longitude)
    return view.coordinates()


def _show_slots(view: ConversationView, intent: Intent) -> Step:
    day = _day(view)
    if slots := view.called("get_available_slots"):
        return Finish(say.slots_reply(slots.data, day, _time(view), _guests(view)))
    venue_id = intent.ids.get("restaurantId") or chosen_restaurant_id(
        view, intent, "search_restaurants_dineout"
    )
    coords = _venue_coords(view)
    if not venue_id or coords is None:
        return Finish("Which restaurant? Ask me to find a table first, then pick one.")
    return _fetch_slots(view, str(venue_id), day, coords)


def _pick_slot(view: ConversationView, intent: Intent) -> Step:
    slot, venue_id, venue = _wanted_slot(view, intent)
    coords = _venue_coords(view)
    if venue_id is None or coords is None:
        return Finish("Which restaurant and time? Ask me to find a table first.")
    if slot is None and view.called("get_available_slots") is None:
        # Never assume a slot exists: check availability before anything else.
        return _fetch_slots(view, venue_id, _day(view), coords)
    deal = say.free_deal(slot) if slot is not None else None
    if slot is None or deal is None or not say.bookable(slot):
        latest = view.latest("get_available_slots")
        data = latest.data if latest else {}
        return Finish(say.slots_reply(data, _day(view), _time(view, intent), _guests(view)))
    guests = _guests(view)
    latitude, longitude = coords
    arguments = {
        "restaurantId": venue_id,
        "slotId": slot["slotId"],
        "itemId": deal["itemId"],
        "reservationTime": slot["reservationTime"],
        "guestCount": guests or DEFAULT_GUESTS,
        "latitude": latitude,
        "longitude": longitude,
    }
    review = say.booking_review(venue, slot, guests or DEFAULT_GUESTS, guests is None)
    return ask_approval(view, "book_table", arguments, review)


def _confirm(view: ConversationView, intent: Intent) -> Step:
    """Typed words never book: only the app's Confirm dialog can."""
    if _pending_pick(view) is None:
        return Finish("There's no booking waiting for a yes. Pick a slot first.")
    return Finish(
        "I can't book from a message. Only the Confirm button in the app's dialog can. "
        "Say “book the slot” and I'll ask for it."
    )


def _cancel(view: ConversationView, intent: Intent) -> Step:
    return Finish("Okay, I won't book it. Want me to look at another time or place?")


def _fetch_slots(view: ConversationView, venue_id: str, day: date, coords: Coords) -> Step:
    latitude, longitude = coords
    arguments = {
        "restaurantId": venue_id,
        "date": day.isoformat(),
        "latitude": latitude,
        "longitude": longitude,
    }
    return call(view, "get_available_slots", arguments)


def _wanted_slot(
    view: ConversationView, intent: Intent
) -> tuple[dict[str, Any] | None, str | None, str]:
    """(slot from the latest availability, venue id, venue name) for a pick."""
    latest = view.latest("get_available_slots")
    venue_id = intent.ids.get("restaurantId") or (
        latest.data.get("restaurantId") if latest else None
    )
    name = str(
        (latest.data if latest else {}).get("restaurantName")
        or intent.ids.get("restaurantName")
        or "the restaurant"
    )
    if latest is None or str(latest.data.get("restaurantId")) != str(venue_id):
        return None, str(venue_id) if venue_id else None, name
    if slot_id := intent.ids.get("slotId"):
        found = [s for s in say.slots_on(latest.data, None) if str(s.get("slotId")) == str(slot_id)]
        return (found[0] if found else None), str(venue_id), name
    hhmm = _time(view, intent)
    day = _day(view) if view.detail("date", en.day_word) else None
    slot = say.find_slot(latest.data, day, hhmm) if hhmm else None
    return slot, str(venue_id), name


def _pending_pick(view: ConversationView) -> Intent | None:
    """The slot request the person is confirming: their latest earlier pick."""
    for text, action in zip(
        reversed(view.user_texts[:-1]), reversed(view.actions[:-1]), strict=True
    ):
        earlier = read_intent(text, action, view.vertical)
        if earlier.kind == "pick_slot":
            return earlier
    return None


def _day(view: ConversationView) -> date:
    return en.resolve_day(view.detail("date", en.day_word), view.today())


def _time(view: ConversationView, intent: Intent | None = None) -> str | None:
    if intent is not None and intent.query and (hhmm := en.clock_time(intent.query.lower())):
        return hhmm
    return view.detail("time", en.clock_time)


def _guests(view: ConversationView) -> int | None:
    """The party size: the session summary's, else read from the person's words."""
    if (party := view.slot("party")) and party.isdigit():
        return int(party)
    return view.remembered(en.party_size)


def _wish(view: ConversationView) -> str:
    parts = [f" for {guests}" if (guests := _guests(view)) else ""]
    if view.detail("date", en.day_word):
        parts.append(f" on {say.day_label(_day(view))}")
    if hhmm := _time(view):
        parts.append(f" at {say.display_time(hhmm)}")
    if where := view.remembered(en.place):
        parts.append(f" near {where.title()}")
    return "".join(parts)


def _missing(view: ConversationView) -> list[str]:
    missing = [] if _guests(view) else ["how many people"]
    return missing + ([] if _time(view) else ["what time"])


_HANDLERS: dict[str, Handler] = {
    "search": _search,
    "choose": _show_slots,
    "pick_slot": _pick_slot,
    "confirm": _confirm,
    "cancel": _cancel,
}
