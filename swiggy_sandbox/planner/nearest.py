"""After a miss, the two or three nearest things a shop can do, offered as chips.

A person who asked for something the shop doesn't have should tap their way on, not read
instructions. What the shop can do comes from its catalogue (grocery and beauty kinds,
cuisines, venue styles) standing in for a model's knowledge; "nearest" means sharing the
most words with the request (typos forgiven), else the shop's own starter prompts.
"""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache

from swiggy_core.actions import suggestion_markup
from swiggy_core.verticals import get_vertical
from swiggy_sandbox.catalog import load_catalog
from swiggy_sandbox.catalog.search import tokens
from swiggy_sandbox.planner.common import starter_prompts

# Two or three chips: one is a dead end, more is a menu to read.
MOST = 3
FEWEST = 2
# How alike two words must be to count as a typo of each other ("biriyani", "shampo").
_TYPO_RATIO = 0.8
# Words whose nearest kind shares no word with them ("a bar" is for cocktails or beer).
_RELATED = {
    "bar": "cocktails brewpub craft beer lounge",
    "pub": "brewpub craft beer",
    "drinks": "cocktails brewpub lounge",
    "karaoke": "live music lively",
    "music": "live music jazz",
    "party": "large groups lively birthdays",
    "kids": "family casual",
    "cheap": "casual",
    "noodles": "chinese asian",
    "sushi": "japanese asian",
    "ramen": "japanese asian noodles",
    "thai": "asian",
    "cream": "moisturiser",
    "ageing": "serum",
    "wrinkles": "serum",
    "acne": "face wash serum",
}


@dataclass(frozen=True)
class _Thing:
    """Something a shop can find: the request that finds it and the words it answers to."""

    request: str
    words: frozenset[str]


def nearest(
    vertical: str, said: str, suffix: str = "", fallback: list[str] | None = None
) -> list[str]:
    """Requests this shop can serve that are nearest to what was `said`.

    `suffix` keeps the person's own details on each chip (" for 4 tomorrow"); when too
    little is near, `fallback` (else the shop's starter prompts) fills the row.
    """
    wanted = set(tokens(said))
    wanted |= {word for said_word in list(wanted) for word in tokens(_RELATED.get(said_word, ""))}
    things = enumerate(_things(vertical))
    scored = [(_score(wanted, thing), index, thing) for index, thing in things]
    ranked = sorted(scored, key=lambda row: (-row[0], row[1]))
    chosen = [f"{thing.request}{suffix}" for score, _index, thing in ranked[:MOST] if score > 0]
    for prompt in starter_prompts(vertical) if fallback is None else fallback:
        if len(chosen) >= FEWEST:
            break
        if prompt not in chosen:
            chosen.append(prompt)
    return chosen


def with_chips(text: str, requests: list[str]) -> str:
    """The reply with its chips after it."""
    return f"{text}\n\n{suggestion_markup(requests)}" if requests else text


def _score(wanted: set[str], thing: _Thing) -> float:
    shared = len(wanted & thing.words)
    typos = sum(1 for word in wanted - thing.words if _near_any(word, thing.words))
    return shared + 0.5 * typos


def _near_any(word: str, words: frozenset[str]) -> bool:
    if len(word) < 4:
        return False
    similar = (o for o in words if abs(len(word) - len(o)) <= 2)
    return any(SequenceMatcher(None, word, other).ratio() >= _TYPO_RATIO for other in similar)


@lru_cache(maxsize=8)
def _things(vertical_id: str) -> tuple[_Thing, ...]:
    vertical = get_vertical(vertical_id)
    if vertical.books_tables:
        return _venue_kinds()
    if vertical.search_lists == "dishes":
        return _cuisines()
    return _product_kinds(beauty=vertical.product_look == "beauty")


def _product_kinds(*, beauty: bool) -> tuple[_Thing, ...]:
    """One thing per kind of product ("digestive biscuits"), answering to its tags too."""
    words: dict[str, set[str]] = {}
    for product in load_catalog().products:
        if (product.category == "beauty") == beauty:
            kind = product.sub_category
            words.setdefault(kind, set()).update(tokens(" ".join([kind, *product.tags])))
    return tuple(_Thing(kind.capitalize(), frozenset(found)) for kind, found in words.items())


def _cuisines() -> tuple[_Thing, ...]:
    """One thing per cuisine, answering to the dishes its restaurants cook."""
    words: dict[str, set[str]] = {}
    for restaurant in load_catalog().restaurants:
        dishes = " ".join(dish.name for dish in restaurant.dishes)
        for cuisine in restaurant.cuisines:
            words.setdefault(cuisine, set()).update(tokens(f"{cuisine} {dishes}"))
    return tuple(_Thing(cuisine, frozenset(found)) for cuisine, found in words.items())


def _venue_kinds() -> tuple[_Thing, ...]:
    """Cuisines and styles of the places that take bookings ("Rooftop", "North Indian")."""
    words: dict[str, set[str]] = {}
    for venue in load_catalog().venues:
        for kind in [*venue.cuisines, *venue.tags]:
            label = kind[:1].upper() + kind[1:]
            words.setdefault(label, set()).update(tokens(f"{kind} {venue.name}"))
    return tuple(_Thing(label, frozenset(found)) for label, found in words.items())
