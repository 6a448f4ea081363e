"""Every way a shopper phrases what the starter chips can do leads to a useful step.

The table (tests/fixtures/natural_phrasings.json) says, for each phrasing, the searches it
must run (each finding something), the budget, the quantity put in the cart, the party and
day a booking gets. A miss, or a request too vague to search, ends with two or three
requests to tap, and each of those leads somewhere too. The offline planner runs in process
against the sandbox's own tools (see `offline_shopper`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import count
from pathlib import Path
from typing import Any

import pytest
from offline_shopper import NOW, Shopper

from swiggy_core.actions import suggestions
from swiggy_core.verticals.catalog import VERTICALS
from swiggy_sandbox.connector import CallClientTool
from swiggy_sandbox.planner import misses
from swiggy_sandbox.planner.dineout_replies import bookable, slot_when
from swiggy_sandbox.shop import Shop

TABLE = Path(__file__).parents[1] / "fixtures" / "natural_phrasings.json"
PHRASINGS: list[dict[str, Any]] = json.loads(TABLE.read_text())["phrasings"]
SEARCH_TOOL = {
    "food": "search_products",
    "style": "search_products",
    "foodorder": "search_restaurants",
    "dining": "search_restaurants_dineout",
}
_MISS_WORDS = ("couldn't find", "No restaurant near you", "No place near you", "Try one of these")
_users = count()


@pytest.fixture(scope="module")
def shop() -> Iterator[Shop]:
    yield Shop(clock=lambda: NOW)


def shopper(shop: Shop, vertical_id: str) -> Shopper:
    """A new person (empty cart) in the shop."""
    return Shopper(shop, vertical_id, f"phrasing-{next(_users)}")


def found(vertical_id: str, data: dict[str, Any]) -> list[dict[str, Any]]:
    """What a search found that the person can act on now."""
    if vertical_id == "foodorder":
        restaurants = data.get("restaurants") or []
        return [r for r in restaurants if r.get("availabilityStatus") == "OPEN"]
    return list(data.get("products") or data.get("restaurants") or [])


def prices(vertical_id: str, data: dict[str, Any]) -> list[float]:
    """Each result's price: an Instamart pack's offer price, a venue's cost for two."""
    if vertical_id == "dining":
        costs = [str(v.get("costForTwo") or "").split("for")[0] for v in found("dining", data)]
        return [float("".join(ch for ch in cost if ch.isdigit())) for cost in costs]
    packs = [(p.get("variations") or [{}])[0] for p in found(vertical_id, data)]
    return [float((pack.get("price") or {}).get("offerPrice") or 0) for pack in packs]


def leads_somewhere(person: Shopper, said: str) -> None:
    """The reply searched, found something, and is neither a miss nor a question."""
    tool = SEARCH_TOOL[person.vertical_id]
    searches = person.results(tool)
    assert searches, f"{said!r} searched nothing: {person.text()}"
    assert all(found(person.vertical_id, data) for data in searches), (said, person.calls)
    assert not suggestions(person.text()), f"{said!r} ended in chips: {person.text()}"
    assert not any(words in person.text() for words in _MISS_WORDS), person.text()


@pytest.mark.parametrize("row", PHRASINGS, ids=[f"{r['shop']}: {r['says']}" for r in PHRASINGS])
def test_each_phrasing_leads_to_a_useful_step(shop: Shop, row: dict[str, Any]) -> None:
    person = shopper(shop, row["shop"])
    calls = person.say(row["says"])
    if row.get("chips"):
        _offers_chips_that_lead_somewhere(shop, person)
        return
    tool = SEARCH_TOOL[row["shop"]]
    assert [tool_input["query"] for name, tool_input, _out in calls if name == tool] == row[
        "searches"
    ]
    if "adds" in row:
        _adds(person, row["adds"])
        return
    leads_somewhere(person, row["says"])
    if "budget" in row:
        _keeps_to_the_budget(person, row)
    if "party" in row or "day" in row:
        _books_for_the_party(person, row.get("party"), row.get("day"))


