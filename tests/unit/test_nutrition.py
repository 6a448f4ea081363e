"""A grocery cart's nutrition estimate: from the pack sizes the lines carry and typical
values, never guessed where there is no basis, compared with the person's daily goal."""

from __future__ import annotations

from pathlib import Path

import pytest

from swiggy_core.diet import DietProfile
from swiggy_core.nutrition import TYPICAL, estimate_cart, goal_share
from swiggy_core.parsers import CartLine, CartResult, parse_tool_result

PAYLOADS = Path(__file__).resolve().parents[1] / "fixtures" / "payloads"


def test_a_real_shaped_cart_is_estimated_from_its_pack_sizes() -> None:
    payload = (PAYLOADS / "instamart_get_cart.json").read_text()
    cart = parse_tool_result("get_cart", [{"type": "text", "text": payload}], "food")
    assert isinstance(cart, CartResult)
    estimate = estimate_cart(cart.items)
    milk = next(line for line in cart.items if "Milk" in line.name)
    yogurt = next(line for line in cart.items if "Yogurt" in line.name)
    expected_protein = (
        TYPICAL["milk"].protein_g * 5 * milk.quantity
        + TYPICAL["yogurt"].protein_g * 0.85 * yogurt.quantity
    )
    assert estimate.protein_g == pytest.approx(expected_protein)
    assert (estimate.estimated, estimate.without_basis) == (2, 0)


def test_quantities_pieces_and_several_packs_count() -> None:
    lines = [
        CartLine(name="Farm Fresh Eggs", quantity=2, quantity_description="6 pcs"),
        CartLine(name="Tata Sampann Toor Dal", quantity_description="2 x 500 g"),
        CartLine(name="Amul Masti Dahi", quantity_description="1 kg"),
    ]
    estimate = estimate_cart(lines)
    egg, dal, curd = TYPICAL["egg"], TYPICAL["dal"], TYPICAL["curd"]
    assert estimate.protein_g == pytest.approx(
        egg.protein_g * 6 + dal.protein_g * 10 + curd.protein_g * 10
    )
    assert estimate.kcal == pytest.approx(egg.kcal * 6 + dal.kcal * 10 + curd.kcal * 10)


def test_lines_without_a_basis_are_counted_never_guessed() -> None:
    lines = [
        CartLine(name="Lay's Classic Salted Chips", quantity_description="52 g"),  # no staple
        CartLine(name="Aashirvaad Atta"),  # no pack size
        CartLine(name="Onion", quantity_description="1 pc"),  # pieces of a staple sold by weight
    ]
    estimate = estimate_cart(lines)
    assert not estimate.any
    assert (estimate.protein_g, estimate.kcal, estimate.without_basis) == (0.0, 0.0, 3)
    assert goal_share(estimate, DietProfile(protein_goal_g=60)) is None


def test_peanut_butter_is_not_read_as_butter() -> None:
    line = CartLine(name="Pintola Peanut Butter", quantity_description="350 g")
    assert estimate_cart([line]).protein_g == pytest.approx(
        TYPICAL["peanut butter"].protein_g * 3.5
    )


def test_the_estimate_is_compared_with_the_daily_goal() -> None:
    estimate = estimate_cart([CartLine(name="Paneer", quantity_description="500 g")])
    assert goal_share(estimate, DietProfile(protein_goal_g=60)) == (
        "About 1.5 days of your 60 g daily protein goal"
    )
    calories = goal_share(estimate, DietProfile(calorie_goal_kcal=2000))
    assert calories == "About 0.7 days of your 2,000 kcal daily goal"
    assert goal_share(estimate, DietProfile()) is None
