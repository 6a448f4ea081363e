"""Dineout time slots, grouped by date, the requested date and time first."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta, timezone
from functools import lru_cache
from typing import Any

from swiggy_core.constants import SWIGGY_UTC_OFFSET_MINUTES
from swiggy_core.parsers._values import (
    NUMBER_TYPES,
    as_dict,
    as_list,
    pick,
    to_bool,
    to_float,
    to_id,
    to_str,
)
from swiggy_core.parsers.records import find_records
from swiggy_core.parsers.results import SlotDay, TimeSlot, TimeSlotsResult
from swiggy_core.parsers.shapes import AVAILABILITY_KEYS, TIME_KEYS, is_slot_record
from swiggy_core.parsers.unwrap import extract_payload

_TZ = timezone(timedelta(minutes=SWIGGY_UTC_OFFSET_MINUTES))
_MAX_SLOTS = 400  # seven days of half-hour slots
_CLOCK_RE = re.compile(r"(\d{1,2})(?:[:.](\d{2}))?(?::\d{2})?\s?([ap])?", re.IGNORECASE)
_CLOCK_SCAN_CHARS = 40
_CACHE_SIZE = 1_024  # slot times and dates repeat across days and results
_ISO_DATE_CHARS = 10
_DATE_SCAN_CHARS = 40
_MS_EPOCH = 10**12
_MIN_EPOCH = 10**9
# Later keys win: an explicit date beats a day label.
_DATE_CONTEXT = {
    "day": "date",
    "displayDate": "date",
    "slotDate": "date",
    "dateStr": "date",
    "date": "date",
}
_DISPLAY_TIME_KEYS = ("displayTime", "display_time")
_DEAL_KEYS = ("deals", "items", "offers")
_UNAVAILABLE_WORDS = ("unavail", "not avail", "sold", "full", "closed", "booked", "blocked")
_STRING_SLOT_KEYS = ("data", "slots", "availableSlots", "timeSlots", "times", "result")
_EPOCH_KEYS = ("reservationTime", "reservation_time", "timestamp", "epoch", "startEpoch")


def parse_slots(payload: Any, tool_input: dict[str, Any] | None = None) -> TimeSlotsResult | None:
    """Slots grouped by date, or None when the payload holds none."""
    tool_input = tool_input if isinstance(tool_input, dict) else {}
    requested_date = _requested_date(tool_input)
    requested_minutes = _requested_minutes(tool_input)
    payload = _dated_lists(payload)
    found = find_records(payload, is_slot_record, inherit=_DATE_CONTEXT, limit=_MAX_SLOTS)
    slots = [
        _slot(record, context, requested_date, requested_minutes)
        for record, context in found.records
    ]
    if not slots:
        slots = _string_slots(payload, requested_date, requested_minutes)
    if not slots:
        return None
    exact = [s for s in slots if s.requested]
    return TimeSlotsResult(
        days=_group(slots, requested_date, requested_minutes),
        restaurant_id=to_id(pick(tool_input, "restaurantId", "restaurant_id")),
        requested_date=requested_date,
        requested_time=_clock_text(requested_minutes),
        requested_available=(
            any(s.available for s in exact) if requested_minutes is not None else None
        ),
    )


def _slot(
    record: dict[str, Any],
    context: dict[str, Any],
    requested_date: str | None,
    requested_minutes: int | None,
) -> TimeSlot:
    epoch = _epoch(pick(record, *_EPOCH_KEYS))
    raw_time = pick(record, *TIME_KEYS)
    if epoch is None and isinstance(raw_time, NUMBER_TYPES) and not isinstance(raw_time, bool):
        epoch = _epoch(raw_time)
    text = to_str(raw_time, 40) if isinstance(raw_time, str) else None
    minutes = _clock_minutes(text) if text else None
    text = to_str(pick(record, *_DISPLAY_TIME_KEYS), 40) or text
    date = _date_text(pick(record, "date", "dateStr", "slotDate")) or _date_text(
        context.get("date")
    )
    if epoch is not None and (minutes is None or date is None):
        moment = datetime.fromtimestamp(epoch, tz=_TZ)
        minutes = moment.hour * 60 + moment.minute if minutes is None else minutes
        date = date or moment.date().isoformat()
    date = date or requested_date
    return TimeSlot(
        time=text or _clock_text(minutes) or "?",
        slot_id=to_id(pick(record, "slotId", "slot_id", "id")),
        item_id=to_id(pick(record, "itemId", "item_id", "dealId")) or _free_deal_item(record),
        date=date,
        available=_available(record),
        reservation_time=epoch,
        minutes=minutes,
        requested=_is_requested(date, minutes, requested_date, requested_minutes),
    )


def _free_deal_item(record: dict[str, Any]) -> str | None:
    """The itemId `book_table` needs when it sits in the slot's deals (free deal first)."""
    deals = [d for d in as_list(pick(record, *_DEAL_KEYS))[:10] if isinstance(d, dict)]
    free = [d for d in deals if to_bool(pick(d, "isFree", "is_free")) is True]
    for deal in free or deals:
        item_id = to_id(pick(deal, "itemId", "item_id", "dealId", "id"))
        if item_id:
            return item_id
    return None


def _is_requested(
    date: str | None, minutes: int | None, requested_date: str | None, requested: int | None
) -> bool:
    return requested is not None and minutes == requested and date == requested_date


