"""The person's standing diet in the planner's picks: what may break it comes last.

The app tells the model the profile in each turn's context (`read_diet_note` reads it
back); the cards put what may break it last, so the planner orders its rows the same way
and "the first one" means the first card on screen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from swiggy_core.diet import DietProfile
from swiggy_core.diet_conflicts import conflicts
from swiggy_core.parsers import ProductItem

Row = TypeVar("Row")


def dish_item(dish: dict[str, Any]) -> ProductItem:
    """A menu dish (MI) as the card the app draws for it (what the diet check reads)."""
    veg = dish.get("isVeg")
    categories = dish.get("categories") or []
    return ProductItem(
        name=str(dish.get("name", "")),
        is_veg=bool(veg) if veg is not None else None,
        description=dish.get("description") if isinstance(dish.get("description"), str) else None,
        category=str(categories[0]) if categories else None,
    )


def product_item(product: dict[str, Any]) -> ProductItem:
    """A grocery product (SP) by its name and brand."""
    brand = product.get("brand")
    return ProductItem(
        name=str(product.get("displayName", "")),
        brand=brand if isinstance(brand, str) else None,
    )


def clashes(diet: DietProfile | None, row: Row, as_item: Callable[[Row], ProductItem]) -> bool:
    return diet is not None and bool(conflicts(as_item(row), diet))


def diet_first(
    diet: DietProfile | None, rows: Sequence[Row], as_item: Callable[[Row], ProductItem]
) -> list[Row]:
    """The rows that suit the diet first, each part in its own order."""
    if diet is None or not diet.restricts:
        return list(rows)
    marks = [clashes(diet, row, as_item) for row in rows]
    return [r for r, bad in zip(rows, marks, strict=True) if not bad] + [
        r for r, bad in zip(rows, marks, strict=True) if bad
    ]


def flagged_note(count: int, noun: str) -> str:
    """ " 2 dishes that may not suit your diet are last, flagged." (empty for none)."""
    if count == 0:
        return ""
    return (
        f" {count} {noun}{'' if count == 1 else 'es' if noun.endswith('sh') else 's'} that "
        f"may not suit your diet {'is' if count == 1 else 'are'} last, flagged."
    )
