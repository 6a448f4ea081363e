"""Everyday requests → the searches a catalogue understands."""

from __future__ import annotations

from swiggy_sandbox.planner.dineout_replies import venue_query
from swiggy_sandbox.planner.wishes import Wish, best_rated, food_wish, grocery_wish, style_wish


def _queries(wish: Wish | None) -> tuple[str, ...]:
    assert wish is not None
    return wish.queries


def test_grocery_wishes() -> None:
    assert _queries(grocery_wish("eggs and bread for breakfast")) == ("eggs", "bread")
    paneer = _queries(grocery_wish("ingredients for paneer tonight"))
    assert paneer == ("paneer", "tomato", "fresh cream")
    assert grocery_wish("Plan 3 high-protein veg dinners for two") is not None
    assert grocery_wish("find oats") is None  # a plain search stays one search


def test_style_wishes() -> None:
    assert _queries(style_wish("help with dandruff and a dry scalp"))[0] == "anti dandruff shampoo"
    wish = style_wish("a fragrance-free sunscreen for sensitive skin")
    assert wish is not None and wish.queries == ("sunscreen for sensitive skin",)
    assert "fragrance free" in wish.intro
    assert style_wish("find a sunscreen") is None


def test_food_wishes() -> None:
    assert food_wish("something spicy under ₹300")[0] == "andhra"
    assert food_wish("best-rated pizza in 30 minutes")[0] == "pizza"
    assert food_wish("chinese for two")[0] == "chinese"
    dish, intro = food_wish("a biryani and a coke")
    assert dish == "biryani" and "coke" in intro


def test_best_rated_within_minutes() -> None:
    places = [
        {"name": "Slow", "avgRating": 4.8, "deliveryTimeRange": "50-55 mins"},
        {"name": "Quick", "avgRating": 4.1, "deliveryTimeRange": "25-30 mins"},
    ]
    assert "**Quick**" in best_rated(places, "best-rated pizza in 30 minutes")
    assert "**Slow**" in best_rated(places, "best rated pizza")
    assert best_rated(places, "pizza") == ""
    assert best_rated([], "best-rated pizza") == ""  # nothing open: no claim


def test_one_term_dineout_queries() -> None:
    assert venue_query("a romantic rooftop dinner for two this saturday") == "rooftop"
    assert venue_query("family-friendly north indian place for 6 tonight") == "north indian"
    assert venue_query("south indian breakfast") == "south indian"
    assert venue_query("chinese for two") == "asian"
    assert venue_query("brunch this weekend") == "brunch"
    assert venue_query("table for 4 near indiranagar") == "indiranagar"
