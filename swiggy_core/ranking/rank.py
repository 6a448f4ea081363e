"""`rank(items, wants)`: the cards that fit first, best first, one group per thing asked."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from swiggy_core.parsers.catalog_results import ProductItem, RestaurantItem
from swiggy_core.ranking.facts import Facts, product_facts, restaurant_facts
from swiggy_core.ranking.score import Fit, fit
from swiggy_core.ranking.wants import Wants

Item = TypeVar("Item", ProductItem, RestaurantItem)


@dataclass(frozen=True, slots=True)
class Group:
    """A run of ranked items that answers one thing asked for ("Eggs": 3 cards)."""

    label: str
    size: int


@dataclass(frozen=True, slots=True)
class Ranked(Generic[Item]):
    """Items that fit (best first, group by group) and those set aside, with why."""

    items: list[Item]
    dropped: list[Item] = field(default_factory=list)
    groups: list[Group] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)  # most common first


@dataclass(frozen=True, slots=True)
class _Row(Generic[Item]):
    item: Item
    position: int
    available: bool
    fit: Fit


def rank(items: Sequence[Item], wants: Wants) -> Ranked[Item]:
    """Rank cards against what was asked; set aside (never lose) what breaks a rule.

    Ties keep the shop's own order, which already reflects its relevance and distance.
    When nothing fits every rule, nothing is set aside: the closest come first instead.
    """
    if not items or wants.empty:
        return Ranked(list(items))
    facts_of = _facts_reader(items[0])
    several = len(wants.things) > 1
    rows = []
    for position, item in enumerate(items):
        facts = facts_of(item)
        rows.append(_Row(item, position, facts.available, fit(facts, wants, several=several)))
    fitting = [row for row in rows if row.fit.set_aside is None]
    dropped = [row for row in rows if row.fit.set_aside is not None]
    if not fitting:
        fitting, dropped = rows, []
    fitting.sort(key=_group_order if several else _order)
    dropped.sort(key=_order)
    reasons = Counter(row.fit.set_aside for row in dropped if row.fit.set_aside)
    return Ranked(
        items=[row.item for row in fitting],
        dropped=[row.item for row in dropped],
        groups=_groups(fitting, wants) if several else [],
        reasons=[reason for reason, _ in reasons.most_common()],
    )


def _facts_reader(sample: ProductItem | RestaurantItem) -> Callable[[Item], Facts]:
    if isinstance(sample, RestaurantItem):
        return restaurant_facts  # type: ignore[return-value]
    return product_facts  # type: ignore[return-value]


def _order(row: _Row[Item]) -> tuple[bool, float, int]:
    """In stock (or open) first, then the best score, then the shop's order."""
    return (not row.available, -row.fit.score, row.position)


def _group_order(row: _Row[Item]) -> tuple[int, bool, float, int]:
    return (row.fit.thing, *_order(row))


def _groups(rows: list[_Row[Item]], wants: Wants) -> list[Group]:
    sizes = Counter(row.fit.thing for row in rows)
    return [
        Group(label=_label(thing.said), size=sizes[index])
        for index, thing in enumerate(wants.things)
        if sizes[index]
    ]


def _label(said: str) -> str:
    return said[:1].upper() + said[1:]
