"""Restaurants for delivery (Food) and dine-in (Dineout)."""

from __future__ import annotations

from typing import Any

from swiggy_core.constants import PAISE_PER_RUPEE, PARSER_MAX_ITEMS
from swiggy_core.parsers._values import (
    Keys,
    as_dict,
    as_list,
    first,
    pick,
    to_bool,
    to_float,
    to_id,
    to_int,
    to_str,
)
from swiggy_core.parsers.catalog_results import RestaurantsResult
from swiggy_core.parsers.deals import read_deal
from swiggy_core.parsers.dishes import price_scale, read_dish
from swiggy_core.parsers.images import image_from
from swiggy_core.parsers.records import find_records
from swiggy_core.parsers.shapes import NAME_KEYS, is_restaurant_record
from swiggy_core.parsers.unwrap import extract_payload
from swiggy_core.verticals.catalog import find_vertical

_WRAPPERS = (
    *("data", "result", "results", "response", "payload", "restaurants", "items"),
    *("cards", "restaurant"),
)
_MAX_CUISINES = 8
_MAX_RATING = 10.0
_MAX_DISTANCE_KM = 1_000.0
_MAX_DEALS = 10
# The Food listing reports `costForTwo` in paise ("40000" = ₹400); no delivery meal for
# two costs this many rupees, while Dineout reports rupees.
_PAISE_COST_THRESHOLD = 5_000
Fields = dict[str, Any]  # a card model's fields, validated once with the whole result
_NAME_KEYS = Keys(*NAME_KEYS)
_ID_KEYS = Keys("id", "restaurantId", "restaurant_id", "resId")
_CUISINE_KEYS = Keys("cuisines", "cuisine")
_RATING_KEYS = Keys("avgRating", "avg_rating", "rating", "avgRatingString")
_LOCALITY_KEYS = Keys("areaName", "locality", "area", "neighbourhood", "city")
_AVAILABILITY_KEYS = Keys("availabilityStatus", "availability_status")
_NEXT_OPEN_KEYS = Keys("nextOpenTime", "next_open_time")
_DISTANCE_KEYS = Keys("distanceKm", "distance_km", "distance")
_COST_MESSAGE_KEYS = Keys("costForTwoMessage", "costForTwoString")
_COST_KEYS = Keys("costForTwoValue", "priceForTwo", "price_for_two", "cost_for_two")
_SLA_KEYS = Keys("deliveryTime", "maxDeliveryTime", "slaString")
_DELIVERY_KEYS = Keys("deliveryTimeMinutes", "deliveryTime", "delivery_time", "sla", "eta")
_OPEN_KEYS = Keys("isOpen", "is_open", "open", "opened")
_OFFER_KEYS = Keys("offer", "offerText", "discountText", "discount")
_DISCOUNT_INFO_KEYS = (
    "aggregatedDiscountInfoV3",
    "aggregatedDiscountInfoV2",
    "aggregatedDiscountInfo",
)
_OFFER_SOURCES = frozenset({*_OFFER_KEYS, *_DISCOUNT_INFO_KEYS, "offers"})
_EXTRA_KEYS = frozenset().union(
    _OFFER_SOURCES, _DISTANCE_KEYS, _AVAILABILITY_KEYS, _NEXT_OPEN_KEYS, {"deals"}
)


def parse_restaurants(payload: Any, vertical_id: str) -> RestaurantsResult | None:
    """Restaurants found anywhere in the payload, or None when there are none."""
    found = find_records(extract_payload(payload, _WRAPPERS), is_restaurant_record)
    if not found.records:
        found = find_records(payload, is_restaurant_record)
    items = [_restaurant(record, vertical_id) for record, _ in found.records]
    restaurants = [item for item in items if item is not None]
    if not restaurants:
        return None
    data = as_dict(payload) or {}
    # Items are plain fields until here: the result and all its items validate once.
    return RestaurantsResult.model_validate(
        {
            "items": restaurants,
            "dishes": _dishes(data) if "dishes" in data else [],
            "next_offset": to_int(pick(data, "nextOffset", "next_offset")),
            "truncated": found.truncated,
        }
    )


