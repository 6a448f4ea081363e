"""The session summary as a typed record: how its fields are written, and read back.

The summary travels as one line of text (`slots=…; intent=…; …; location=…`) because the
model reads it. Anything that plays the model offline reads the same line back with
`read_session_summary`, so the format is defined once, here, next to its reader.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from swiggy_core.constants import (
    SESSION_SUMMARY_PREFIX,
    SUMMARY_FIELDS,
    SWIGGY_TZ,
    SWIGGY_TZ_LABEL,
)
from swiggy_core.conversation._context import short_datetime

NONE = "none"
# Keeps a labelled place within the summary's per-field cap, so its id is never cut off.
_LABEL_MAX = 32
# "Home (id addr-1 at 12.97,77.64)", "Home (id addr-1)", "id addr-1", "Toit"
_LABELLED = re.compile(
    r"^(?:(?P<label>.*?) \()?id (?P<id>[^\s()]+)"
    r"(?: at (?P<lat>-?\d+(?:\.\d+)?),(?P<lng>-?\d+(?:\.\d+)?))?\)?$"
)


@dataclass(frozen=True, slots=True)
class Place:
    """A named thing with an id (the locked restaurant, the active address)."""

    label: str = ""
    id: str = ""
    lat: float | None = None
    lng: float | None = None

    @property
    def coordinates(self) -> tuple[float, float] | None:
        if self.lat is None or self.lng is None:
            return None
        return self.lat, self.lng


@dataclass(frozen=True, slots=True)
class SessionSummary:
    """What the core knew about the session when it built the request."""

    slots: Mapping[str, str] = field(default_factory=dict)
    intent: str | None = None
    confirm: str | None = None
    moment: datetime | None = None
    restaurant: Place | None = None
    location: Place | None = None


def format_place(
    label: str | None, ident: str | None, lat: float | None = None, lng: float | None = None
) -> str:
    """`Home (id addr-1 at 12.97,77.64)`; parts that are unknown are left out."""
    if label and len(label) > _LABEL_MAX:
        label = label[: _LABEL_MAX - 1] + "…"
    if not ident:
        return label or NONE
    where = f" at {lat},{lng}" if lat is not None and lng is not None else ""
    return f"{label} (id {ident}{where})" if label else f"id {ident}{where}"


def format_moment(now: datetime) -> str:
    """`Sat 2026-11-21 22:40 IST`."""
    return short_datetime(now)


def read_session_summary(*texts: str) -> SessionSummary | None:
    """The summary found in `texts` (system prompt first, then message texts), else None."""
    for text in texts:
        start = text.find(SESSION_SUMMARY_PREFIX)
        if start >= 0:
            line = text[start + len(SESSION_SUMMARY_PREFIX) :].split("\n", 1)[0]
            return _summary(_fields(line))
    return None


def _fields(line: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    for part in line.split("; "):
        key, _, value = part.partition("=")
        if key in SUMMARY_FIELDS and value and value != NONE:
            fields[key] = value
    return fields


def _summary(fields: dict[str, str]) -> SessionSummary:
    return SessionSummary(
        slots=_slots(fields.get("slots", "")),
        intent=fields.get("intent"),
        confirm=fields.get("confirm"),
        moment=_moment(fields.get("datetime", "")),
        restaurant=_place(fields.get("restaurant", "")),
        location=_place(fields.get("location", "")),
    )


def _slots(value: str) -> dict[str, str]:
    slots: dict[str, str] = {}
    for pair in value.split(", "):
        name, _, slot = pair.partition(":")
        if name.strip() and slot.strip():
            slots[name.strip()] = slot.strip()
    return slots


def _moment(value: str) -> datetime | None:
    """`Sat 2026-11-21 22:40 IST` → an aware datetime in India time."""
    parts = value.split()
    if len(parts) != 4 or parts[3] != SWIGGY_TZ_LABEL:
        return None
    try:
        moment = datetime.strptime(f"{parts[1]} {parts[2]}", "%Y-%m-%d %H:%M")
    except ValueError:
        return None
    return moment.replace(tzinfo=SWIGGY_TZ)


def _place(value: str) -> Place | None:
    if not value:
        return None
    match = _LABELLED.match(value)
    if match is None:  # a name without an id
        return Place(label=value)
    lat, lng = match.group("lat"), match.group("lng")
    return Place(
        label=match.group("label") or "",
        id=match.group("id"),
        lat=float(lat) if lat is not None else None,
        lng=float(lng) if lng is not None else None,
    )
