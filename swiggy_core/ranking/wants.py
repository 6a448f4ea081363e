"""What a request asks for, as a typed `Wants` record ("veg snacks under ₹200, 2 packs")."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from swiggy_core.ranking.amounts import UNITS, Amount
from swiggy_core.ranking.clauses import read_budget, read_count, read_diet, read_party, read_size
from swiggy_core.ranking.lexicon import Category, Diet, lexicon
from swiggy_core.ranking.words import has_phrase, padded, phrase

# Several things in one request: "milk, eggs and bread", "shampoo & conditioner".
_SEVERAL_RE = re.compile(r"\s*(?:[,;\n/+&]|\band\b|\bplus\b|\bas well as\b)\s*")
# What a thing is for ("face wash for oily skin") weighs less than the thing itself.
_FOR_RE = re.compile(r"\bfor\b")
# Punctuation that separates things (",", "&", "+", "/") stays for `_SEVERAL_RE`.
_CLEAN_RE = re.compile(r"[^\w%.'\-,;/+&\n ]+")


@dataclass(frozen=True, slots=True)
class Thing:
    """One thing asked for: its words (the head noun last) and what suits it."""

    said: str  # as the person put it, for a group heading ("Eggs")
    words: tuple[str, ...]  # what it is, normalised; the last is the head noun
    qualifiers: tuple[str, ...] = ()  # what it is for ("oily", "skin")
    category: Category | None = None  # "snacks": a kind of product, not a product name
    size: Amount | None = None  # a pack size asked for ("1 kg")

    @property
    def head(self) -> str | None:
        """The noun that says what the thing is ("snack" in "high protein snacks")."""
        return self.words[-1] if self.words else None

    @property
    def max_pack(self) -> Amount | None:
        """The largest pack that still suits the thing's kind (snacks: 500 g)."""
        return self.category.max_pack if self.category else None


@dataclass(frozen=True, slots=True)
class Wants:
    """Everything a request asks for, read from the search query and the person's words."""

    things: tuple[Thing, ...] = ()
    diet: Diet | None = None
    budget: float | None = None  # rupees for everything asked (price × quantity)
    quantity: int | None = None  # how many packs
    party: int | None = None  # how many people a meal or table is for
    avoid: tuple[str, ...] = ()  # words the person wants less of ("sugar" in "low sugar")

    @property
    def words(self) -> tuple[str, ...]:
        """The words of every thing asked for, in order."""
        return tuple(word for thing in self.things for word in thing.words)

    @property
    def category(self) -> Category | None:
        """The kind of product asked for, when one thing is asked for by its kind."""
        return self.things[0].category if len(self.things) == 1 else None

    @property
    def empty(self) -> bool:
        """Nothing to rank by."""
        return not (self.things or self.diet or self.budget or self.avoid)


def read_wants(query: str | None, request: str | None = None) -> Wants:
    """The wants of a search: its query says what; the person's request adds conditions.

    The query is what was searched for this card set, so its words decide what leads;
    the request ("veg momos under 200", searched as "momos") fills in the diet, budget and
    quantity the query left out. Without a query the request says what, too.
    """
    searched = _read(query or "")
    asked = _read(request or "")
    return Wants(
        things=searched.things or asked.things,
        diet=searched.diet or asked.diet,
        budget=searched.budget or asked.budget,
        quantity=searched.quantity or asked.quantity,
        party=searched.party or asked.party,
        avoid=tuple(dict.fromkeys((*searched.avoid, *asked.avoid))),
    )


@lru_cache(maxsize=256)  # a chat's searches repeat their words; Wants is immutable
def _read(text: str) -> Wants:
    text = _CLEAN_RE.sub(" ", text.lower().replace("₹", " rs "))
    if not text.strip():
        return Wants()
    budget, text = read_budget(text)
    diet, text = read_diet(text)
    party, text = read_party(text)
    things: list[Thing] = []
    quantity: int | None = None
    avoid: list[str] = []
    for chunk in _SEVERAL_RE.split(text):
        thing, count, avoided = _thing(chunk)
        quantity = quantity or count
        avoid.extend(avoided)
        if thing is not None:
            things.append(thing)
    return Wants(tuple(things), diet, budget, quantity, party, tuple(avoid))


def _thing(chunk: str) -> tuple[Thing | None, int | None, list[str]]:
    """One thing of a request, the number of packs it asks for and the words to avoid."""
    size, chunk = read_size(chunk)
    count, pieces, chunk = read_count(chunk, _sold_by_piece)
    main, purpose = _split_purpose(chunk)
    words, avoid = _content_words(main)
    qualifiers, avoid_too = _content_words(purpose)
    if not words:  # "something for breakfast": what it is for is all there is
        words, qualifiers = qualifiers, []
    if not words:
        return None, count, [*avoid, *avoid_too]
    thing = Thing(
        said=_said(main) or _said(purpose),
        words=tuple(words),
        qualifiers=tuple(qualifiers),
        category=_category(words),
        size=size or pieces,
    )
    return thing, count, [*avoid, *avoid_too]


def _said(text: str) -> str:
    """The words as typed, without leading filler ("of chips" → "chips")."""
    said = text.split()
    stopwords = lexicon().stopwords
    while said and phrase(said[0]) in stopwords:
        said.pop(0)
    return " ".join(said)


def _split_purpose(chunk: str) -> tuple[str, str]:
    """ "face wash for oily skin" → ("face wash ", " oily skin")."""
    parts = _FOR_RE.split(chunk, maxsplit=1)
    return (parts[0], parts[1]) if len(parts) == 2 else (chunk, "")


def _content_words(text: str) -> tuple[list[str], list[str]]:
    """The words that name something, and the ones marked as unwanted ("low sugar")."""
    vocab = lexicon()
    words: list[str] = []
    avoid: list[str] = []
    marked = False
    for word in vocab.words(text):
        if word in vocab.avoid_before:
            marked = True
            continue
        if word in vocab.avoid_after and words:
            avoid.append(words.pop())
            continue
        if word in vocab.stopwords or word in UNITS or not word.isalpha() or len(word) < 2:
            continue
        (avoid if marked else words).append(word)
        marked = False
    return words, avoid


def _category(words: list[str]) -> Category | None:
    """The kind asked for, when the thing ends in a kind's own word ("protein snacks")."""
    tail = padded(words)
    found = [
        (len(asked), category)
        for category in lexicon().categories
        for asked in category.asked
        if tail.endswith(f" {asked} ") and has_phrase(tail, asked)
    ]
    return max(found, key=lambda row: row[0])[1] if found else None


def _sold_by_piece(word: str) -> bool:
    vocab = lexicon()
    return any(normal in vocab.pieces for normal in vocab.words(word))
