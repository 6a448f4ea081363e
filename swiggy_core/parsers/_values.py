"""Tolerant coercion of payload values: wrong types become None, never an exception."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from swiggy_core.constants import MAX_RUPEES, PAISE_PER_RUPEE, PARSER_MAX_TEXT_CHARS

# Linear: one run of digits/commas, an optional fraction; no nested quantifiers.
_NUMBER_RE = re.compile(r"-?\d[\d,]*(?:\.\d+)?")
_NUMBER_SCAN_CHARS = 64
_TEXT_CACHE_SIZE = 4_096
_MAX_QUANTITY = 1_000_000
_MAX_DIGITS_VALUE = 10**30
_COMPACT_ITEMS = 6
_BRIEF_CHARS = 60
_ID_CHARS = 120
# Tuples, not `A | B` unions: a union is rebuilt on every call in these hot paths.
NUMBER_TYPES = (int, float)
CONTAINER_TYPES = (dict, list)
_EMPTY_TYPES = (str, list, dict)
_TRUE_WORDS = frozenset({"true", "yes", "y", "1", "veg", "open", "available"})
_FALSE_WORDS = frozenset({"false", "no", "n", "0", "nonveg", "non-veg", "closed"})
_NEGATIVE_CURRENCY = tuple(
    f"{minus}{mark}" for minus in ("-", "\u2212") for mark in ("₹", "rs", "rs.", "inr")
)


def pick(record: Mapping[str, Any], *keys: str) -> Any:
    """The first present, non-empty value among `keys`."""
    get = record.get
    for key in keys:
        value = get(key)
        # 0 and False are values; "", [] and {} are "not given".
        if value is not None and (value or not isinstance(value, _EMPTY_TYPES)):
            return value
    return None


class Keys(frozenset[str]):
    """Alternative keys of one field, in priority order (`order`), and as a set.

    Most records hold none of a field's alternatives: as a set, that is one C-level
    `isdisjoint` instead of a Python loop over every alternative.
    """

    __slots__ = ("order", "primary", "rest")
    order: tuple[str, ...]
    primary: str
    rest: tuple[str, ...]

    def __new__(cls, *names: str) -> Keys:
        keys = super().__new__(cls, names)
        keys.order = names
        keys.primary = names[0]
        keys.rest = names[1:]
        return keys


def first(record: dict[str, Any], keys: Keys) -> Any:
    """`pick(record, *keys.order)`, quick for a record that holds the first key or none."""
    # The documented (first) key is the usual one; then a record without any is common.
    value = record.get(keys.primary)
    if value is not None and (value or not isinstance(value, _EMPTY_TYPES)):
        return value
    if record.keys().isdisjoint(keys):
        return None
    get = record.get
    for key in keys.rest:
        value = get(key)
        if value is not None and (value or not isinstance(value, _EMPTY_TYPES)):
            return value
    return None


_MONEY_KEYS = Keys(
    *("offerPrice", "offer_price", "sellingPrice", "selling_price", "value", "amount"),
    *("price", "total", "mrp"),
)


def as_dict(value: Any) -> dict[str, Any] | None:
    """`value` if it is a dict, else None."""
    return value if isinstance(value, dict) else None


def as_list(value: Any) -> list[Any]:
    """`value` if it is a list, else an empty list."""
    return value if isinstance(value, list) else []


def to_float(value: Any) -> float | None:
    """A finite number from a number or a price-like string ("₹1,249.50"), else None."""
    kind = type(value)
    if kind is float:
        return value if math.isfinite(value) else None
    if kind is int and -_MAX_DIGITS_VALUE < value < _MAX_DIGITS_VALUE:
        return float(value)
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, NUMBER_TYPES):
        try:
            number = float(value)
        except OverflowError:
            return None
        return number if math.isfinite(number) else None
    if isinstance(value, str):
        return _number_in_text(value[:_NUMBER_SCAN_CHARS])
    return None


@lru_cache(maxsize=_TEXT_CACHE_SIZE)
def _number_in_text(text: str) -> float | None:
    """The number a price-like text states; cached: "₹400 for two" recurs across records."""
    match = _NUMBER_RE.search(text)
    if match is None:
        return None
    try:
        number = float(match.group().replace(",", ""))
    except ValueError:
        return None
    if number > 0 and _minus_before_currency(text[: match.start()]):
        number = -number  # "-₹12.00": a discount line of a string bill
    return number if math.isfinite(number) else None


def _minus_before_currency(prefix: str) -> bool:
    compact = prefix.replace(" ", "").lower()
    return compact.endswith(_NEGATIVE_CURRENCY)


def to_int(value: Any) -> int | None:
    """A non-negative whole number within a sane range, else None."""
    if type(value) is int:  # the usual quantity: no round trip through float
        return value if 0 <= value <= _MAX_QUANTITY else None
    if value is None:
        return None
    number = to_float(value)
    if number is None or number < 0 or number > _MAX_QUANTITY:
        return None
    return int(number)


def to_str(value: Any, limit: int = PARSER_MAX_TEXT_CHARS) -> str | None:
    """A trimmed, length-limited string from a string or number, else None."""
    if type(value) is str:
        if len(value) <= limit and "  " not in value and value.isprintable():
            return value.strip() or None  # already clean: the common case
        text = " ".join(value[: limit * 4].split())
        return text[:limit] or None
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        return str(value) if -_MAX_DIGITS_VALUE < value < _MAX_DIGITS_VALUE else None
    if isinstance(value, float) and math.isfinite(value):
        return str(int(value)) if value.is_integer() else str(value)
    if isinstance(value, str):  # a str subclass
        return to_str(str(value), limit)
    return None


def to_id(value: Any) -> str | None:
    """An identifier as a string (ids arrive as numbers or strings)."""
    kind = type(value)
    if kind is str and len(value) <= _ID_CHARS and "  " not in value and value.isprintable():
        return value.strip() or None  # to_str's common case, without the second call
    if kind is int:
        return str(value) if -_MAX_DIGITS_VALUE < value < _MAX_DIGITS_VALUE else None
    return None if value is None else to_str(value, _ID_CHARS)


def to_bool(value: Any) -> bool | None:
    """A boolean from a bool, 0/1 or a yes/no-like word, else None."""
    if value is None:
        return None
    if isinstance(value, bool):
        return value
    if isinstance(value, NUMBER_TYPES):
        return bool(value) if value in (0, 1) else None
    if isinstance(value, str):
        word = value[:32].strip().lower()
        if word in _TRUE_WORDS:
            return True
        if word in _FALSE_WORDS:
            return False
    return None


def money(value: Any, scale: float = 1.0) -> float | None:
    """A price in rupees from a number, a string or a `{value|amount|...}` dict.

    None when there is none or it is absurd (over ₹10,00,000 either way): such a value is
    a fault in the data and must not show, or be summed, as a price.
    """
    if value is None:
        return None
    if isinstance(value, dict):
        value = first(value, _MONEY_KEYS)
        if isinstance(value, dict):
            return None
    number = to_float(value)
    if number is None:
        return None
    if scale == 1.0:
        rupees = number
    elif scale == PAISE_PER_RUPEE and number.is_integer():
        rupees = number / PAISE_PER_RUPEE  # whole paise: already what round(…, 2) would give
    else:
        rupees = round(number / scale, 2)
    # Negative amounts are real (a bill's discount line); absurd ones are faults.
    return rupees if abs(rupees) <= MAX_RUPEES else None


def cents(amount: float) -> float:
    """`round(amount, 2)`, at once for a whole amount (which that rounding leaves as is)."""
    return amount if amount.is_integer() else round(amount, 2)


def compact(value: Any, limit: int = PARSER_MAX_TEXT_CHARS) -> str:
    """A short one-line rendering of any value for info cards."""
    text = to_str(value, limit)
    if text is not None:
        return text
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        parts = [f"{k}: {text}" for k, v in list(value.items())[:6] if (text := _brief(v))]
        return "; ".join(parts)[:limit]
    if isinstance(value, list):
        parts = [_brief(v) or "…" for v in value[:_COMPACT_ITEMS]]
        extra = len(value) - _COMPACT_ITEMS
        suffix = f" (+{extra} more)" if extra > 0 else ""
        return (", ".join(parts) + suffix)[:limit]
    return ""


def _brief(value: Any) -> str | None:
    """A scalar as text; a dict as its first few scalar values ("178340001 · PLACED")."""
    if isinstance(value, dict):
        scalars = (to_str(v, _BRIEF_CHARS) for v in list(value.values())[:8])
        return " · ".join([s for s in scalars if s][:4]) or None
    if isinstance(value, list):
        return f"{len(value)} items" if value else None
    if isinstance(value, bool):
        return "yes" if value else "no"
    return to_str(value, _BRIEF_CHARS)
