"""What ranking reads from a card: its words by field, kinds, food groups, price, packs."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

from swiggy_core.parsers.catalog_results import ProductItem, RestaurantItem
from swiggy_core.ranking.amounts import UNITS, Amount, pack_amount
from swiggy_core.ranking.lexicon import lexicon

# How much a word counts by where it was found: the name says what an item is; a brand
# or a category says it less surely; a description or a locality only hints.
NAME_WEIGHT = 1.0
BRAND_WEIGHT = 0.6
CATEGORY_WEIGHT = 0.6
HINT_WEIGHT = 0.3
_DESCRIPTION_CHARS = 160
_NOT_VEG = frozenset({"meat", "egg"})
_LONGEST_PHRASE = 3
# Names, brands and pack sizes repeat across searches and reruns: each is read once.
_NAMES_KEPT = 4096  # words in the longest lexicon phrase a name is searched for


@dataclass(frozen=True, slots=True)
class Facts:
    """One card as ranking sees it."""

    words: dict[str, float]  # word → the weight of the field it was found in
    name: str  # the name's words, space-joined (for whole-name similarity)
    head: str | None  # the name's last word: what the item is ("bar" in "protein bar")
    kinds: frozenset[str]  # categories its name puts it in (snacks, drinks…)
    groups: frozenset[str]  # food groups its name puts it in (meat, egg, root, dairy)
    marked_veg: bool | None  # the shop's own veg mark, when it gave one
    price: float | None  # rupees for one, as the card shows it
    packs: tuple[Amount, ...]  # every pack size on offer
    available: bool  # in stock, or open


def product_facts(item: ProductItem) -> Facts:
    """A grocery product's or a dish's facts."""
    name = _without_brand(item.name, item.brand)
    name_words = _named(name)
    section = _named(item.category or "")
    words = _weighed(
        (name_words, NAME_WEIGHT),
        (_named(item.brand or ""), BRAND_WEIGHT),
        (section, CATEGORY_WEIGHT),
        (_named((item.description or "")[:_DESCRIPTION_CHARS]), HINT_WEIGHT),
    )
    sizes = [item.quantity_description, *(v.quantity_description for v in item.variations)]
    packs = tuple(dict.fromkeys(a for a in map(_pack, sizes) if a is not None))
    groups = _groups((*name_words, *section))
    if item.is_veg:  # the shop's own veg mark outweighs a menu section's words
        groups -= _NOT_VEG
    return Facts(
        words=words,
        name=" ".join(name_words),
        head=name_words[-1] if name_words else None,
        kinds=_kinds(name_words),
        groups=groups,
        marked_veg=item.is_veg,
        price=item.price,
        packs=packs,
        available=item.in_stock,
    )


def restaurant_facts(item: RestaurantItem) -> Facts:
    """A restaurant's facts: cuisines count as much as its name."""
    name_words = _named(item.name)
    cuisines = tuple(word for cuisine in item.cuisines for word in _named(cuisine))
    words = _weighed(
        (name_words, NAME_WEIGHT),
        (cuisines, NAME_WEIGHT),
        (_named(item.locality or ""), HINT_WEIGHT),
    )
    return Facts(
        words=words,
        name=" ".join(name_words),
        head=None,
        kinds=frozenset(),
        groups=frozenset(),
        marked_veg=None,
        price=item.cost_for_two,
        packs=(),
        available=item.is_open is not False,
    )


@lru_cache(maxsize=_NAMES_KEPT)
def _named(text: str) -> tuple[str, ...]:
    """The words that can name something: no numbers, units or one-letter leftovers."""
    return tuple(
        word
        for word in lexicon().words(text)
        if word.isalpha() and len(word) > 1 and word not in UNITS
    )


@lru_cache(maxsize=_NAMES_KEPT)
def _pack(description: str | None) -> Amount | None:
    return pack_amount(description)


def _without_brand(name: str, brand: str | None) -> str:
    """ "Yoga Bar High Protein Oats" by Yoga Bar → "High Protein Oats": a brand's words
    ("Bar") must not make an item something it is not."""
    if brand and name.lower().startswith(brand.lower()) and len(name) > len(brand):
        return name[len(brand) :]
    return name


def _weighed(*fields: tuple[tuple[str, ...], float]) -> dict[str, float]:
    weights: dict[str, float] = {}
    for words, weight in fields:
        for word in words:
            weights[word] = max(weights.get(word, 0.0), weight)
    return weights


def _kinds(name_words: tuple[str, ...]) -> frozenset[str]:
    return _look_up(name_words, _indexes()[0])


def _groups(words: tuple[str, ...]) -> frozenset[str]:
    return _look_up(words, _indexes()[1])


def _look_up(words: tuple[str, ...], index: dict[str, frozenset[str]]) -> frozenset[str]:
    """Every label of every phrase (up to three words long) found in `words`."""
    found: set[str] = set()
    for start in range(len(words)):
        for end in range(start + 1, min(start + _LONGEST_PHRASE, len(words)) + 1):
            found.update(index.get(" ".join(words[start:end]), ()))
    return frozenset(found)


@cache
def _indexes() -> tuple[dict[str, frozenset[str]], dict[str, frozenset[str]]]:
    """Phrase → categories and phrase → food groups: one look-up per phrase of a name."""
    vocab = lexicon()
    kinds: dict[str, set[str]] = {}
    for category in vocab.categories:
        for word in category.items:
            kinds.setdefault(word, set()).add(category.name)
    groups: dict[str, set[str]] = {}
    for group, words in vocab.food_groups.items():
        for word in words:
            groups.setdefault(word, set()).add(group)
    return (
        {word: frozenset(names) for word, names in kinds.items()},
        {word: frozenset(names) for word, names in groups.items()},
    )