def _available(record: dict[str, Any]) -> bool:
    for key in AVAILABILITY_KEYS:
        if key not in record:
            continue
        value = record[key]
        if key in ("soldOut", "sold_out"):
            return to_bool(value) is not True
        if key == "availableSeats":
            seats = to_float(value)
            return seats is None or seats > 0
        flag = to_bool(value)
        if flag is not None:
            return flag
        if isinstance(value, str):
            return not _says_unavailable(value)
    status = record.get("status")
    return not (isinstance(status, str) and _says_unavailable(status))


def _says_unavailable(text: str) -> bool:
    lowered = text[:60].lower().replace("_", " ")
    return any(word in lowered for word in _UNAVAILABLE_WORDS)


def _epoch(value: Any) -> int | None:
    digits = isinstance(value, str) and value.strip().isdigit()
    number = to_float(value) if digits or not isinstance(value, str) else None
    if number is None:
        return None
    if number >= _MS_EPOCH:
        number /= 1000
    return int(number) if _MIN_EPOCH <= number < _MS_EPOCH else None


def _clock_minutes(text: str) -> int | None:
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


def _clock_text(minutes: int | None) -> str | None:
    if minutes is None:
        return None
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def _date_text(value: Any) -> str | None:
    if value is None:
        return None
    if type(value) is str and len(value) <= _DATE_SCAN_CHARS:
        return _date_from_text(value)
    if isinstance(value, NUMBER_TYPES) and not isinstance(value, bool):
        epoch = _epoch(value)
        return datetime.fromtimestamp(epoch, tz=_TZ).date().isoformat() if epoch else None
    return _date_from_text(to_str(value, _DATE_SCAN_CHARS) or "")


@lru_cache(maxsize=_CACHE_SIZE)
def _date_from_text(value: str) -> str | None:
    """An ISO date prefix ("2026-05-01T19:00") as the date; other labels as given."""
    text = to_str(value, _DATE_SCAN_CHARS)
    if text and len(text) >= _ISO_DATE_CHARS and _is_iso_date(text[:_ISO_DATE_CHARS]):
        return text[:_ISO_DATE_CHARS]
    return text


@lru_cache(maxsize=_CACHE_SIZE)
def _is_iso_date(text: str) -> bool:
    if len(text) != _ISO_DATE_CHARS:
        return False
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return True


def _requested_date(tool_input: dict[str, Any]) -> str | None:
    date = _date_text(pick(tool_input, "date", "reservationDate"))
    if date is None:
        epoch = _epoch(pick(tool_input, "reservationTime", "reservation_time"))
        date = datetime.fromtimestamp(epoch, tz=_TZ).date().isoformat() if epoch else None
    return date


def _requested_minutes(tool_input: dict[str, Any]) -> int | None:
    text = to_str(pick(tool_input, "time", "preferredTime", "preferred_time", "slotTime"), 40)
    if text:
        return _clock_minutes(text)
    epoch = _epoch(pick(tool_input, "reservationTime", "reservation_time"))
    if epoch is None:
        return None
    moment = datetime.fromtimestamp(epoch, tz=_TZ)
    return moment.hour * 60 + moment.minute


def _group(slots: list[TimeSlot], requested_date: str | None, minutes: int | None) -> list[SlotDay]:
    days: dict[str, list[TimeSlot]] = {}
    for slot in slots:
        days.setdefault(slot.date or "", []).append(slot)
    order = list(days)
    if all(_is_iso_date(d) for d in order):
        order.sort()
    if requested_date in days:
        order.remove(requested_date)
        order.insert(0, requested_date)
    result = []
    for day in order:
        day_slots = days[day]
        if minutes is not None and day in (requested_date or "", order[0]):
            # Nearest to the requested time first, available before unavailable.
            day_slots.sort(key=lambda s: _distance(s, minutes))
        result.append(SlotDay(date=day, slots=day_slots))
    return result


def _distance(slot: TimeSlot, minutes: int) -> tuple[int, int]:
    gap = abs(slot.minutes - minutes) if slot.minutes is not None else 24 * 60
    return (0 if slot.available else 1, gap)


def _dated_lists(payload: Any) -> Any:
    """`{"2026-05-01": [...], ...}` becomes a list of `{"date", "slots"}` days."""
    node = extract_payload(payload, ("data", "result", "slots", "availableSlots"))
    record = as_dict(node)
    if record and all(isinstance(k, str) and _is_iso_date(k[:10]) for k in list(record)[:8]):
        return [{"date": k[:10], "slots": v} for k, v in record.items()]
    return payload


def _string_slots(
    payload: Any, requested_date: str | None, requested_minutes: int | None
) -> list[TimeSlot]:
    """Slots given as bare strings ("19:30"), possibly under dated days."""
    node = extract_payload(payload, _STRING_SLOT_KEYS)
    days = as_list(node) if all(as_dict(d) for d in as_list(node)[:3]) else [{"slots": node}]
    slots: list[TimeSlot] = []
    for day in days[:_MAX_SLOTS]:
        day_dict = as_dict(day) or {}
        date = _date_text(pick(day_dict, "date", "day")) or requested_date
        values = as_list(pick(day_dict, "slots", "times", "availableSlots"))
        for value in values[:_MAX_SLOTS]:
            text = to_str(value, 40)
            minutes = _clock_minutes(text) if text else None
            if text and minutes is not None:
                requested = _is_requested(date, minutes, requested_date, requested_minutes)
                slots.append(TimeSlot(time=text, date=date, minutes=minutes, requested=requested))
    return slots[:_MAX_SLOTS]
