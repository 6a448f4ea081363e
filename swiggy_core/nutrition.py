"""A grocery cart's protein and calories, estimated: never a fact about the products.

Swiggy's documented product data has no nutrition fields. The estimate reads what a cart
line does carry (its name and pack size, "500 g", "6 pcs", "2 x 200 ml") against a small
table of typical values for common staples. A line whose name is no known staple, or whose
pack size cannot be read, has no basis: it is counted as "no estimate", never guessed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from swiggy_core.diet import DietProfile
from swiggy_core.parsers import CartLine
from swiggy_core.ranking.amounts import Amount, pack_amount
from swiggy_core.ranking.lexicon import lexicon
from swiggy_core.ranking.words import padded, phrase, raw_tokens


@dataclass(frozen=True, slots=True)
class Typical:
    """Typical values of a staple per 100 g (or 100 ml), and per piece where sold so."""

    protein_g: float
    kcal: float
    grams_per_piece: float | None = None


# Typical values (Indian food composition tables, rounded). Longer names first, so
# "peanut butter" is not read as butter. Liquids count 100 ml as 100 g.
TYPICAL: Final[dict[str, Typical]] = {
    "peanut butter": Typical(25.0, 590.0),
    "soya chunk": Typical(52.0, 345.0),
    "milk": Typical(3.2, 60.0),
    "curd": Typical(3.1, 60.0),
    "yogurt": Typical(3.5, 70.0),
    "paneer": Typical(18.0, 265.0),
    "cheese": Typical(20.0, 350.0),
    "butter": Typical(0.9, 717.0),
    "ghee": Typical(0.0, 900.0),
    "egg": Typical(12.6, 143.0, grams_per_piece=50.0),
    "chicken": Typical(19.0, 190.0),
    "fish": Typical(20.0, 120.0),
    "tofu": Typical(13.0, 145.0),
    "dal": Typical(22.0, 345.0),
    "rajma": Typical(22.0, 333.0),
    "chana": Typical(20.0, 360.0),
    "besan": Typical(22.0, 387.0),
    "peanut": Typical(26.0, 567.0),
    "rice": Typical(7.0, 360.0),
    "atta": Typical(12.0, 340.0),
    "maida": Typical(10.0, 350.0),
    "rava": Typical(10.0, 350.0),
    "poha": Typical(6.6, 350.0),
    "oat": Typical(13.0, 380.0),
    "bread": Typical(8.5, 265.0),
    "potato": Typical(2.0, 77.0),
    "onion": Typical(1.1, 40.0),
    "tomato": Typical(0.9, 18.0),
    "banana": Typical(1.1, 89.0, grams_per_piece=120.0),
    "sugar": Typical(0.0, 390.0),
    "oil": Typical(0.0, 884.0),
}
_PER: Final = 100.0


@dataclass(frozen=True, slots=True)
class NutritionEstimate:
    """A cart's estimated protein and calories, and how many lines had no basis."""

    protein_g: float
    kcal: float
    estimated: int  # lines with a basis (a known staple and a readable pack size)
    without_basis: int  # lines with none: not counted, and said so

    @property
    def any(self) -> bool:
        return self.estimated > 0


def estimate_cart(lines: Sequence[CartLine]) -> NutritionEstimate:
    """The cart's estimate: each line's pack × quantity against its staple's typical values."""
    protein = kcal = 0.0
    estimated = 0
    for line in lines:
        grams = _grams(line)
        staple = _staple(line.name)
        if grams is None or staple is None:
            continue
        typical = TYPICAL[staple]
        protein += typical.protein_g * grams / _PER
        kcal += typical.kcal * grams / _PER
        estimated += 1
    return NutritionEstimate(protein, kcal, estimated, len(lines) - estimated)


def goal_share(estimate: NutritionEstimate, profile: DietProfile) -> str | None:
    """ "About 2.5 days of your 60 g daily protein goal" (None without a goal or basis)."""
    if not estimate.any:
        return None
    if profile.protein_goal_g:
        days = estimate.protein_g / profile.protein_goal_g
        return f"About {days:.1f} days of your {profile.protein_goal_g} g daily protein goal"
    if profile.calorie_goal_kcal:
        days = estimate.kcal / profile.calorie_goal_kcal
        return f"About {days:.1f} days of your {profile.calorie_goal_kcal:,} kcal daily goal"
    return None


def _grams(line: CartLine) -> float | None:
    """The line's weight in grams (100 ml counted as 100 g), pieces only for staples sold
    by the piece; None when the pack size cannot be read."""
    amount = pack_amount(line.quantity_description) or pack_amount(line.name)
    if amount is None or amount.value <= 0:
        return None
    per_pack = _pack_grams(amount, _staple(line.name))
    return per_pack * line.quantity if per_pack is not None else None


def _pack_grams(amount: Amount, staple: str | None) -> float | None:
    if amount.unit != "pcs":
        return amount.value
    piece = TYPICAL[staple].grams_per_piece if staple is not None else None
    return amount.value * piece if piece is not None else None


def _staple(name: str) -> str | None:
    """The first staple the name mentions (as whole words, synonyms applied)."""
    words = padded(lexicon().synonyms.rewrite(" ".join(raw_tokens(name))).split())
    return next((staple for staple in TYPICAL if f" {phrase(staple)} " in words), None)
