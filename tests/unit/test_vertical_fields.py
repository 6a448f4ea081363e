"""A vertical's behaviour is fields of its record: a new entry gets it with no branch to add."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace

import pytest

from swiggy_core.conversation._slots import extract_slots
from swiggy_core.parsers import parse_tool_result
from swiggy_core.verticals import VERTICALS, register_vertical, unregister_vertical
from swiggy_core.verticals.catalog import TABLESCOUT

# A bar-booking vertical on Dineout, told apart from TableScout only by its entry.
BARS = replace(
    TABLESCOUT,
    id="bars",
    display_name="BarHop",
    slug="barhop",
    slot_names=("vibe",),
    starter_prompts=("A rooftop bar for 6 tonight",),
)


@pytest.fixture
def bars() -> Iterator[None]:
    register_vertical(BARS)
    yield
    unregister_vertical(BARS.id)


def test_the_pages_keep_todays_urls():
    slugs = {vertical.id: vertical.slug for vertical in VERTICALS.values()}
    assert slugs == {
        "food": "nutricart",
        "style": "stylekit",
        "dining": "tablescout",
        "foodorder": "feedme",
    }


def test_what_each_vertical_decides_is_in_its_entry():
    facts = {
        v.id: (v.search_lists, v.price_unit, v.books_tables, v.tracks_restaurant, v.people_slot)
        for v in VERTICALS.values()
    }
    assert facts == {
        "food": ("products", "item", False, False, "servings"),
        "style": ("products", "item", False, False, "servings"),
        "dining": ("restaurants", "table_for_two", True, True, "party"),
        "foodorder": ("dishes", "item", False, True, "servings"),
    }
    assert VERTICALS["style"].product_look == "beauty"


@pytest.mark.usefixtures("bars")
def test_a_new_vertical_reads_slots_by_its_own_names():
    slots = extract_slots(["a rooftop place for 6 people, vegan please"], "bars")
    assert slots["party"] == "6"
    assert "vibe" in slots
    assert "cuisine" not in slots  # TableScout reads cuisines; this entry does not


@pytest.mark.usefixtures("bars")
def test_a_new_vertical_parses_results_as_its_entry_says():
    payload = {"restaurants": [{"id": "r1", "name": "Sky Bar", "costForTwo": 2500}]}
    card = parse_tool_result("search_venues", json.dumps(payload), "bars")
    assert card.type == "restaurants"
    assert card.items[0].cost_for_two == 2500  # a table's price, in rupees (not paise)