def _adds(person: Shopper, quantity: int) -> None:
    """The product named goes in the cart, that many of it (and nothing else)."""
    (update,) = [tool_input for name, tool_input, _out in person.calls if name == "update_cart"]
    assert [line["quantity"] for line in update["items"]] == [quantity], person.text()


def _keeps_to_the_budget(person: Shopper, row: dict[str, Any]) -> None:
    data = person.results(SEARCH_TOOL[row["shop"]])[0]
    costs = prices(row["shop"], data)
    cap = misses.budget(row["says"], costs)
    if row["budget"] == "cheap":
        assert cap is not None and min(costs) <= cap < max(costs), (cap, costs)
    else:
        assert cap == row["budget"]


def _books_for_the_party(person: Shopper, party: int | None, day: str | None) -> None:
    """The first place's slots are for the day asked; a free slot is booked for the party."""
    person.say("the first one")
    (slots,) = person.results("get_available_slots")
    asked = next(i for name, i, _out in person.calls if name == "get_available_slots")["date"]
    assert asked == (day or NOW.date().isoformat())
    free = [s for s in slots["slots"] if bookable(s) and slot_when(s)[0].isoformat() == asked]
    assert free, f"no free slot at {slots.get('restaurantName')} on {asked}"
    ids = {"restaurantId": slots["restaurantId"], "slotId": free[0]["slotId"]}
    person.press("pick_slot", "Book this slot", ids)
    assert isinstance(person.last, CallClientTool), person.text()
    assert person.last.input["arguments"]["guestCount"] == (party or 2)


def _offers_chips_that_lead_somewhere(shop: Shop, person: Shopper) -> None:
    offered = suggestions(person.text())
    assert 2 <= len(offered) <= 3, person.text()
    for request in offered:
        again = shopper(shop, person.vertical_id)
        again.say(request)
        leads_somewhere(again, request)


@pytest.mark.parametrize(
    ("vertical_id", "said"),
    [
        ("food", "kombucha"),
        ("food", "gluten free bread"),
        ("food", "organic honey"),
        ("style", "anti ageing cream for wrinkles"),
        ("style", "nail polish"),
        ("foodorder", "ramen with extra egg"),
        ("foodorder", "shawarma"),
        ("foodorder", "ramen"),
        ("dining", "karaoke bar for 4 tomorrow"),
        ("dining", "somewhere for us"),
    ],
)
def test_after_a_miss_the_nearest_requests_are_chips(
    shop: Shop, vertical_id: str, said: str
) -> None:
    person = shopper(shop, vertical_id)
    person.say(said)
    assert "Try a simpler name" not in person.text()  # chips, not instructions
    _offers_chips_that_lead_somewhere(shop, person)


def test_a_missed_table_keeps_the_party_and_day_on_its_chips(shop: Shop) -> None:
    person = shopper(shop, "dining")
    person.say("karaoke bar for 4 tomorrow")
    offered = suggestions(person.text())
    assert offered and all(request.endswith(" for 4 tomorrow") for request in offered)


@pytest.mark.parametrize("vertical_id", list(VERTICALS))
def test_help_offers_the_starter_prompts_as_chips(shop: Shop, vertical_id: str) -> None:
    person = shopper(shop, vertical_id)
    assert person.say("what's the weather like?") == []
    assert "Here I can " in person.text()
    assert suggestions(person.text()) == list(VERTICALS[vertical_id].starter_prompts)


def test_over_a_budget_the_chip_drops_the_budget(shop: Shop) -> None:
    person = shopper(shop, "style")
    person.say("face wash under 50")
    assert suggestions(person.text()) == ["Face wash"]
    again = shopper(shop, "style")
    again.say("Face wash")
    leads_somewhere(again, "Face wash")
