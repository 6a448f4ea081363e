"""The summary result form: numbered lines such as `1. Name — detail | ₹price (ID: 233548)`.

Live integrators report prose in `content[0].text` with the data in `structuredContent`;
a connector may pass only the prose on. Each numbered line is one record: the name
before " — " (or " - "), details split on " | ", the first `₹` amount as its price, and
the ids of a trailing `(ID: a, SKU: b)`. Headings and other lines are context.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from swiggy_core.parsers._values import to_float

_MAX_LINES = 2_000
_MAX_LINE_CHARS = 1_000
_MAX_DETAILS = 12
_MAX_IDS = 6
_MAX_ID_CHARS = 120
_MAX_KEY_CHARS = 24
# `12. ` or `12) ` at the start; one bounded run of digits, no backtracking.
_NUMBERED_RE = re.compile(r"^(\d{1,6})[.)]\s+")
_NAME_SEPARATORS = (" — ", " – ", " - ")
# A detail that names an id ("restaurantId: 23678") is kept as a named id.
_NAMED_ID_RE = re.compile(r"^([A-Za-z][A-Za-z_]{0,30}(?:Id|ID|_id)):\s*(\S{1,120})$")
# Live Dineout text renders a rating object as "[object Object]★": no rating to show.
_BROKEN_VALUE = "[object Object]"
_RUPEE = "₹"


@dataclass(frozen=True)
class SummaryLine:
    """One numbered record of a summary; `record_id` is the first id of its `(ID: …)`."""

    index: int
    name: str
    record_id: str | None
    ids: dict[str, str] = field(default_factory=dict)
    details: tuple[str, ...] = ()
    price: float | None = None
    raw: str = ""


def read_summary(text: str) -> list[SummaryLine]:
    """The numbered records of a summary text, in order; never raises."""
    if not isinstance(text, str):
        return []
    lines: list[SummaryLine] = []
    for raw_line in text.splitlines()[:_MAX_LINES]:
        line = _read_line(raw_line.strip()[:_MAX_LINE_CHARS])
        if line is not None:
            lines.append(line)
    return lines


def _read_line(raw: str) -> SummaryLine | None:
    match = _NUMBERED_RE.match(raw)
    if match is None:
        return None
    body, record_id, ids = _split_ids(raw[match.end() :])
    name, rest = _split_name(body)
    name = name.replace("**", "").strip()
    if not name:
        return None
    details: list[str] = []
    for part in rest.split(" | ")[:_MAX_DETAILS] if rest else []:
        detail = part.strip()
        if not detail or _BROKEN_VALUE in detail:
            continue
        named = _NAMED_ID_RE.match(detail)
        if named is not None and len(ids) < _MAX_IDS:
            ids.setdefault(named.group(1), named.group(2))
            continue
        details.append(detail)
    return SummaryLine(
        index=int(match.group(1)),
        name=name,
        record_id=record_id,
        ids=ids,
        details=tuple(details),
        price=_price(details),
        raw=raw,
    )


def _split_ids(body: str) -> tuple[str, str | None, dict[str, str]]:
    """The text before a trailing `(ID: a, Key: b)`, the first id, and the other named ids."""
    stripped = body.rstrip()
    if not stripped.endswith(")"):
        return stripped, None, {}
    start = stripped.rfind("(")
    if start < 0:
        return stripped, None, {}
    pairs = _pairs(stripped[start + 1 : -1])
    if not pairs:
        return stripped, None, {}
    (_, first), *rest = pairs
    return stripped[:start].rstrip(), first, dict(rest[:_MAX_IDS])


def _pairs(inside: str) -> list[tuple[str, str]]:
    """`ID: a, SKU: b` as key/value pairs; anything else in the brackets is not an id list."""
    pairs: list[tuple[str, str]] = []
    for part in inside.split(",")[: _MAX_IDS + 1]:
        key, sep, value = part.partition(":")
        key, value = key.strip(), value.strip()
        if not sep or not key or not value or len(key) > _MAX_KEY_CHARS:
            return []
        if not key.replace(" ", "").replace("_", "").isalnum() or len(value) > _MAX_ID_CHARS:
            return []
        pairs.append((key, value))
    return pairs


def _split_name(body: str) -> tuple[str, str]:
    for separator in _NAME_SEPARATORS:
        name, sep, rest = body.partition(separator)
        if sep:
            return name, rest
    return body, ""


def _price(details: list[str]) -> float | None:
    for detail in details:
        position = detail.find(_RUPEE)
        if position >= 0:
            amount = to_float(detail[position:])
            if amount is not None and amount >= 0:
                return amount
    return None
