"""Search cards put in diet order: what may break the profile goes last, never hidden.

Applied when a card is drawn (the profile may change after the card was stored). Within
each run the ranking made (a group per thing asked for, the cards that fit, the rest set
aside) the cards that may conflict move after the others, keeping their own order, so
the ranking's runs and their sizes stay as they were.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import TypeVar

from swiggy_core.diet import DietProfile
from swiggy_core.diet_conflicts import Card, conflicts
from swiggy_core.parsers.catalog_results import ProductsResult, RestaurantsResult

Item = TypeVar("Item", bound=Card)
Result = TypeVar("Result", ProductsResult, RestaurantsResult)


@dataclass(frozen=True, slots=True)
class DietOrder:
    """How diet ordering changed one card: how many may conflict, how many moved."""

    flagged: int
    moved: int


def diet_ordered(card: Result, profile: DietProfile) -> tuple[Result, DietOrder]:
    """The card with its conflicting items moved last within each run, and the counts.

    A restaurant search's dishes are left as they are: they are drawn as a dish card of
    their own, which is ordered when it is drawn.
    """
    if not profile.restricts:
        return card, DietOrder(0, 0)
    items, flagged, moved = order_runs(card.items, profile, _runs(card))
    return card.model_copy(update={"items": items}), DietOrder(flagged, moved)


def order_runs(
    items: Sequence[Item], profile: DietProfile, cuts: Sequence[int]
) -> tuple[list[Item], int, int]:
    """Items reordered run by run (`cuts`: where each run ends), flagged and moved counts."""
    ordered: list[Item] = []
    flagged = moved = 0
    start = 0
    for end in cuts:
        run = list(items[start:end])
        marks = [bool(conflicts(item, profile)) for item in run]
        ordered += [item for item, bad in zip(run, marks, strict=True) if not bad]
        ordered += [item for item, bad in zip(run, marks, strict=True) if bad]
        flagged += sum(marks)
        moved += _moved(marks)
        start = end
    return ordered, flagged, moved


def _runs(card: ProductsResult | RestaurantsResult) -> list[int]:
    """Where each run of the ranking ends: its groups, the cards that fit, the rest."""
    total = len(card.items)
    fitting = card.fitting if card.fitting is not None else total
    groups = card.groups if isinstance(card, ProductsResult) else []
    cuts = [end for end in accumulate(group.size for group in groups) if end <= fitting]
    return sorted({*cuts, fitting, total})


def _moved(marks: Sequence[bool]) -> int:
    """Conflicting items with a fitting one after them (those that changed place)."""
    count = 0
    seen_fitting = False
    for bad in reversed(marks):
        if bad and seen_fitting:
            count += 1
        seen_fitting = seen_fitting or not bad
    return count
