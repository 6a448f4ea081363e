"""Reading plain English: ordinals, quantities, prices, times, days, names; and money out."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

from swiggy_core import formatting
from swiggy_sandbox.catalog.search import singular
from swiggy_sandbox.planner import numbers

# Reads one field of a cart line (the shops name them differently).
ItemReader = Callable[[dict[str, Any]], Any]

_NUMBER_WORDS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "a couple of": 2, "couple of": 2,
}  # fmt: skip
_ORDINALS = {
    "first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3,
    "4th": 3, "fifth": 4, "5th": 4, "last": -1, "top": 0,
}  # fmt: skip
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_COUNT = rf"(\d+|a couple of|couple of|{numbers.SPELLED})"
_NUMBER = rf"(\d+|a couple of|couple of|{numbers.SPELLED}|an?)"
# Packs a count can be given in: "three packs of", "2 bottles".
_PACKS = (
    r"(?:x|×|of|units?|packs?|packets?|pieces?|plates?|bottles?|boxes?|cans?|jars?|tubes?|nos?)"
)

_ORDINAL_RE = re.compile(r"\b(" + "|".join(_ORDINALS) + r")\b")
_NUMBERED_RE = re.compile(r"(?:#|\bnumber\s*|\boption\s*|\bno\.?\s*)(\d+)\b")
_QTY_RE = re.compile(
    r"\b(?:add|put|get|want|take|make it|change to|set to)\s+" + _NUMBER + r"\b(?!\s*(?:pm|am)\b)"
    r"|\b(\d+|" + numbers.SPELLED + r")\s*" + _PACKS + r"\b"
)
_PRICE_RE = re.compile(
    r"\b(?:under|below|less than|within|upto|up to|max(?:imum)?|cheaper than|not more than|"
    r"no more than|(?:a |my )?budget(?: of| is)?)\s*"
    rf"(?:rs\.?|inr|₹)?\s*({numbers.AMOUNT})\s*(?:rs\b|rupees|bucks|inr|/-)?",
    re.IGNORECASE,
)
# Words that ask for the cheaper end without naming an amount.
_CHEAP_RE = re.compile(
    r"\b(cheap(er|est)?|affordable|inexpensive|economical|low[- ](cost|budget|price[ds]?)|"
    r"on a budget|budget|pocket[- ]friendly|value for money)\b"
)
_TIME_RE = re.compile(r"\b(\d{1,2})(?::(\d{2}))?\s*(am|pm)\b|\b(\d{1,2}):(\d{2})\b")
# "at 8 tonight": an hour without am or pm, read as evening when the words say so.
_BARE_HOUR_RE = re.compile(
    r"\b(?:at|around|by)\s+(\d{1,2})(?:\s*o'?clock)?"
    r"(?![\d:]|\s*(?:am|pm|%|min|people|persons|guests|pax|of)\b)"
)
_EVENING_RE = re.compile(r"\b(tonight|evening|dinner|night)\b")
_PARTY_RE = re.compile(
    r"\b(?:for|party of|table of|group of|we are|we're|there are|there'll be|we will be)\s+"
    + _COUNT
    + rf"\b(?![\s-]*(?:pm\b|am\b|:|rupees|rs\b|bucks|₹|k\b|(?:{numbers.WORD})\b))"
    r"|\b" + _COUNT + r"\s+(?:people|persons|guests|of us|adults|pax)\b"
)
# A party is a table's worth of people: a bigger "for 200" is an amount, not guests.
_MAX_PARTY = 30
_PLACE_RE = re.compile(r"\b(?:near|in|around|at)\s+([a-z][a-z .]+?)(?=\s+(?:for|at|on|tomorrow|"
                       r"tonight|today|this|next)\b|[,.!?]|$)")  # fmt: skip
_WORD_RE = re.compile(r"[a-z0-9%]+")
_SIZE_RE = re.compile(r"\b(\d+(?:\.\d+)?)\s*(ml|l|litres?|g|kg|pcs)\b")
_STOP = frozenset(
    {
        "a", "an", "the", "of", "to", "my", "me", "i", "from", "in", "on", "for", "with",
        "and", "some", "please", "one", "ones", "item", "items", "it", "cart", "basket",
        "add", "remove", "delete", "drop", "take", "out", "put",
    }
)  # fmt: skip


def number(text: str) -> int | None:
    """A small count written as digits or words."""
    text = text.strip()
    if text.isdigit():
        return int(text)
    if text in _NUMBER_WORDS:
        return _NUMBER_WORDS[text]
    return numbers.spelled(text)


def ordinal(text: str) -> int | None:
    """0-based position for "the second one", "#2", "option 3"; -1 for "last"."""
    if match := _ORDINAL_RE.search(text):
        return _ORDINALS[match.group(1)]
    if match := _NUMBERED_RE.search(text):
        return int(match.group(1)) - 1
    return None


def quantity(text: str) -> int | None:
    """How many units were asked for ("add 2 of…", "3 x…", "add two…")."""
    match = _QTY_RE.search(text)
    if match is None:
        return None
    return number(match.group(1) or match.group(2))


def price_cap(text: str) -> float | None:
    """The budget in "under 200", "below ₹150", "under two hundred", "budget 2k"."""
    match = _PRICE_RE.search(text.lower())
    return numbers.amount(match.group(1)) if match else None


def wants_cheap(text: str) -> bool:
    """True when the words ask for the cheaper end ("cheap", "on a budget")."""
    return _CHEAP_RE.search(text.lower()) is not None


def without_cheap(text: str) -> str:
    """The text without its "cheap" words."""
    return _CHEAP_RE.sub(" ", text)


def cheap_cap(prices: list[float]) -> float | None:
    """A budget for "cheap": the middle price of what was found, so the cheaper half fits."""
    known = sorted(price for price in prices if price > 0)
    return known[(len(known) - 1) // 2] if known else None


def without_price(text: str) -> str:
    """The text with its budget clause removed."""
    return _PRICE_RE.sub(" ", text)


def clock_time(text: str) -> str | None:
    """ "8 pm" → "20:00", "7:30pm" → "19:30", "20:15" → "20:15", "at 8 tonight" → "20:00"."""
    match = _TIME_RE.search(text)
    if match is None:
        return _evening_hour(text)
    if match.group(3):
        hour, minute = int(match.group(1)) % 12, int(match.group(2) or 0)
        hour += 12 if match.group(3) == "pm" else 0
    else:
        hour, minute = int(match.group(4)), int(match.group(5))
        # "dinner at 7:30" is in the evening, whatever a 24-hour clock would say.
        hour += 12 if 1 <= hour <= 11 and _EVENING_RE.search(text) else 0
    if hour > 23 or minute > 59:
        return None
    return f"{hour:02d}:{minute:02d}"


def _evening_hour(text: str) -> str | None:
    match = _BARE_HOUR_RE.search(text)
    if match is None or not _EVENING_RE.search(text) or not 1 <= int(match.group(1)) <= 11:
        return None
    return f"{int(match.group(1)) + 12:02d}:00"


def without_time(text: str) -> str:
    """The text with clock times removed."""
    return _TIME_RE.sub(" ", text)


def party_size(text: str) -> int | None:
    """Guests in "for 4", "party of six", "4 people"."""
    match = _PARTY_RE.search(text)
    if match is None:
        return None
    guests = number(match.group(1) or match.group(2))
    return guests if guests is not None and 0 < guests <= _MAX_PARTY else None


def day_word(text: str) -> str | None:
    """ "today", "tonight", "tomorrow", "this weekend" or a weekday named in the text."""
    for word in ("tonight", "today", "tomorrow", "weekend", *_WEEKDAYS):
        if re.search(rf"\b{word}\b", text):
            return word
    return None


def resolve_day(word: str | None, today: date) -> date:
    """The calendar date a day word means, counted from `today`."""
    if word in (None, "today", "tonight"):
        return today
    if word == "tomorrow":
        return today + timedelta(days=1)
    if word == "weekend":
        return today + timedelta(days=max(0, 5 - today.weekday()))
    ahead = (_WEEKDAYS.index(str(word)) - today.weekday()) % 7
    return today + timedelta(days=ahead)


def place(text: str) -> str | None:
    """The locality in "near Indiranagar", "in HSR Layout"."""
    match = _PLACE_RE.search(text)
    if match is None:
        return None
    words = [w for w in match.group(1).split() if w not in ("me", "us", "here", "the")]
    return " ".join(words) or None


def pack_size(text: str) -> str | None:
    """A pack size as the catalogue writes it, squeezed: "1 L" → "1l", "500 ml" → "500ml"."""
    match = _SIZE_RE.search(text.lower())
    if match is None:
        return None
    unit = "l" if match.group(2).startswith("litre") else match.group(2)
    return f"{match.group(1)}{unit}"


def without_size(text: str) -> str:
    """The text without its pack size ("amul taaza milk 1 l" → "amul taaza milk")."""
    return " ".join(_SIZE_RE.sub(" ", text.lower()).split())


def words(text: str) -> list[str]:
    """Lowercased content words, singular, without filler."""
    return [singular(w) for w in _WORD_RE.findall(text.lower()) if w not in _STOP]


def match_score(wanted: list[str], name: str) -> int:
    """How many wanted words a name contains (0 = no match)."""
    have = set(words(name))
    return sum(1 for word in wanted if word in have)


def best_match(wanted: list[str], items: list[Any], name_of: Any, minimum: int = 1) -> Any | None:
    """The item whose name shares most words with `wanted` (at least `minimum` of them)."""
    scored = [(match_score(wanted, name_of(item)), -i, item) for i, item in enumerate(items)]
    scored = [row for row in scored if row[0] >= max(1, minimum)]
    return max(scored, key=lambda row: (row[0], row[1]))[2] if scored else None


def pick(items: list[Any], position: int | None) -> Any | None:
    """The item at a 0-based position (-1 = last), None when out of range."""
    if position is None or not items:
        return None
    if position == -1:
        return items[-1]
    return items[position] if 0 <= position < len(items) else None


def rupees(value: Any) -> str:
    """₹120 or ₹54.50, grouped as the app's cards group them (₹1,50,000); ₹? for no number."""
    try:
        amount = float(value)
    except (TypeError, ValueError):
        return "₹?"
    return formatting.rupees(amount)


def listing(lines: list[str]) -> str:
    """A numbered list, one line each."""
    return "\n".join(f"{index}. {line}" for index, line in enumerate(lines, start=1))


def cart_listing(items: list[Any], name_of: ItemReader, total_of: ItemReader) -> str:
    """A cart's lines as a numbered list, "2 × Amul Taaza Milk — ₹108" each; the shops
    keep a line's name and total under keys of their own."""
    return listing(
        [
            f"{item.get('quantity', 1)} × {name_of(item)} — {rupees(total_of(item))}"
            for item in items
        ]
    )
