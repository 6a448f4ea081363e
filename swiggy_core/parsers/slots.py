"""Dineout time slots, grouped by date, the requested date and time first."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from swiggy_core.constants import SWIGGY_TZ
from swiggy_core.parsers._values import (
    NUMBER_TYPES,
    Keys,
    as_dict,
    as_list,
    first,
    pick,
    to_id,
    to_str,
)
from swiggy_core.parsers.choice_results import TimeSlotsResult
from swiggy_core.parsers.clock import (
    clock_minutes,
    clock_text,
    date_text,
    epoch_seconds,
    is_iso_date,
)
from swiggy_core.parsers.deals import slot_terms
from swiggy_core.parsers.records import find_records
from swiggy_core.parsers.shapes import TIME_KEYS, is_slot_record
from swiggy_core.parsers.unwrap import extract_payload

_MAX_SLOTS = 400  # seven days of half-hour slots
# Later keys win: an explicit date beats a day label.
_DATE_CONTEXT = {
    "day": "date",
    "displayDate": "date",
    "slotDate": "date",
    "dateStr": "date",
    "date": "date",
}
_DISPLAY_TIME_KEYS = ("displayTime", "display_time")
_STRING_SLOT_KEYS = ("data", "slots", "availableSlots", "timeSlots", "times", "result")
_EPOCH_KEYS = Keys("reservationTime", "reservation_time", "timestamp", "epoch", "startEpoch")
_TIME_KEYS = Keys(*TIME_KEYS)
_DISPLAY_KEYS = Keys(*_DISPLAY_TIME_KEYS)
_DATE_KEYS = Keys("date", "dateStr", "slotDate")
_SLOT_ID_KEYS = Keys("slotId", "slot_id", "id")
_MEAL_KEYS = Keys("slotGroupName", "slot_group_name", "mealType")
_STRING_SLOT_DEFAULTS = {"available": True, "free": True}
# A slot's own keys beyond its time and id (a plain free slot has none of them).
_EXTRA_SLOT_KEYS = frozenset().union(_EPOCH_KEYS, _DISPLAY_KEYS, _DATE_KEYS, _MEAL_KEYS)
Fields = dict[str, Any]  # a card model's fields, validated once with the whole result


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
    restaurant_id = to_id(pick(tool_input, "restaurantId", "restaurant_id")) or to_id(
        pick(as_dict(extract_payload(payload, ("data", "result"))) or {}, "restaurantId")
    )
    return slots_result(slots, tool_input, restaurant_id)


def slots_result(
    slots: list[Fields], tool_input: dict[str, Any], restaurant_id: str | None
) -> TimeSlotsResult:
    """Slots (`TimeSlot` fields, `requested` already set) grouped by date, the requested
    date and time first; the result and all its slots validate once, here."""
    requested_date = _requested_date(tool_input)
    requested_minutes = _requested_minutes(tool_input)
    exact = [s for s in slots if s["requested"]]
    return TimeSlotsResult.model_validate(
        {
            "days": _group(slots, requested_date, requested_minutes),
            "restaurant_id": restaurant_id,
            "requested_date": requested_date,
            "requested_time": clock_text(requested_minutes),
            "requested_available": (
                any(_bookable(s) for s in exact) if requested_minutes is not None else None
            ),
        }
    )


def _bookable(slot: Fields) -> bool:
    """`TimeSlot.bookable` of a slot's fields."""
    return bool(slot["available"] and slot["free"])


def slot_moment(
    text: str | None, date: str | None, tool_input: dict[str, Any]
) -> tuple[int | None, bool]:
    """Minutes after midnight of a slot's clock text, and whether it is the requested time."""
    minutes = clock_minutes(text) if text else None
    requested = _is_requested(
        date, minutes, _requested_date(tool_input), _requested_minutes(tool_input)
    )
    return minutes, requested