def _dishes(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The dishes a Food restaurant search matched alongside the restaurants."""
    entries = [e for e in as_list(data.get("dishes"))[:PARSER_MAX_ITEMS] if as_dict(e)]
    scale = price_scale(entries)
    dishes = (
        read_dish(entry, name, {}, scale)
        for entry in entries
        if (name := to_str(pick(entry, *NAME_KEYS))) is not None
    )
    return list(dishes)


def _restaurant(record: dict[str, Any], vertical_id: str) -> Fields | None:
    """One restaurant's `RestaurantItem` fields (validated with the whole result)."""
    name = to_str(first(record, _NAME_KEYS))
    if name is None:
        return None
    fields: Fields = {
        "name": name,
        "restaurant_id": to_id(first(record, _ID_KEYS)),
        "cuisines": _cuisines(first(record, _CUISINE_KEYS)),
        "rating": _rating(first(record, _RATING_KEYS)),
        "cost_for_two": _cost_for_two(record, vertical_id),
        "delivery_time_minutes": _delivery_minutes(record),
        "locality": to_str(first(record, _LOCALITY_KEYS)),
        "is_open": _is_open(record),
        "image_url": image_from(record),
        "offer": None,
        "distance_km": None,
        "availability": None,
        "next_open": None,
        "deals": [],
    }
    # Offers, distance, availability and deals are rare on delivery: one test for all.
    if not _EXTRA_KEYS.isdisjoint(record):
        fields["offer"] = _offer(record)
        fields["distance_km"] = _distance(record)
        fields["availability"] = to_str(first(record, _AVAILABILITY_KEYS), 20)
        fields["next_open"] = to_str(first(record, _NEXT_OPEN_KEYS), 60)
        fields["deals"] = _deals(record) if "deals" in record else []
    return fields


def _distance(record: dict[str, Any]) -> float | None:
    """`distanceKm` (Food) or a "1.2 km" string (Dineout)."""
    value = first(record, _DISTANCE_KEYS)
    if value is None:
        return None
    if isinstance(value, str) and "km" not in value.lower():
        return None  # "800 m" or a label: not kilometres
    distance = to_float(value)
    return distance if distance is not None and 0 <= distance < _MAX_DISTANCE_KM else None


def _deals(record: dict[str, Any]) -> list[Fields]:
    """Dineout deals; a prebook with a price or cover charge is paid (not bookable here)."""
    deals: list[Fields] = []
    for entry in as_list(record.get("deals"))[:_MAX_DEALS]:
        deal = read_deal(entry) if isinstance(entry, dict) else None
        if deal is not None and deal.title:
            price = deal.price if deal.paid else None
            deals.append({"title": deal.title, "paid": deal.paid, "price": price})
    return deals


def _cuisines(value: Any) -> list[str]:
    raw = value.split(",") if isinstance(value, str) else as_list(value)
    return [name for item in raw[:_MAX_CUISINES] if (name := to_str(item, 40))]


def _rating(value: Any) -> float | None:
    if isinstance(value, dict):
        value = pick(value, "value", "rating", "avgRating", "aggregate")
    rating = to_float(value)
    return rating if rating is not None and 0 <= rating <= _MAX_RATING else None


def _cost_for_two(record: dict[str, Any], vertical_id: str) -> float | None:
    message = to_float(first(record, _COST_MESSAGE_KEYS))
    if message is not None:
        return message
    rupees = to_float(first(record, _COST_KEYS))
    if rupees is not None:
        return rupees
    raw = record.get("costForTwo")
    cost = to_float(raw)
    if cost is None or cost < 0:
        return None
    plain_number = not isinstance(raw, str) or raw.strip().isdigit()
    vertical = find_vertical(vertical_id)
    in_rupees = vertical is not None and vertical.price_unit == "table_for_two"
    if plain_number and not in_rupees and cost >= _PAISE_COST_THRESHOLD:
        return round(cost / PAISE_PER_RUPEE, 2)
    return cost  # "₹400 for two" and Dineout numbers are rupees


def _delivery_minutes(record: dict[str, Any]) -> int | None:
    sla = as_dict(record.get("sla"))
    value = (first(sla, _SLA_KEYS) if sla else None) or first(record, _DELIVERY_KEYS)
    return to_int(value) if not isinstance(value, dict) else None


def _is_open(record: dict[str, Any]) -> bool | None:
    flag = to_bool(first(record, _OPEN_KEYS))
    if flag is not None:
        return flag
    status = to_str(first(record, _AVAILABILITY_KEYS), 20)
    if status is not None:
        return status.upper() == "OPEN"  # CLOSED and UNAVAILABLE take no orders
    availability = as_dict(record.get("availability")) or {}
    return to_bool(pick(availability, "opened", "isOpen"))


def _offer(record: dict[str, Any]) -> str | None:
    if record.keys().isdisjoint(_OFFER_SOURCES):
        return None
    text = to_str(first(record, _OFFER_KEYS), 80)
    if text:
        return text
    for key in _DISCOUNT_INFO_KEYS:
        info = as_dict(record.get(key))
        if info:
            parts = (to_str(info.get("header"), 40), to_str(info.get("subHeader"), 40))
            joined = " ".join(p for p in parts if p)
            if joined:
                return joined
    offers = as_list(record.get("offers"))
    head = offers[0] if offers else None
    if isinstance(head, dict):
        return to_str(pick(head, "title", "offerTitle", "description", "header"), 80)
    return to_str(head, 80)
