"""Clock times, dates and epochs as Dineout and its summaries write them (IST)."""

from __future__ import annotations

import re
from datetime import date, datetime
from functools import lru_cache
from typing import Any

from swiggy_core.constants import SWIGGY_TZ
from swiggy_core.parsers._values import NUMBER_TYPES, to_float, to_str

_CLOCK_RE = re.compile(r"(\d{1,2})(?:[:.](\d{2}))?(?::\d{2})?\s?([ap])?", re.IGNORECASE)
_CLOCK_SCAN_CHARS = 40
_CACHE_SIZE = 1_024  # slot times and dates repeat across days and results
_ISO_DATE_CHARS = 10
_DATE_SCAN_CHARS = 40
_MS_EPOCH = 10**12
_MIN_EPOCH = 10**9
_ISO_DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")
_LINE_SCAN_CHARS = 200


def iso_date_in(text: str) -> str | None:
    """The first valid ISO date (YYYY-MM-DD) inside a text line, if any."""
    for match in _ISO_DATE_RE.finditer(text[:_LINE_SCAN_CHARS]):
        if is_iso_date(match.group()):
            return match.group()
    return None


def epoch_seconds(value: Any) -> int | None:
    """Unix seconds from seconds or milliseconds (number or digit string), else None."""
    digits = isinstance(value, str) and value.strip().isdigit()
    number = to_float(value) if digits or not isinstance(value, str) else None
    if number is None:
        return None
    if number >= _MS_EPOCH:
        number /= 1000
    return int(number) if _MIN_EPOCH <= number < _MS_EPOCH else None


def clock_minutes(text: str) -> int | None:
    """Minutes after midnight from "19:30", "7:30 PM", "7 pm" or an ISO date-time."""
    return _clock_sample(text[:_CLOCK_SCAN_CHARS])


@lru_cache(maxsize=_CACHE_SIZE)
def _clock_sample(text: str) -> int | None:
    sample = text.strip()
    if len(sample) >= 11 and sample[:4].isdigit() and sample[10:11] in ("T", " "):
        sample = sample[11:]
    for match in _CLOCK_RE.finditer(sample):
        if not match.group(2) and not match.group(3):
            continue  # a bare number is not a clock time
        hours, minutes = int(match.group(1)), int(match.group(2) or 0)
        meridiem = (match.group(3) or "").lower()
        if meridiem and 1 <= hours <= 12:
            hours = hours % 12 + (12 if meridiem == "p" else 0)
        if hours < 24 and minutes < 60:
            return hours * 60 + minutes
    return None


def clock_text(minutes: int | None) -> str | None:
    """Minutes after midnight as "HH:MM"."""
    if minutes is None:
        return None
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def date_text(value: Any) -> str | None:
    """An ISO date from a date string, a date-time or an epoch; other labels as given."""
    if value is None:
        return None
    if type(value) is str and len(value) <= _DATE_SCAN_CHARS:
        return _date_from_text(value)
    if isinstance(value, NUMBER_TYPES) and not isinstance(value, bool):
        epoch = epoch_seconds(value)
        return datetime.fromtimestamp(epoch, tz=SWIGGY_TZ).date().isoformat() if epoch else None
    return _date_from_text(to_str(value, _DATE_SCAN_CHARS) or "")


@lru_cache(maxsize=_CACHE_SIZE)
def _date_from_text(value: str) -> str | None:
    """An ISO date prefix ("2026-05-01T19:00") as the date; other labels as given."""
    text = to_str(value, _DATE_SCAN_CHARS)
    if text and len(text) >= _ISO_DATE_CHARS and is_iso_date(text[:_ISO_DATE_CHARS]):
        return text[:_ISO_DATE_CHARS]
    return text


@lru_cache(maxsize=_CACHE_SIZE)
def is_iso_date(text: str) -> bool:
    """True for a real calendar date written YYYY-MM-DD."""
    if len(text) != _ISO_DATE_CHARS:
        return False
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return True
