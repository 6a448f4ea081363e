"""The clauses of a request that are not product words: budget, diet, party, size, count.

Each reader finds its clause in lowercase text and returns the value with the text that
is left once the clause is cut out, so the product words never include "under 200".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from swiggy_core.ranking.amounts import UNITS, Amount
from swiggy_core.ranking.lexicon import Diet, lexicon

_DIGITS = r"\d{1,3}(?:,\d{2,3})+|\d+(?:\.\d+)?"
_BUDGET_BEFORE = (
    r"under|below|less than|lesser than|within|up ?to|max(?:imum)?|at most|not more than|"
    r"no more than|cheaper than|not over|budget(?: of| is)?|for less than"
)
_BUDGET_AFTER = r"or less|or below|or under|max|budget|at most"
_CURRENCY = r"(?:rs\.?|inr|rupees?)"
# "under 20 minutes" is a time, not a price.
_NOT_MONEY = r"(?!\s*(?:min|mins|minutes?|hrs?|hours?|km|kms|people|persons|guests|%))"
_COUNT_WORDS = (
    r"x|packs?|packets?|bottles?|boxes?|units?|jars?|tins?|cans?|pouches?|bags?|tubs?|"
    r"cartons?|bunch(?:es)?"
)
_PARTY_WORDS = r"people|persons?|of us|pax|guests|adults"
_NOT_A_NUMBER = frozenset({"a", "half"})


def _number_words() -> str:
    words = sorted(lexicon().numbers, key=len, reverse=True)
    first = "|".join(re.escape(word) for word in words)
    # "a" and "half" only ever start a number ("a dozen", "half kg"), never continue one.
    rest = "|".join(re.escape(word) for word in words if word not in _NOT_A_NUMBER)
    return rf"(?:(?:{first})(?:[\s-]+(?:{rest}))*)"


@cache
def _patterns() -> dict[str, re.Pattern[str]]:
    # Never a part of a longer figure: "20" is not read as "2" to dodge "minutes".
    number = rf"(?:{_DIGITS}|{_number_words()})(?![\d,.]?\d)"
    units = "|".join(sorted(UNITS, key=len, reverse=True))
    return {
        "budget": re.compile(
            rf"\b(?:{_BUDGET_BEFORE})\s*{_CURRENCY}?\s*(?P<n>{number})\s*(?P<k>k\b)?"
            rf"{_NOT_MONEY}(?:\s*(?:{_CURRENCY}|/-|bucks)(?![a-z]))?"
        ),
        "budget_after": re.compile(
            rf"(?:{_CURRENCY}\s*)?(?<![\w.])(?P<n>{number})\s*(?P<k>k\b)?\s*(?:{_CURRENCY}|/-)?"
            rf"\s*(?:{_BUDGET_AFTER})\b"
        ),
        "party": re.compile(
            rf"\bfor\s+(?:a couple|couple|(?P<n>{number}))(?:\s+(?:{_PARTY_WORDS}))?\b"
        ),
        "size": re.compile(rf"(?<![\w.])(?P<n>{number})\s*(?P<u>{units})(?![a-z])"),
        "count": re.compile(
            rf"(?<![\w.])(?P<n>{number})\s*(?:{_COUNT_WORDS})(?![a-z])|\bx\s*(?P<x>\d+)\b"
        ),
        "leading": re.compile(rf"^\s*(?P<n>{number})\s+(?P<word>[a-z]+)"),
    }


def number_value(text: str) -> float | None:
    """ "250", "1,500", "two hundred fifty", "half" → the number."""
    text = text.strip()
    if text and text[0].isdigit():
        return float(text.replace(",", ""))
    numbers = lexicon().numbers
    total = current = 0.0
    for word in re.split(r"[\s-]+", text):
        value = numbers.get(word)
        if value is None:
            return None
        if value >= 100:  # "two hundred": a multiplier of what came before
            current = max(current, 1.0) * value
            if value >= 1000:
                total, current = total + current, 0.0
        else:
            current += value
    return total + current or None


def _cut(text: str, match: re.Match[str]) -> str:
    return f"{text[: match.start()]} {text[match.end() :]}"


def read_budget(text: str) -> tuple[float | None, str]:
    """The most a person will pay ("under ₹200", "2k budget") and the text without it."""
    for name in ("budget", "budget_after"):
        match = _patterns()[name].search(text)
        if match is None or match.group("n") in _NOT_A_NUMBER:
            continue
        value = number_value(match.group("n"))
        if value is None:
            continue
        if match.group("k"):
            value *= 1000
        return value, _cut(text, match)
    return None, text


def read_diet(text: str) -> tuple[Diet | None, str]:
    """The diet a request names ("pure veg", "Jain", "eggetarian"), longest phrase first."""
    for pattern, diet in _diet_patterns():
        match = pattern.search(text)
        if match is not None:
            return diet, _cut(text, match)
    return None, text


@cache
def _diet_patterns() -> tuple[tuple[re.Pattern[str], Diet], ...]:
    said = sorted(((s, diet) for diet in lexicon().diets for s in diet.said), key=_longest)
    return tuple((_phrase_pattern(phrase), diet) for phrase, diet in said)


def _phrase_pattern(phrase: str) -> re.Pattern[str]:
    words = r"[\s-]+".join(re.escape(word) for word in phrase.split())
    return re.compile(rf"(?<![a-z]){words}(?![a-z])")


def _longest(row: tuple[str, Diet]) -> int:
    return -len(row[0])


def read_party(text: str) -> tuple[int | None, str]:
    """How many people a meal or table is for ("for two", "for 4 people")."""
    match = _patterns()["party"].search(text)
    if match is None:
        return None, text
    said = match.group("n")
    if said is None:  # "for a couple"
        return 2, _cut(text, match)
    value = number_value(said) if said not in _NOT_A_NUMBER else None
    if value is None or value < 1:
        return None, text
    return int(value), _cut(text, match)


def read_size(text: str) -> tuple[Amount | None, str]:
    """A pack size asked for ("1 kg", "500ml", "a dozen")."""
    match = _patterns()["size"].search(text)
    if match is None:
        return None, text
    value = number_value(match.group("n"))
    amount = Amount.of(value, match.group("u")) if value else None
    return (amount, _cut(text, match)) if amount else (None, text)


def read_count(text: str, is_piece: Callable[[str], bool]) -> tuple[int | None, Amount | None, str]:
    """How many packs ("2 packets", "x3", "3 milk"), or pieces for goods sold by the piece.

    "6 eggs" asks for six eggs, a pack of 6 pieces, not six packs of eggs.
    """
    patterns = _patterns()
    match = patterns["count"].search(text)
    if match is not None:
        value = number_value(match.group("n") or match.group("x"))
        if value:
            return int(value), None, _cut(text, match)
    leading = patterns["leading"].search(text)
    if leading is None:
        return None, None, text
    value = number_value(leading.group("n"))
    if not value or leading.group("n") in _NOT_A_NUMBER:
        return None, None, text
    rest = f"{leading.group('word')}{text[leading.end() :]}"
    if is_piece(leading.group("word")):
        return None, Amount(value, "pcs"), rest
    return int(value), None, rest
