"""Food catalog entities in the shapes Swiggy documents (SWIGGY_REFERENCE.md, Food).

Dish prices stay in paise, as on Swiggy's menus; a restaurant's cost for two is a label.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from swiggy_core.formatting import rupees
from swiggy_sandbox.catalog import Dish, Restaurant, haversine_km, is_open
from swiggy_sandbox.catalog._ids import hash_int
from swiggy_sandbox.catalog.geo import CITY, delivery_minutes
from swiggy_sandbox.catalog.wire import image_url

MENU_ITEM_CAP = 150
RECOMMENDED = "Recommended"
_SLA_SPREAD_MINUTES = 5
# A category this large that mixes veg and non-veg dishes is shown as Parent/Veg, Parent/Non-Veg.
_NESTED_CATEGORY_MIN = 4
_OFFERS = ("50% OFF up to ₹100", "₹75 OFF above ₹399", "20% OFF up to ₹60", "Free delivery")


def _ratings_label(count: int) -> str:
    return f"{count // 1000}K+" if count >= 1000 else f"{count}+"


def _sla(restaurant: Restaurant, origin: tuple[float, float]) -> tuple[float, int]:
    km = haversine_km(origin[0], origin[1], restaurant.lat, restaurant.lng)
    return km, delivery_minutes(km, restaurant.prep_minutes)


def _range(minutes: int) -> str:
    return f"{minutes}-{minutes + _SLA_SPREAD_MINUTES} mins"


def _offer(restaurant: Restaurant) -> str | None:
    """About half the restaurants advertise one of the cash-friendly coupons."""
    seed = hash_int(f"offer:{restaurant.id}")
    return _OFFERS[seed % len(_OFFERS)] if seed % 2 == 0 else None


def availability(restaurant: Restaurant, now: datetime) -> str:
    """OPEN or CLOSED (Swiggy also answers UNAVAILABLE for places that cannot deliver)."""
    return "OPEN" if is_open(restaurant.opens_at, restaurant.closes_at, now) else "CLOSED"


def restaurant_card(
    restaurant: Restaurant, base_url: str, origin: tuple[float, float], now: datetime
) -> dict[str, Any]:
    """A search_restaurants entry."""
    km, minutes = _sla(restaurant, origin)
    status = availability(restaurant, now)
    return {
        "id": restaurant.id,
        "name": restaurant.name,
        "cuisines": list(restaurant.cuisines),
        "avgRating": restaurant.avg_rating,
        "totalRatings": _ratings_label(restaurant.total_ratings),
        "costForTwo": f"{rupees(restaurant.cost_for_two)} for two",
        "areaName": restaurant.area_name,
        "distanceKm": round(km, 1),
        "deliveryTimeMinutes": minutes,
        "deliveryTimeRange": _range(minutes),
        "veg": restaurant.veg,
        "offer": _offer(restaurant),
        "imageUrl": image_url(base_url, "restaurant", restaurant.id),
        "availabilityStatus": status,
        "nextOpenTime": None if status == "OPEN" else restaurant.opens_at,
    }


def dish_hit(
    restaurant: Restaurant, dish: Dish, base_url: str, origin: tuple[float, float]
) -> dict[str, Any]:
    """A search_restaurants `dishes[]` entry (price in paise)."""
    _, minutes = _sla(restaurant, origin)
    return {
        "id": dish.id,
        "name": dish.name,
        "price": dish.price,
        "isVeg": dish.is_veg,
        "description": dish.description,
        "imageUrl": image_url(base_url, "dish", dish.id),
        "category": dish.category,
        "inStock": dish.in_stock,
        "restaurantId": restaurant.id,
        "restaurantName": restaurant.name,
        "restaurantRating": restaurant.avg_rating,
        "restaurantAreaName": restaurant.area_name,
        "deliveryTimeMinutes": minutes,
    }


def menu_restaurant(
    restaurant: Restaurant, origin: tuple[float, float], now: datetime
) -> dict[str, Any]:
    """get_restaurant_menu's `restaurant`."""
    _, minutes = _sla(restaurant, origin)
    return {
        "id": restaurant.id,
        "name": restaurant.name,
        "city": CITY,
        "areaName": restaurant.area_name,
        "cuisines": list(restaurant.cuisines),
        "avgRating": restaurant.avg_rating,
        "avgRatingString": f"{restaurant.avg_rating:.1f}",
        "totalRatingsString": f"{_ratings_label(restaurant.total_ratings)} ratings",
        "costForTwoMessage": f"{rupees(restaurant.cost_for_two)} for two",
        "isOpen": availability(restaurant, now) == "OPEN",
        "deliveryTime": minutes,
        "slaString": _range(minutes),
        "address": f"{restaurant.area_name}, {CITY}",
    }


