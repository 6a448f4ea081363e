"""Pieces of a summary: numbered record lines, rupee amounts, lenient field lookups."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from swiggy_core.constants import PAISE_PER_RUPEE

Record = dict[str, Any]
MAX_LINES = 150  # Swiggy's menus stop at 150 dishes; no summary needs more lines
_SPACES = re.compile(r"\s+")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")


def line(index: int, name: Any, details: Iterable[Any], ids: Iterable[tuple[str, Any]]) -> str:
    """`N. Name — detail | detail (ID: a, SKU: b)` with only the parts that are known."""
    text = f"{index}. {field(name) or 'Item'}"
    shown = [field(detail) for detail in details if detail not in (None, "")]
    if shown:
        text += " — " + " | ".join(shown)
    named = [f"{label}: {field(value)}" for label, value in ids if value not in (None, "")]
    return f"{text} ({', '.join(named)})" if named else text


def field(value: Any) -> str:
    """One field on one line, without the separators that would split a record."""
    text = _SPACES.sub(" ", str(value if value is not None else "")).strip()
    return text.replace(" — ", " - ").replace("|", "/")


def rupees(value: Any, *, paise: bool = False) -> str | None:
    """`₹54`, `₹586.9`; text that already says ₹ keeps its words (minus thousands commas)."""
    if isinstance(value, str):
        text = _THOUSANDS.sub("", value.strip())
        if not text or "₹" in text:
            return text or None
        value = _number(text)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    amount = value / PAISE_PER_RUPEE if paise else value
    return f"₹{amount:.2f}".rstrip("0").rstrip(".")


def first(record: Mapping[str, Any], *keys: str) -> Any:
    """The first of `keys` with a value (empty strings and containers count as missing)."""
    for key in keys:
        value = record.get(key)
        if value is not None and value != "" and value != [] and value != {}:
            return value
    return None


def records(value: Any) -> list[Record]:
    """The dicts of a list (anything else: none)."""
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def child(record: Mapping[str, Any], key: str) -> Record:
    """A nested dict, or an empty one."""
    value = record.get(key)
    return value if isinstance(value, dict) else {}


def numbered(rows: Iterable[str | None]) -> str:
    """The non-empty rows, at most MAX_LINES, one per line."""
    return "\n".join([row for row in rows if row][:MAX_LINES])


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None
