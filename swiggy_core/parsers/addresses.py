"""Saved addresses (Instamart/Food `get_addresses`, Dineout `get_saved_locations`)."""

from __future__ import annotations

from typing import Any

from swiggy_core.parsers._values import (
    Keys,
    as_dict,
    first,
    pick,
    to_bool,
    to_float,
    to_id,
    to_int,
    to_str,
)
from swiggy_core.parsers.choice_results import AddressesResult
from swiggy_core.parsers.records import find_records
from swiggy_core.parsers.shapes import ADDRESS_TEXT_KEYS, is_address_record

_ADDRESS_PARTS = ("line1", "line2", "addressLine1", "addressLine2", "area", "locality", "city")
_MAX_COORDINATE = 180.0
_TEXT_KEYS = Keys(*ADDRESS_TEXT_KEYS)
_LOCATION_KEYS = Keys("location", "coordinates", "geo")
_ID_KEYS = Keys("id", "addressId", "address_id")
_LAT_KEYS = Keys("lat", "latitude")
_LNG_KEYS = Keys("lng", "lon", "longitude")
_LABEL_KEYS = Keys("addressTag", "label", "tag", "annotation")
_CATEGORY_KEYS = Keys("addressCategory", "category", "type")
Fields = dict[str, Any]  # a card model's fields, validated once with the whole result


def parse_addresses(payload: Any) -> AddressesResult | None:
    """Addresses found anywhere in the payload, or None when there are none."""
    found = find_records(payload, is_address_record)
    items = [_address(record) for record, _ in found.records]
    addresses = [item for item in items if item is not None]
    if not addresses:
        return None
    pages = as_dict(pick(as_dict(payload) or {}, "pagination")) or {}
    # Items are plain fields until here: the result and all its items validate once.
    return AddressesResult.model_validate(
        {
            "items": addresses,
            "total": to_int(pages.get("total")),
            "has_more": to_bool(pages.get("hasMore")) is True,
        }
    )


def _address(record: dict[str, Any]) -> Fields | None:
    """One address's `AddressItem` fields."""
    text = _address_text(first(record, _TEXT_KEYS))
    if text is None:
        return None
    location = as_dict(first(record, _LOCATION_KEYS)) or {}
    lat = first(record, _LAT_KEYS) or (first(location, _LAT_KEYS) if location else None)
    lng = first(record, _LNG_KEYS) or (first(location, _LNG_KEYS) if location else None)
    return {
        "address": text,
        "address_id": to_id(first(record, _ID_KEYS)),
        "label": _label(record),
        "lat": _coordinate(lat),
        "lng": _coordinate(lng),
    }


def _label(record: dict[str, Any]) -> str | None:
    """`addressTag` ("Home", "Mom's place"), else the category (`HOME` → "Home")."""
    label = to_str(first(record, _LABEL_KEYS), 60)
    if label:
        return label
    category = to_str(first(record, _CATEGORY_KEYS), 60)
    if category and (category.isupper() or "_" in category):
        return category.replace("_", " ").capitalize()
    return category or to_str(record.get("name"), 60)


def _address_text(value: Any) -> str | None:
    if isinstance(value, dict):
        parts = (to_str(value.get(key), 120) for key in _ADDRESS_PARTS)
        return to_str(", ".join(part for part in parts if part))
    return to_str(value)


def _coordinate(value: Any) -> float | None:
    number = to_float(value)
    return number if number is not None and abs(number) <= _MAX_COORDINATE else None
