"""Where a product, dish or restaurant card may break a person's diet, and why.

Swiggy documents no allergen or nutrition fields: only the shop's own veg mark (`isVeg`)
is a fact. Everything read from a name, a description or a category is a likely match
and is worded so ("May contain peanuts: the name mentions groundnut"), never as fact.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final, Literal

from swiggy_core.diet import Allergen, DietName, DietProfile
from swiggy_core.parsers.catalog_results import ProductItem, RestaurantItem
from swiggy_core.ranking.lexicon import lexicon
from swiggy_core.ranking.words import padded, phrase, raw_tokens

ConflictKind = Literal["diet", "allergy", "dislike"]
Card = ProductItem | RestaurantItem

# Words that make a product likely to hold an allergen (Indian names included).
ALLERGEN_WORDS: Final[dict[Allergen, tuple[str, ...]]] = {
    "peanuts": ("peanut", "groundnut", "moongphali", "mungfali", "singdana", "chikki", "satay"),
    "tree nuts": (
        "almond", "badam", "cashew", "kaju", "walnut", "akhrot", "pistachio", "pista",
        "hazelnut", "pecan", "macadamia", "dry fruit", "mixed nut", "praline", "marzipan",
    ),
    "gluten": (
        "wheat", "atta", "maida", "gluten", "bread", "roti", "naan", "kulcha", "paratha",
        "chapati", "puri", "bhatura", "pasta", "noodle", "rava", "sooji", "suji", "semolina",
        "barley", "rye", "biscuit", "cookie", "cake", "bun", "pizza", "burger", "sandwich",
        "dalia", "momo", "samosa", "kachori", "oat",
    ),
    "dairy": (
        "milk", "curd", "dahi", "paneer", "butter", "cheese", "ghee", "cream", "yogurt",
        "yoghurt", "lassi", "buttermilk", "chaas", "whey", "khoa", "khoya", "malai", "kulfi",
        "raita", "rabri", "makhani", "kheer", "rasmalai", "shrikhand", "casein",
    ),
    "soy": ("soy", "soya", "tofu", "edamame", "tempeh", "miso"),
    "shellfish": (
        "prawn", "shrimp", "crab", "lobster", "jhinga", "chingri", "clam", "mussel", "oyster",
        "squid", "calamari",
    ),
    "egg": ("egg", "omelette", "omelet", "mayonnaise", "mayo", "anda", "meringue"),
    "fish": (
        "fish", "tuna", "salmon", "pomfret", "seer", "surmai", "rohu", "katla", "hilsa",
        "mackerel", "bangda", "sardine", "anchovy", "basa",
    ),
}  # fmt: skip
# The lexicon's food groups each diet avoids, and how a likely break is said.
_DIET_AVOIDS: Final[dict[DietName, tuple[str, ...]]] = {
    "any": (),
    "vegetarian": ("meat", "egg"),
    "eggetarian": ("meat",),
    "jain": ("meat", "egg", "root"),
    "vegan": ("meat", "egg", "dairy"),
}
_DIET_WORD: Final[dict[DietName, str]] = {
    "any": "",
    "vegetarian": "vegetarian",
    "eggetarian": "eggetarian",
    "jain": "Jain",
    "vegan": "vegan",
}
_NON_VEG_GROUPS: Final = frozenset({"meat", "egg"})
_SHOP_MARK: Final = "the shop marks it non-veg"


@dataclass(frozen=True, slots=True)
class DietConflict:
    """One way a card may break the profile, said to the person."""

    kind: ConflictKind
    label: str  # "Not vegetarian", "May contain peanuts"
    basis: str  # what it rests on: "the shop marks it non-veg", "the name mentions groundnut"
    certain: bool  # True only for the shop's own veg mark; words are a likely match

    @property
    def reason(self) -> str:
        """ "May contain peanuts: the name mentions groundnut"."""
        return f"{self.label}: {self.basis}"


def conflicts(card: Card, profile: DietProfile) -> list[DietConflict]:
    """Every way `card` may break `profile`: the diet first, then allergies, dislikes."""
    if not profile.restricts:
        return []
    fields = _fields(card)
    found = _diet_conflict(card, profile.diet, fields) if isinstance(card, ProductItem) else None
    found_list = [found] if found is not None else []
    for allergen in profile.allergies:
        where = _first_match(fields, ALLERGEN_WORDS[allergen])
        if where is not None:
            found_list.append(
                DietConflict("allergy", f"May contain {allergen}", _says(*where), False)
            )
    for dislike in profile.dislikes:
        where = _first_match(fields, (dislike,))
        if where is not None:
            basis = f"the {where[0]} mentions it"
            found_list.append(DietConflict("dislike", f"You avoid {dislike}", basis, False))
    return found_list


def _diet_conflict(
    item: ProductItem, diet: DietName, fields: Sequence[tuple[str, str]]
) -> DietConflict | None:
    """The shop's non-veg mark (a fact), else a food group the words name (likely)."""
    avoids = _DIET_AVOIDS[diet]
    if not avoids:
        return None
    if item.is_veg is False and "egg" in avoids:
        return DietConflict("diet", "Not vegetarian", _SHOP_MARK, True)
    if item.is_veg is False and not _first_match(fields, _group_words(("egg",))):
        return DietConflict("diet", "May have meat", _SHOP_MARK, True)
    # The shop's own veg mark outweighs words like "chicken-style" or a section name.
    checked = tuple(g for g in avoids if not (item.is_veg and g in _NON_VEG_GROUPS))
    where = _first_match(fields, _group_words(checked)) if checked else None
    if where is None:
        return None
    return DietConflict("diet", f"May not be {_DIET_WORD[diet]}", _says(*where), False)


def _fields(card: Card) -> list[tuple[str, str]]:
    """(where, text) pairs to look in, the surest first."""
    if isinstance(card, RestaurantItem):
        return [("name", card.name), ("cuisine list", ", ".join(card.cuisines))]
    return [
        ("name", card.name),
        ("category", card.category or ""),
        ("description", card.description or ""),
    ]


def _first_match(fields: Sequence[tuple[str, str]], terms: Sequence[str]) -> tuple[str, str] | None:
    """(where, term) for the first term found as whole words and not negated ("peanut
    free", "no onion"), or None."""
    vocab = lexicon()
    wanted = [entry for entry in (phrase(term) for term in terms) if entry]
    for where, text in fields:
        written = " ".join(raw_tokens(text))
        # As written first ("cookie"), then with synonyms applied ("aloo" → potato).
        for words in (padded(written.split()), padded(vocab.synonyms.rewrite(written).split())):
            term = next((term for term in wanted if _named_in(words, term)), None)
            if term is not None:
                return where, term
    return None


def _named_in(words: str, term: str) -> bool:
    """Whether padded `words` name `term` other than as "no term" or "term free"."""
    vocab = lexicon()
    at = words.find(f" {term} ")
    while at >= 0:
        before = words[:at].split()[-1:]
        after = words[at + len(term) + 2 :].split()[:1]
        if not (set(before) & vocab.avoid_before or set(after) & vocab.avoid_after):
            return True
        at = words.find(f" {term} ", at + 1)
    return False


def _says(where: str, term: str) -> str:
    return f"the {where} mentions {term}"


@cache
def _group_words(groups: tuple[str, ...]) -> tuple[str, ...]:
    """The words of the lexicon's food groups `groups` (as the ranking reads them)."""
    food_groups = lexicon().food_groups
    return tuple(word for group in groups for word in food_groups.get(group, ()))