def _slot(
    record: dict[str, Any],
    context: dict[str, Any],
    requested_date: str | None,
    requested_minutes: int | None,
) -> Fields:
    """One slot's `TimeSlot` fields."""
    # Absent fields are common: each is read only when its keys are there (`first`).
    extra = not _EXTRA_SLOT_KEYS.isdisjoint(record)
    raw_epoch = first(record, _EPOCH_KEYS) if extra else None
    epoch = None if raw_epoch is None else epoch_seconds(raw_epoch)
    raw_time = first(record, _TIME_KEYS)
    if epoch is None and isinstance(raw_time, NUMBER_TYPES) and not isinstance(raw_time, bool):
        epoch = epoch_seconds(raw_time)
    text = to_str(raw_time, 40) if isinstance(raw_time, str) else None
    minutes = clock_minutes(text) if text else None
    display = first(record, _DISPLAY_KEYS) if extra else None
    text = (None if display is None else to_str(display, 40)) or text
    raw_date = first(record, _DATE_KEYS) if extra else None
    date = None if raw_date is None else date_text(raw_date)
    if date is None and context:
        date = date_text(context.get("date"))
    if epoch is not None and (minutes is None or date is None):
        moment = datetime.fromtimestamp(epoch, tz=SWIGGY_TZ)
        minutes = moment.hour * 60 + moment.minute if minutes is None else minutes
        date = date or moment.date().isoformat()
    date = date or requested_date
    slot_id = first(record, _SLOT_ID_KEYS)
    meal = first(record, _MEAL_KEYS) if extra else None
    fields = slot_terms(record)  # the dict the slot's own fields join
    fields["time"] = text or clock_text(minutes) or "?"
    fields["slot_id"] = None if slot_id is None else to_id(slot_id)
    fields["date"] = date
    fields["reservation_time"] = epoch
    fields["minutes"] = minutes
    fields["requested"] = _is_requested(date, minutes, requested_date, requested_minutes)
    fields["meal"] = None if meal is None else to_str(meal, 40)
    return fields


def _is_requested(
    date: str | None, minutes: int | None, requested_date: str | None, requested: int | None
) -> bool:
    return requested is not None and minutes == requested and date == requested_date


def _requested_date(tool_input: dict[str, Any]) -> str | None:
    date = date_text(pick(tool_input, "date", "reservationDate"))
    if date is None:
        epoch = epoch_seconds(pick(tool_input, "reservationTime", "reservation_time"))
        date = datetime.fromtimestamp(epoch, tz=SWIGGY_TZ).date().isoformat() if epoch else None
    return date


def _requested_minutes(tool_input: dict[str, Any]) -> int | None:
    text = to_str(pick(tool_input, "time", "preferredTime", "preferred_time", "slotTime"), 40)
    if text:
        return clock_minutes(text)
    epoch = epoch_seconds(pick(tool_input, "reservationTime", "reservation_time"))
    if epoch is None:
        return None
    moment = datetime.fromtimestamp(epoch, tz=SWIGGY_TZ)
    return moment.hour * 60 + moment.minute


def _group(slots: list[Fields], requested_date: str | None, minutes: int | None) -> list[Fields]:
    days: dict[str, list[Fields]] = {}
    for slot in slots:
        days.setdefault(slot["date"] or "", []).append(slot)
    order = list(days)
    if all(is_iso_date(d) for d in order):
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
        result.append({"date": day, "slots": day_slots})
    return result


def _distance(slot: Fields, minutes: int) -> tuple[int, int]:
    slot_minutes = slot["minutes"]
    gap = abs(slot_minutes - minutes) if slot_minutes is not None else 24 * 60
    return (0 if _bookable(slot) else 1, gap)


def _dated_lists(payload: Any) -> Any:
    """`{"2026-05-01": [...], ...}` becomes a list of `{"date", "slots"}` days."""
    node = extract_payload(payload, ("data", "result", "slots", "availableSlots"))
    record = as_dict(node)
    if record and all(isinstance(k, str) and is_iso_date(k[:10]) for k in list(record)[:8]):
        return [{"date": k[:10], "slots": v} for k, v in record.items()]
    return payload


def _string_slots(
    payload: Any, requested_date: str | None, requested_minutes: int | None
) -> list[Fields]:
    """Slots given as bare strings ("19:30"), possibly under dated days."""
    node = extract_payload(payload, _STRING_SLOT_KEYS)
    days = as_list(node) if all(as_dict(d) for d in as_list(node)[:3]) else [{"slots": node}]
    slots: list[Fields] = []
    for day in days[:_MAX_SLOTS]:
        day_dict = as_dict(day) or {}
        date = date_text(pick(day_dict, "date", "day")) or requested_date
        values = as_list(pick(day_dict, "slots", "times", "availableSlots"))
        for value in values[:_MAX_SLOTS]:
            text = to_str(value, 40)
            minutes = clock_minutes(text) if text else None
            if text and minutes is not None:
                requested = _is_requested(date, minutes, requested_date, requested_minutes)
                slots.append(
                    {
                        **_STRING_SLOT_DEFAULTS,
                        "time": text,
                        "date": date,
                        "minutes": minutes,
                        "requested": requested,
                    }
                )
    return slots[:_MAX_SLOTS]
