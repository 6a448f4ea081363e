"""Restaurants for delivery (Food) and dine-in (Dineout)."""

from __future__ import annotations

from typing import Any

from swiggy_core.constants import PAISE_PER_RUPEE, VERTICAL_DINING
from swiggy_core.parsers._values import (
    as_dict,
    as_list,
    pick,
    to_bool,
    to_float,
    to_id,
    to_int,
    to_str,
)
from swiggy_core.parsers.images import image_from
from swiggy_core.parsers.records import find_records
from swiggy_core.parsers.results import RestaurantItem, RestaurantsResult
from swiggy_core.parsers.shapes import NAME_KEYS, is_restaurant_record
from swiggy_core.parsers.unwrap import extract_payload

_WRAPPERS = (
    *("data", "result", "results", "response", "payload", "restaurants", "items"),
    *("cards", "restaurant"),
)
_MAX_CUISINES = 8
_MAX_RATING = 10.0
# The Food listing reports `costForTwo` in paise ("40000" = ₹400); no delivery meal for
# two costs this many rupees, while Dineout reports rupees.
_PAISE_COST_THRESHOLD = 5_000


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
    return RestaurantsResult(
        items=restaurants,
        next_offset=to_int(pick(data, "nextOffset", "next_offset")),
        truncated=found.truncated,
    )


def _restaurant(record: dict[str, Any], vertical_id: str) -> RestaurantItem | None:
    name = to_str(pick(record, *NAME_KEYS))
    if name is None:
        return None
    return RestaurantItem(
        name=name,
        restaurant_id=to_id(pick(record, "id", "restaurantId", "restaurant_id", "resId")),
        cuisines=_cuisines(pick(record, "cuisines", "cuisine")),
        rating=_rating(pick(record, "avgRating", "avg_rating", "rating", "avgRatingString")),
        cost_for_two=_cost_for_two(record, vertical_id),
        delivery_time_minutes=_delivery_minutes(record),
        locality=to_str(pick(record, "areaName", "locality", "area", "neighbourhood", "city")),
        is_open=_is_open(record),
        image_url=image_from(record),
        offer=_offer(record),
    )


def _cuisines(value: Any) -> list[str]:
    raw = value.split(",") if isinstance(value, str) else as_list(value)
    names = (to_str(item, 40) for item in raw[:_MAX_CUISINES])
    return [name for name in names if name]


def _rating(value: Any) -> float | None:
    if isinstance(value, dict):
        value = pick(value, "value", "rating", "avgRating", "aggregate")
    rating = to_float(value)
    return rating if rating is not None and 0 <= rating <= _MAX_RATING else None


def _cost_for_two(record: dict[str, Any], vertical_id: str) -> float | None:
    message = to_float(pick(record, "costForTwoMessage", "costForTwoString"))
    if message is not None:
        return message
    rupees = to_float(
        pick(record, "costForTwoValue", "priceForTwo", "price_for_two", "cost_for_two")
    )
    if rupees is not None:
        return rupees
    raw = record.get("costForTwo")
    cost = to_float(raw)
    if cost is None or cost < 0:
        return None
    plain_number = not isinstance(raw, str) or raw.strip().isdigit()
    if plain_number and vertical_id != VERTICAL_DINING and cost >= _PAISE_COST_THRESHOLD:
        return round(cost / PAISE_PER_RUPEE, 2)
    return cost  # "₹400 for two" and Dineout numbers are rupees


def _delivery_minutes(record: dict[str, Any]) -> int | None:
    sla = as_dict(record.get("sla")) or {}
    value = pick(sla, "deliveryTime", "maxDeliveryTime", "slaString") or pick(
        record, "deliveryTime", "delivery_time", "sla", "eta"
    )
    return to_int(value) if not isinstance(value, dict) else None


def _is_open(record: dict[str, Any]) -> bool | None:
    flag = to_bool(pick(record, "isOpen", "is_open", "open", "opened"))
    if flag is not None:
        return flag
    availability = as_dict(record.get("availability")) or {}
    return to_bool(pick(availability, "opened", "isOpen"))


def _offer(record: dict[str, Any]) -> str | None:
    text = to_str(pick(record, "offer", "offerText", "discountText", "discount"), 80)
    if text:
        return text
    for key in ("aggregatedDiscountInfoV3", "aggregatedDiscountInfoV2", "aggregatedDiscountInfo"):
        info = as_dict(record.get(key))
        if info:
            parts = (to_str(info.get("header"), 40), to_str(info.get("subHeader"), 40))
            joined = " ".join(p for p in parts if p)
            if joined:
                return joined
    offers = as_list(record.get("offers"))
    first = offers[0] if offers else None
    if isinstance(first, dict):
        return to_str(pick(first, "title", "description", "header"), 80)
    return to_str(first, 80)
