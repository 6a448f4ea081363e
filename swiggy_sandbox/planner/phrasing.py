"""How shoppers say things, reduced to what a catalogue search understands.

"Low sugar snacks for my dad under two hundred" is a search for healthy snacks with a ₹200
budget: who it is for, how it is paid for and how it is said are not search words. A model
does this without thinking; this stand-in keeps the rules as small tables.
"""

from __future__ import annotations

import re

from swiggy_sandbox.planner import numbers
from swiggy_sandbox.planner import text as en

_PEOPLE = (
    r"dad|daddy|father|papa|pa|mom|mommy|mum|mummy|mother|ma|parents|wife|husband|son|"
    r"daughter|kids?|children|child|baby|toddler|family|friends?|guests?|boss|team|office|"
    r"colleagues?|grand(?:ma|pa|mother|father|parents)|in[- ]laws|roommates?|flatmates?|"
    r"partner|girlfriend|boyfriend|brother|sister|sibling|wifey|hubby|gym|workout|party|"
    r"occasion|picnic|trip"
)
# The people a table is for that make it a family outing.
_FAMILY = re.compile(
    r"\b(parents|kids?|children|family|grand(?:ma|pa|mother|father|parents)|in[- ]laws)\b"
)
_FOR_WHOM = re.compile(
    rf"\b(?:(?:for|to|with)\s+)?(?:my|our|the|his|her|a)\s+(?:[a-z]+\s+)?(?:{_PEOPLE})(?:'s)?"
    r"(?=\W|$)"
    rf"|\b(?:for|with)\s+(?:{_PEOPLE})\b"
)
# Diets the catalogue has no label for: the nearest it does have is "healthy".
_DIETS = re.compile(
    r"\b(low[- ]sugar|less sugar|no[- ](?:added[- ])?sugar|sugar[- ]free|without sugar|"
    r"diabetic|diabetes|low[- ]cal(?:orie)?s?|low[- ]fat|guilt[- ]free)\b"
)
# What shoppers call it → what the catalogue calls it.
_SHOPPER_WORDS = {
    "cookies": "biscuits",
    "cookie": "biscuits",
    "crisps": "chips",
    "soda": "soft drink",
    "sodas": "soft drink",
    "cold drinks?": "soft drink",
    "cool drinks?": "soft drink",
    "soft drinks": "soft drink",
    "face cream": "moisturiser",
    "night cream": "moisturiser",
    "perfume": "deodorant",
    "body spray": "deodorant",
    "lip balm": "lip",
    "lipstick": "lip",
    "after ?shave": "shaving",
    "shaving cream": "shaving",
    "hair serum": "serum",
    "munchies": "snacks",
    "nibbles": "snacks",
}
_SHOPPER_RE = re.compile(r"\b(" + "|".join(_SHOPPER_WORDS) + r")\b")
# Counts and packs in front of an item ("two packets of", "a dozen"), never part of a name.
_PACK_WORDS = (
    r"packs?|packets?|bottles?|boxes?|cans?|jars?|tubes?|pieces?|plates?|portions?|units?|"
    r"dozen|kilos?"
)
_COUNT_RE = re.compile(
    rf"\b(?:\d+|{numbers.SPELLED}|a|an)\s+(?:{_PACK_WORDS})(?:\s+of)?\b"
    rf"|^\s*(?:\d+|{numbers.SPELLED})\s+(?!(?:ml|l|g|kg|pcs|%|min|mins|minutes|{_PACK_WORDS})\b)"
    r"|\bdozen\b"
)
# Times of day: when, never what ("date night" is a kind of place, so it stays).
_DAY_PARTS = re.compile(
    r"\b(this|tomorrow|today|tonight|on|in the)?\s*"
    r"(morning|afternoon|evening|(?<!date )night|noon|midnight)\b"
)


def for_whom(text: str) -> str:
    """The text without who it is for ("for my dad", "my mom's")."""
    return _FOR_WHOM.sub(" ", text.lower())


def family_outing(text: str) -> bool:
    """True when the table is for family ("with my parents", "for the kids")."""
    return _FAMILY.search(text.lower()) is not None


def diet(text: str) -> str | None:
    """A diet the person named that the catalogue has no label for ("low sugar")."""
    match = _DIETS.search(text.lower())
    return match.group(1).replace("-", " ") if match else None


def without_diet(text: str) -> str:
    """The text with unlabelled diets turned into the nearest label, "healthy"."""
    return _DIETS.sub(" healthy ", text.lower())


def shopper_words(text: str) -> str:
    """Everyday names ("cookies", "cold drink") as the catalogue names them."""
    return _SHOPPER_RE.sub(lambda m: _shopper_word(m.group(1)), text.lower())


def without_counts(text: str) -> str:
    """The text without counts and packs ("two packets of amul milk" → "amul milk")."""
    return " ".join(_COUNT_RE.sub(" ", text.lower()).split())


def without_day_parts(text: str) -> str:
    """The text without "tomorrow evening", "this morning" (when, not what)."""
    return _DAY_PARTS.sub(" ", text.lower())


def plain_wish(text: str) -> str:
    """What is wanted, without who for, budget, "cheap" or counts."""
    cleaned = en.without_cheap(en.without_price(for_whom(text)))
    return without_counts(shopper_words(cleaned))


def _shopper_word(said: str) -> str:
    for pattern, catalogue in _SHOPPER_WORDS.items():
        if re.fullmatch(pattern, said):
            return catalogue
    return said