def is_bestseller(restaurant: Restaurant, dish: Dish) -> bool:
    """House specials and the first dish of each category sell best."""
    if dish.category == RECOMMENDED:
        return True
    first = next(d for d in restaurant.dishes if d.category == dish.category)
    return first.id == dish.id


def _nested(restaurant: Restaurant) -> set[str]:
    """Categories large and mixed enough to be shown with veg / non-veg sub-categories."""
    nested = set()
    for category in {d.category for d in restaurant.dishes}:
        dishes = [d for d in restaurant.dishes if d.category == category]
        kinds = {d.is_veg for d in dishes}
        if len(dishes) >= _NESTED_CATEGORY_MIN and len(kinds) == 2 and category != RECOMMENDED:
            nested.add(category)
    return nested


def _labels(restaurant: Restaurant, dish: Dish, nested: set[str]) -> list[str]:
    labels = []
    if is_bestseller(restaurant, dish):
        labels.append(RECOMMENDED)
    if dish.category in nested:
        labels.append(f"{dish.category}/{'Veg' if dish.is_veg else 'Non-Veg'}")
    elif dish.category != RECOMMENDED:
        labels.append(dish.category)
    return labels


def _flags(dish: Dish) -> dict[str, Any]:
    return {
        "inStock": int(dish.in_stock),
        "isVeg": dish.is_veg,
        "hasVariants": dish.variants is not None or dish.variants_v2 is not None,
        "hasAddons": bool(dish.addons),
    }


def _rating(dish: Dish) -> str:
    return f"{3.8 + (hash_int(f'rating:{dish.id}') % 12) / 10:.1f}"


def flat_menu(restaurant: Restaurant, cap: int = MENU_ITEM_CAP) -> dict[str, Any]:
    """The browse menu: unique dishes with their category labels, at most `cap` of them."""
    nested = _nested(restaurant)
    unique = list({dish.id: dish for dish in restaurant.dishes}.values())
    shown = unique[:cap]
    items = [
        {
            "id": dish.id,
            "name": dish.name,
            "price": dish.price,
            **_flags(dish),
            "isBestseller": is_bestseller(restaurant, dish),
            "rating": _rating(dish),
            "categories": _labels(restaurant, dish, nested),
        }
        for dish in shown
    ]
    labels = list(dict.fromkeys(label for item in items for label in item["categories"]))
    if RECOMMENDED in labels:  # Swiggy lists the Recommended group first
        labels = [RECOMMENDED] + [label for label in labels if label != RECOMMENDED]
    return {
        "items": items,
        "categoryLabels": labels,
        "totalItems": len(items),
        "totalCategories": len(labels),
        "truncated": len(unique) > cap,
    }


def _variations(block: dict[str, Any]) -> list[dict[str, Any]]:
    """The single-variant format: one flat list, each option naming its group."""
    return [
        {
            "name": option["name"],
            "price": option["price"],
            "isVeg": option.get("isVeg"),
            "id": option["id"],
            "groupId": group["groupId"],
            "default": int(option["default"]),
            "inStock": int(option.get("inStock", True)),
        }
        for group in block["variantGroups"]
        for option in group["variations"]
    ]


def _variants_v2(block: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {
            "groupId": group["groupId"],
            "name": group["name"],
            "variations": [
                {
                    "id": option["id"],
                    "name": option["name"],
                    "price": option["price"],
                    "inStock": int(option.get("inStock", True)),
                    "default": int(option["default"]),
                }
                for option in group["variations"]
            ],
        }
        for group in block["variantGroups"]
    ]


def _addons(dish: Dish) -> list[dict[str, Any]]:
    return [
        {
            "groupId": group["groupId"],
            "groupName": group["groupName"],
            "minAddons": group.get("minAddons", 0),
            "maxAddons": group["maxAddons"],
            "maxFreeAddons": 0,
            "choices": [
                {"id": c["id"], "name": c["name"], "price": c["price"]} for c in group["choices"]
            ],
        }
        for group in dish.addons
    ]


def menu_item(restaurant: Restaurant, dish: Dish, base_url: str) -> dict[str, Any]:
    """A search_menu item (MI): `variations` or `variantsV2`, never both; prices in paise."""
    item: dict[str, Any] = {
        "name": dish.name,
        "price": dish.price,
        "menu_item_id": dish.id,
        "restaurant_id": restaurant.id,
        "restaurant_name": restaurant.name,
        "imageUrl": image_url(base_url, "dish", dish.id),
        "rating": _rating(dish),
        "totalRatings": _ratings_label(hash_int(f"votes:{dish.id}") % 2400 + 20),
        "isBestseller": is_bestseller(restaurant, dish),
        **_flags(dish),
    }
    if dish.variants_v2 is not None:
        item["variantsV2"] = _variants_v2(dish.variants_v2)
    elif dish.variants is not None:
        item["variations"] = _variations(dish.variants)
    if dish.addons:
        item["addons"] = _addons(dish)
    return item
