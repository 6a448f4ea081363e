"""Context shared by the request builder and the session summary: address and local time."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from swiggy_core.constants import SWIGGY_TZ, SWIGGY_TZ_LABEL

# Fixed English names: strftime's %A/%B follow the process locale.
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip
_SATURDAY = 5

# Field spellings seen in Swiggy payloads and in our own address models.
_ID_KEYS = ("id", "addressId", "address_id")
_LABEL_KEYS = ("label", "addressTag", "tag", "addressCategory", "annotation")
_TEXT_KEYS = ("address", "addressLine", "address_line", "text", "full_address", "formatted_address")
_LAT_KEYS = ("lat", "latitude")
_LNG_KEYS = ("lng", "lon", "longitude")


@dataclass(frozen=True, slots=True)
class AddressView:
    """The few address fields the prompt needs, whatever object they came from."""

    id: str
    label: str = ""
    text: str = ""
    lat: float | None = None
    lng: float | None = None


def address_view(address: Any) -> AddressView | None:
    """Read an address from a mapping or an object with id/label/address/lat/lng."""
    if address is None:
        return None
    address_id = _pick(address, _ID_KEYS)
    if address_id in (None, ""):
        return None
    return AddressView(
        id=str(address_id),
        label=str(_pick(address, _LABEL_KEYS) or ""),
        text=str(_pick(address, _TEXT_KEYS) or ""),
        lat=_float(_pick(address, _LAT_KEYS)),
        lng=_float(_pick(address, _LNG_KEYS)),
    )


def local_now(now: datetime | None = None) -> datetime:
    """`now` in India time; a naive datetime is taken to be India time already."""
    if now is None:
        return datetime.now(SWIGGY_TZ)
    if now.tzinfo is None:
        return now.replace(tzinfo=SWIGGY_TZ)
    return now.astimezone(SWIGGY_TZ)


def long_datetime(now: datetime) -> str:
    """'Saturday, 21 November 2026, 22:40 IST'."""
    return f"{long_date(now.date())}, {now:%H:%M} {SWIGGY_TZ_LABEL}"


def short_datetime(now: datetime) -> str:
    """'Sat 2026-11-21 22:40 IST' for the compact session summary."""
    return f"{_DAYS[now.weekday()][:3]} {now:%Y-%m-%d %H:%M} {SWIGGY_TZ_LABEL}"


def datetime_context(now: datetime) -> str:
    """The date/time system block, with relative dates already resolved."""
    today = now.date()
    tomorrow = today + timedelta(days=1)
    if today.weekday() > _SATURDAY:  # Sunday: only today is left of this weekend
        weekend_start = weekend_end = today
    else:
        weekend_start = today + timedelta(days=_SATURDAY - today.weekday())
        weekend_end = weekend_start + timedelta(days=1)
    return (
        f"Current date and time: {long_datetime(now)} (ISO date {today.isoformat()}, "
        f"UTC{now:%z}).\n"
        "Resolve relative dates from this, never from your own knowledge:\n"
        f"- today = {long_date(today)} ({today.isoformat()})\n"
        f"- tonight = {today.isoformat()}, evening (after 6 pm)\n"
        f"- tomorrow = {long_date(tomorrow)} ({tomorrow.isoformat()})\n"
        f"- this weekend = {weekend_start.isoformat()} to {weekend_end.isoformat()}\n"
        "If a requested time today has already passed, say so and offer the next option."
    )


def address_context(address: AddressView) -> str:
    """The active-address system block (the location lock)."""
    name = address.label or "Selected address"
    where = f"{name}: {address.text}" if address.text else name
    coords = ""
    if address.lat is not None and address.lng is not None:
        coords = f", latitude {address.lat}, longitude {address.lng}"
    return (
        f"Active address: {where} (addressId: {address.id}{coords}).\n"
        f'Use this addressId ("{address.id}") for every tool call that takes an address '
        "(addressId, selectedAddressId), and these coordinates wherever a tool asks for "
        "latitude and longitude. Never invent or guess another address id."
    )


def long_date(day: date) -> str:
    """'Saturday, 21 November 2026' (fixed English names, whatever the locale)."""
    return f"{_DAYS[day.weekday()]}, {day.day} {_MONTHS[day.month - 1]} {day.year}"


def _pick(source: Any, keys: tuple[str, ...]) -> Any:
    for key in keys:
        value = source.get(key) if isinstance(source, Mapping) else getattr(source, key, None)
        if value not in (None, ""):
            return value
    return None


def _float(value: Any) -> float | None:
    try:
        return float(value) if value is not None else None
    except (TypeError, ValueError):
        return None
