"""A small ranked keyword search: tokens, light stemming, synonyms, weighted fields."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Generic, TypeVar

T = TypeVar("T")

_STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "the",
        "for",
        "of",
        "in",
        "on",
        "to",
        "with",
        "near",
        "me",
        "my",
        "some",
        "i",
        "want",
        "need",
        "buy",
        "order",
        "get",
        "please",
        "best",
        "good",
        "nice",
        "any",
        "show",
        "find",
        "under",
        "from",
    ]
)
# Map spellings people type onto the words the catalog uses.
_SYNONYMS = {
    "dahi": "curd",
    "yoghurt": "yogurt",
    "cleanser": "wash",
    "facewash": "wash",
    "sunblock": "sunscreen",
    "moisturizer": "moisturiser",
    "moisturising": "moisturiser",
    "moisturizing": "moisturiser",
    "wafer": "chip",
    "chai": "tea",
    "kaju": "cashew",
    "badam": "almond",
    "biriyani": "biryani",
    "briyani": "biryani",
    "colour": "color",
    "aloo": "potato",
    "palak": "spinach",
    "dhania": "coriander",
    "anar": "pomegranate",
    "curd-rice": "curd",
    "icecream": "ice",
    "shake": "shake",
    "deo": "deodorant",
    "doughnut": "vada",
    "tiffin": "tiffin",
    "veggie": "veg",
    "vegetarian": "veg",
}
_TOKEN = re.compile(r"[a-z0-9%]+")
Field = tuple[str, float]


def singular(word: str) -> str:
    """A plural's singular by the common English endings ("berries" → "berry", "eggs" → "egg")."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def tokens(text: str) -> list[str]:
    """Normalised search tokens of a text (stopwords dropped)."""
    out = []
    for raw in _TOKEN.findall(text.lower().replace("'", "")):
        if raw in _STOPWORDS:
            continue
        word = _SYNONYMS.get(raw, raw)
        out.append(singular(_SYNONYMS.get(singular(word), word)))
    return out


class Index(Generic[T]):
    """Items with precomputed weighted token sets, searched by `rank`."""

    def __init__(self, items: Iterable[T], fields: Callable[[T], Sequence[Field]]) -> None:
        self._entries: list[tuple[T, dict[str, float]]] = []
        for item in items:
            weights: dict[str, float] = {}
            for text, weight in fields(item):
                for token in tokens(text):
                    weights[token] = max(weights.get(token, 0.0), weight)
            self._entries.append((item, weights))

    def rank(self, query: str) -> list[T]:
        """Items matching most query tokens first; ties keep catalog order."""
        wanted = list(dict.fromkeys(tokens(query)))
        if not wanted:
            return [item for item, _ in self._entries]
        needed = len(wanted) if len(wanted) <= 2 else math.ceil(len(wanted) * 0.6)
        scored = []
        for position, (item, weights) in enumerate(self._entries):
            hits = [weights[token] for token in wanted if token in weights]
            if len(hits) >= needed:
                scored.append((-sum(hits), position, item))
        scored.sort(key=lambda row: (row[0], row[1]))
        return [item for _, _, item in scored]
