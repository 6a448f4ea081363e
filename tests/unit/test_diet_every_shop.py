"""The diet profile is applied in every shop: on each shop's own search (the sandbox's real
tools through the offline planner, parsed by the app's parsers) a card naming something you
avoid is flagged, said as likely, and drawn after the cards that suit you; none is dropped."""

from __future__ import annotations

import json
import re

import pytest
from offline_shopper import Shopper

from swiggy_core.diet import DietProfile
from swiggy_core.diet_conflicts import conflicts
from swiggy_core.diet_order import diet_ordered
from swiggy_core.parsers import ProductsResult, RestaurantsResult, parse_tool_result
from swiggy_sandbox.shop import Shop

SEARCHES = {
    "food": "find paneer",
    "style": "find shampoo",
    "foodorder": "find biryani",
    "dining": "find a table for dinner tonight",
}


def _searched(vertical_id: str) -> ProductsResult | RestaurantsResult:
    shop = Shop()
    shopper = Shopper(shop, vertical_id, "diet-tester")
    shopper.say(SEARCHES[vertical_id])
    for tool, arguments, envelope in shopper.calls:
        text = json.dumps(envelope)
        card = parse_tool_result(tool, text, vertical_id, arguments)
        if isinstance(card, ProductsResult | RestaurantsResult) and len(card.items) >= 2:
            return card
    raise AssertionError(f"no search with two or more cards in {vertical_id}: {shopper.calls}")


def _word_only_in(name: str, others: list[str]) -> str:
    """A word of `name` (four letters or more) that no other card's name has."""
    for word in sorted(re.findall(r"[A-Za-z]{4,}", name), key=len, reverse=True):
        if not any(word.lower() in other.lower() for other in others):
            return word.lower()
    raise AssertionError(f"no word of {name!r} is its own among {others}")


@pytest.mark.parametrize("vertical_id", list(SEARCHES))
def test_a_card_you_avoid_is_flagged_and_drawn_after_the_rest(vertical_id: str) -> None:
    card = _searched(vertical_id)
    names = [item.name for item in card.items]
    avoided = _word_only_in(names[0], names[1:])
    profile = DietProfile(dislikes=(avoided,))
    found = conflicts(card.items[0], profile)
    assert found and all(c.reason.startswith("You avoid ") for c in found), found
    assert not any(conflicts(item, profile) for item in card.items[1:])
    ordered, order = diet_ordered(card, profile)
    assert sorted(item.name for item in ordered.items) == sorted(names)  # never dropped
    assert (order.flagged, order.moved) == (1, 1)
    assert [item.name for item in ordered.items] == [*names[1:], names[0]]
