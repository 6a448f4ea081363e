"""The offline planner follows the standing diet the turn context carries: its pick suits
the diet when any dish does, and "the first one" is the first card on screen."""

from __future__ import annotations

from typing import Any

from swiggy_core.diet import DietProfile, diet_note_for_model
from swiggy_sandbox.planner.diet_picks import diet_first, dish_item
from swiggy_sandbox.planner.food_replies import menu_dishes, menu_reply
from swiggy_sandbox.planner.session import request_diet

VEGETARIAN = DietProfile(diet="vegetarian")


def _menu() -> dict[str, Any]:
    """A menu in get_restaurant_menu's documented shape (`isVeg` as Swiggy sends it)."""
    dishes = [
        ("Chicken Dum Biryani", 0, 31400),
        ("Mutton Biryani", 0, 38900),
        ("Veg Dum Biryani", 1, 25900),
        ("Paneer Biryani", 1, 28900),
    ]
    items = [
        {"id": str(n), "name": name, "price": price, "inStock": 1, "isVeg": veg}
        for n, (name, veg, price) in enumerate(dishes)
    ]
    return {"restaurant": {"id": "397693", "name": "Paradise Biryani"}, "items": items}


def test_the_menu_reply_picks_a_dish_that_suits_the_diet_and_counts_the_rest() -> None:
    menu = _menu()
    plain = menu_reply(menu, ["chicken", "biryani"])
    assert "Chicken" in plain and "may not suit your diet" not in plain
    veg = menu_reply(menu, ["chicken", "biryani"], VEGETARIAN)
    assert "Veg Dum Biryani (₹259) is a good pick" in veg
    assert "2 dishes that may not suit your diet are last, flagged." in veg


def test_the_first_dish_is_the_first_that_suits_the_diet() -> None:
    dishes = menu_dishes(_menu())
    ordered = diet_first(VEGETARIAN, dishes, dish_item)
    assert sorted(d["id"] for d in ordered) == sorted(d["id"] for d in dishes)
    assert ordered[0]["isVeg"] and not diet_first(None, dishes, dish_item)[0]["isVeg"]


def test_the_planner_reads_the_profile_from_the_newest_turn_context() -> None:
    note = diet_note_for_model(VEGETARIAN)
    assert note is not None
    messages = [
        {
            "role": "user",
            "content": [{"type": "text", "text": "hi"}, {"type": "text", "text": note}],
        }
    ]
    assert request_diet("system", messages) == VEGETARIAN
    assert request_diet("system", [{"role": "user", "content": "hi"}]) is None
