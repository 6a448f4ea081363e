"""The shopping words of `lexicon.toml`, read once into typed records."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from swiggy_core.ranking.amounts import Amount, pack_amount
from swiggy_core.ranking.words import Synonyms, phrase, raw_tokens

LEXICON_PATH = Path(__file__).with_name("lexicon.toml")


@dataclass(frozen=True, slots=True)
class Category:
    """A kind of product: the words that ask for it and the words that make an item it."""

    name: str
    asked: tuple[str, ...]
    items: tuple[str, ...]
    max_pack: Amount | None


@dataclass(frozen=True, slots=True)
class Diet:
    """A diet a request can name and the food groups that do not suit it."""

    name: str
    said: tuple[str, ...]
    avoids: frozenset[str]
    set_aside: str  # why an item was set aside, said to the person ("not vegetarian")


@dataclass(frozen=True, slots=True)
class Lexicon:
    """Everything the ranking knows about words, in the form `raw_tokens` produces."""

    synonyms: Synonyms
    stopwords: frozenset[str]
    avoid_before: frozenset[str]
    avoid_after: frozenset[str]
    pieces: frozenset[str]
    categories: tuple[Category, ...]
    diets: tuple[Diet, ...]
    food_groups: dict[str, tuple[str, ...]]
    numbers: dict[str, float]

    def words(self, text: str) -> list[str]:
        """A text's words after synonyms ("Dahi" → curd), numbers and units kept."""
        rewritten = self.synonyms.rewrite(" ".join(raw_tokens(text)))
        return rewritten.split()


def _entries(values: Any) -> tuple[str, ...]:
    """Lexicon phrases in comparable form, synonyms applied later by the caller."""
    return tuple(dict.fromkeys(p for p in (phrase(str(value)) for value in values or ()) if p))


def _category(name: str, raw: dict[str, Any], synonyms: Synonyms) -> Category:
    return Category(
        name=name,
        asked=tuple(synonyms.rewrite(entry) for entry in _entries(raw.get("asked"))),
        items=tuple(synonyms.rewrite(entry) for entry in _entries(raw.get("items"))),
        max_pack=pack_amount(raw.get("max_pack")),
    )


def _diet(name: str, raw: dict[str, Any]) -> Diet:
    # A diet's own words are matched before synonyms: "egg only" must not become "egg".
    return Diet(
        name=name,
        said=tuple(sorted(_entries(raw.get("said")), key=len, reverse=True)),
        avoids=frozenset(str(group) for group in raw.get("avoids", ())),
        set_aside=str(raw.get("set_aside", f"not {name}")),
    )


@cache
def lexicon() -> Lexicon:
    """The shipped lexicon (read once per process)."""
    data = tomllib.loads(LEXICON_PATH.read_text(encoding="utf-8"))
    synonyms = Synonyms(data.get("synonyms", ()))
    groups = {
        str(group): tuple(synonyms.rewrite(entry) for entry in _entries(words))
        for group, words in data.get("food_groups", {}).items()
    }
    return Lexicon(
        synonyms=synonyms,
        stopwords=frozenset(_entries(data.get("stopwords"))),
        avoid_before=frozenset(_entries(data.get("avoid_markers_before"))),
        avoid_after=frozenset(_entries(data.get("avoid_markers_after"))),
        pieces=frozenset(synonyms.rewrite(e) for e in _entries(data.get("pieces"))),
        categories=tuple(
            _category(name, raw, synonyms) for name, raw in data.get("categories", {}).items()
        ),
        diets=tuple(_diet(name, raw) for name, raw in data.get("diets", {}).items()),
        food_groups=groups,
        numbers={phrase(word): float(value) for word, value in data.get("numbers", {}).items()},
    )
