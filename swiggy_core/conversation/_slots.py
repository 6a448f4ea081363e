"""Slot extraction for the session summary: simple patterns over what the person wrote."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache, lru_cache

from swiggy_core.verticals.catalog import find_vertical

_I = re.IGNORECASE
_NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}  # fmt: skip
_COUNT = r"(\d{1,2}|" + "|".join(_NUMBER_WORDS) + r")"
_PARTY = (
    re.compile(rf"\b{_COUNT}\s+(?:people|persons|guests|pax|adults|of us)\b", _I),
    # "for 4" but not "for 8 pm", "for 2 days", "for 500 ml"
    re.compile(
        rf"\b(?:table for|party of|for|we are|we're)\s+{_COUNT}\b"
        r"(?!\s*(?:am|pm|:|\.\d|days?|weeks?|months?|hours?|mins?|minutes?|kg|g|l|ml|%))",
        _I,
    ),
)
_DATE = re.compile(
    r"\b(day after tomorrow|today|tonight|tomorrow|(?:this |next )?weekend|"
    r"(?:this |next )?(?:mon|tues|wednes|thurs|fri|satur|sun)day|\d{4}-\d{2}-\d{2}|"
    r"\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*)\b",
    _I,
)
_TIME = re.compile(
    r"\b(\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm)|noon|midnight|breakfast|brunch|lunch|dinner)\b", _I
)
_BUDGET = re.compile(
    r"(?:\b(under|below|within|less than|up ?to|max(?:imum)?|around|about)\s+)?"
    r"(?:(?:₹|\brs\.?|\binr)\s*(\d[\d,]*)|\b(\d[\d,]*)\s*(?:rupees|rs\b|inr\b)|"
    r"\bbudget(?:\s+(?:of|is))?\s*(\d[\d,]*))",
    _I,
)
_DIET = re.compile(
    r"\b(non[- ]?veg(?:etarian)?|pure veg|veg(?:etarian)?|vegan|jain|eggetarian|eggless|"
    r"keto|gluten[- ]free|lactose[- ]free|sugar[- ]free|diabetic[- ]friendly|"
    r"high[- ]protein|low[- ]carb|low[- ]fat|low[- ]calorie)\b",
    _I,
)
_GOAL = re.compile(
    r"\b(weight loss|lose weight|fat loss|muscle gain|gain muscle|build muscle|bulking|"
    r"cutting|maintenance|gain weight|more energy)\b",
    _I,
)
_CUISINE = re.compile(
    r"\b(north indian|south indian|chinese|indo[- ]chinese|italian|continental|mughlai|"
    r"thai|japanese|korean|mexican|lebanese|mediterranean|american|asian|kerala|andhra|"
    r"chettinad|bengali|punjabi|hyderabadi|gujarati|rajasthani|biryani|pizza|burgers?|"
    r"desserts|cafe|bakery|seafood|street food|healthy)\b",
    _I,
)
_VIBE = re.compile(
    r"\b(rooftop|romantic|family[- ]friendly|family|pub|brewery|quiet|live music|outdoor|"
    r"fine dining|buffet|lounge|kid[- ]friendly|pet[- ]friendly|date night)\b",
    _I,
)
_CRAVING = re.compile(
    r"\b(?:i want|i'?d like|i would like|craving|feel like(?: having| eating)?|"
    r"in the mood for|get me|order me)\s+(?:an?\s+|some\s+|the\s+)?"
    r"([a-z][a-z -]{1,40}?)(?=\s+(?:from|under|below|for|near|at|tonight|today|now|please|"
    r"with|and)\b|[.,!?;]|$)",
    _I,
)
_SKIN = re.compile(r"\b(oily|dry|combination|sensitive|normal|acne[- ]prone|mature)\s+skin\b", _I)
_HAIR = re.compile(
    r"\b(oily|dry|curly|wavy|straight|frizzy|thin|thick|fine|colou?red|damaged)\s+"
    r"(hair|scalp)\b",
    _I,
)
_CONCERN = re.compile(
    r"\b(acne|pimples|breakouts|blackheads|dark spots|pigmentation|tan|tanning|dullness|"
    r"dark circles|wrinkles|fine lines|dandruff|hair ?fall|hair loss|frizz|split ends|"
    r"dryness|redness|open pores|razor (?:burn|bumps)|beard growth)\b",
    _I,
)
_NOT_A_CRAVING = frozenset({"something", "anything", "food", "it", "this", "that", "to", "from"})

SlotReader = Callable[[str], str | None]


def extract_slots(user_texts: Sequence[str], vertical_id: str) -> dict[str, str]:
    """Slot name → latest value the person gave, for the slots this vertical uses."""
    slots: dict[str, str] = {}
    for text in user_texts:
        slots.update(slots_said(text, vertical_id))
    return chosen_slots(slots, vertical_id)


def slots_said(text: str, vertical_id: str) -> dict[str, str]:
    """The slots one message gives (do not modify the result: it is shared)."""
    return _message_slots(text, vertical_id)


def chosen_slots(slots: dict[str, str], vertical_id: str) -> dict[str, str]:
    """The slots this vertical uses, in its order, from every slot the person gave."""
    return {name: slots[name] for name in _readers(vertical_id) if name in slots}


@lru_cache(maxsize=4096)
def _message_slots(text: str, vertical_id: str) -> dict[str, str]:
    """The slots one message gives (cached: the summary reads every message every turn,
    and a stored message never changes). Callers must not modify the result."""
    found = ((name, read(text)) for name, read in _readers(vertical_id).items())
    return {name: value for name, value in found if value}


@cache
def _readers(vertical_id: str) -> dict[str, SlotReader]:
    vertical = find_vertical(vertical_id)
    people = vertical.people_slot if vertical is not None else "servings"
    # A vertical names its own slots; these are the readers they can pick from.
    specific: dict[str, SlotReader] = {
        "cuisine": _all(_CUISINE),
        "vibe": _all(_VIBE),
        "craving": _craving,
        "goal": _all(_GOAL),
        "skin": _skin,
        "hair": _hair,
        "concern": _all(_CONCERN),
    }
    names = vertical.slot_names if vertical is not None else ()
    return {
        people: _party,
        "date": _last(_DATE),
        "time": _last(_TIME),
        **{name: specific[name] for name in names},
        "diet": _all(_DIET),
        "budget": _budget,
    }


def _norm(value: str) -> str:
    return re.sub(r"[\s-]+", " ", value.strip().lower())


def _last(pattern: re.Pattern[str]) -> SlotReader:
    def read(text: str) -> str | None:
        found = pattern.findall(text)
        return _norm(found[-1]) if found else None

    return read


def _all(pattern: re.Pattern[str]) -> SlotReader:
    def read(text: str) -> str | None:
        found = dict.fromkeys(_norm(v).replace(" ", "-") for v in pattern.findall(text))
        return "+".join(found) or None

    return read


def _party(text: str) -> str | None:
    for pattern in _PARTY:
        match = pattern.search(text)
        if match:
            count = match.group(1).lower()
            return str(_NUMBER_WORDS.get(count, count))
    return None


def _budget(text: str) -> str | None:
    matches = list(_BUDGET.finditer(text))
    if not matches:
        return None
    match = matches[-1]  # the last amount mentioned wins
    amount = next(group for group in match.groups()[1:] if group).replace(",", "")
    bound = match.group(1)
    return (
        f"under ₹{amount}"
        if bound and not bound.lower().startswith(("around", "about"))
        else f"₹{amount}"
    )


def _craving(text: str) -> str | None:
    match = _CRAVING.search(text)
    if not match or match.group(1).split()[0].lower() in _NOT_A_CRAVING:
        return None
    return _norm(match.group(1))


def _skin(text: str) -> str | None:
    found = _SKIN.findall(text)
    return _norm(found[-1]) if found else None


def _hair(text: str) -> str | None:
    found = _HAIR.findall(text)
    return " ".join(_norm(part) for part in found[-1]) if found else None
