"""Numbers people write in words: "two hundred and fifty", "one fifty", "eight", "2k".

Shoppers say budgets and party sizes the way they speak them; a model reads those without
thinking, so this stand-in keeps the few rules in one place.
"""

from __future__ import annotations

import re

_UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19,
}  # fmt: skip
_TENS = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
    "eighty": 80, "ninety": 90,
}  # fmt: skip
_SCALES = {"hundred": 100, "thousand": 1000, "lakh": 100_000}
WORD = "|".join([*_UNITS, *_TENS, *_SCALES])
# A run of number words ("two hundred and fifty", "one-fifty"), optionally after "a".
SPELLED = rf"(?:an?\s+(?=hundred|thousand|lakh))?(?:{WORD})(?:(?:\s+and\s+|[\s-]+)(?:{WORD}))*"
# Digits ("250", "2.5k", "1,500") or a spelled run: how an amount may be written.
AMOUNT = rf"(?:\d[\d,]*(?:\.\d+)?\s*k?|{SPELLED})"
_SPELLED_RE = re.compile(rf"^{SPELLED}$")
_TOKEN_RE = re.compile(r"[a-z]+")


def amount(text: str) -> float | None:
    """The value of "250", "2k", "1,500", "two hundred and fifty" or "one fifty"."""
    cleaned = text.strip().lower()
    digits = re.fullmatch(r"(\d[\d,]*(?:\.\d+)?)\s*(k?)", cleaned)
    if digits:
        value = float(digits.group(1).replace(",", ""))
        return value * 1000 if digits.group(2) else value
    spoken = spelled(cleaned)
    return float(spoken) if spoken is not None else None


def spelled(text: str) -> int | None:
    """The value of a run of number words; None when the text is not one."""
    if not _SPELLED_RE.match(text.strip().lower()):
        return None
    total, current, previous = 0, 0, ""
    for word in _TOKEN_RE.findall(text.lower()):
        if word in ("a", "an", "and"):
            current = current or (1 if word != "and" else 0)
            continue
        if word in _SCALES and _SCALES[word] >= 1000:
            total += max(current, 1) * _SCALES[word]
            current = 0
        elif word in _SCALES:
            current = max(current, 1) * _SCALES[word]
        elif previous in _UNITS and 0 < current < 10 and (word in _TENS or _UNITS[word] >= 10):
            # Said in India: "one fifty" is 150, "two twenty" is 220.
            current = current * 100 + _number_value(word)
        else:
            current += _number_value(word)
        previous = word
    return total + current


def _number_value(word: str) -> int:
    return _UNITS.get(word, _TENS.get(word, 0))
