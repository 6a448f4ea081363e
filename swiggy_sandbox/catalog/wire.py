"""Catalog entities in the JSON shapes the Swiggy MCP tools return (SWIGGY_FACTS.md)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from swiggy_sandbox.catalog.geo import CITY, delivery_minutes, haversine_km, is_open, rupees_label
from swiggy_sandbox.catalog.models import Dish, Product, Restaurant, SavedAddress, Variation, Venue

StockLeft = Callable[[Variation], int]


def image_url(base_url: str, kind: str, item_id: str) -> str:
    """Absolute URL of the sandbox's generated SVG for an item."""
    return f"{base_url.rstrip('/')}/img/{kind}/{item_id}.svg"


def variation_wire(
    product: Product, variation: Variation, base_url: str, left: int
) -> dict[str, Any]:
    """One pack with price, stock flag and the most a cart may hold."""
    return {
        "spinId": variation.spin_id,
        "skuId": variation.sku_id,
        "quantityDescription": variation.quantity_description,
        "price": {"mrp": variation.mrp, "offerPrice": variation.offer_price},
        "isInStockAndAvailable": left > 0,
        "maxQuantity": max(0, min(variation.max_quantity, left)),
        "imageUrl": image_url(base_url, "product", product.product_id),
    }


def product_wire(product: Product, base_url: str, stock_left: StockLeft) -> dict[str, Any]:
    """A search result entry."""
    out: dict[str, Any] = {
        "productId": product.product_id,
        "displayName": product.display_name,
        "brand": product.brand,
        "category": product.category,
        "subCategory": product.sub_category,
        "tags": list(product.tags),
        "imageUrl": image_url(base_url, "product", product.product_id),
        "variations": [
            variation_wire(product, v, base_url, stock_left(v)) for v in product.variations
        ],
    }
    if product.is_veg is not None:
        out["isVeg"] = product.is_veg
    if product.nutrition is not None:
        n = product.nutrition
        out["nutrition"] = {
            "per": "100 g",
            "energyKcal": n.energy_kcal,
            "proteinG": n.protein_g,
            "carbsG": n.carbs_g,
            "fatG": n.fat_g,
            "fibreG": n.fibre_g,
        }
    if product.category == "beauty":
        out["skinTypes"] = list(product.skin_types)
        out["hairTypes"] = list(product.hair_types)
    return out


def _ratings_label(count: int) -> str:
    return f"{count // 1000}K+ ratings" if count >= 1000 else f"{count}+ ratings"


def restaurant_wire(
    restaurant: Restaurant, base_url: str, origin: tuple[float, float], now: datetime
) -> dict[str, Any]:
    """A restaurant card as search_restaurants returns it."""
    km = haversine_km(origin[0], origin[1], restaurant.lat, restaurant.lng)
    minutes = delivery_minutes(km, restaurant.prep_minutes)
    open_now = is_open(restaurant.opens_at, restaurant.closes_at, now)
    return {
        "id": restaurant.id,
        "name": restaurant.name,
        "cuisines": list(restaurant.cuisines),
        "avgRating": restaurant.avg_rating,
        "totalRatingsString": _ratings_label(restaurant.total_ratings),
        "costForTwo": f"{rupees_label(restaurant.cost_for_two)} for two",
        "sla": {
            "deliveryTime": minutes,
            "slaString": f"{minutes}-{minutes + 5} mins",
            "lastMileTravel": round(km, 1),
            "lastMileTravelString": f"{km:.1f} km",
        },
        "areaName": restaurant.area_name,
        "locality": restaurant.area_name,
        "veg": restaurant.veg,
        "isOpen": open_now,
        "availabilityStatus": "OPEN" if open_now else "CLOSED",
        "nextOpenTime": None if open_now else restaurant.opens_at,
        "imageUrl": image_url(base_url, "restaurant", restaurant.id),
    }


def dish_info(dish: Dish, base_url: str) -> dict[str, Any]:
    """`card.info` of a menu item: price in paise, variants or variantsV2 (never both)."""
    info: dict[str, Any] = {
        "id": dish.id,
        "name": dish.name,
        "category": dish.category,
        "price": dish.price,
        "isVeg": dish.is_veg,
        "description": dish.description,
        "inStock": dish.in_stock,
        "imageUrl": image_url(base_url, "dish", dish.id),
    }
    if dish.variants is not None:
        info["variants"] = dish.variants
    if dish.variants_v2 is not None:
        info["variantsV2"] = dish.variants_v2
    if dish.addons:
        info["addons"] = list(dish.addons)
    return info


def venue_wire(venue: Venue, base_url: str, origin: tuple[float, float]) -> dict[str, Any]:
    """A dine-out restaurant card."""
    km = haversine_km(origin[0], origin[1], venue.lat, venue.lng)
    offers = (
        [f"Flat {venue.free_offer_percent}% off on total bill"] if venue.free_offer_percent else []
    )
    return {
        "id": venue.id,
        "name": venue.name,
        "cuisines": list(venue.cuisines),
        "avgRating": venue.avg_rating,
        "costForTwo": f"{rupees_label(venue.cost_for_two)} for two",
        "costForTwoValue": venue.cost_for_two,
        "locality": venue.locality,
        "areaName": venue.locality,
        "address": venue.address,
        "distance": f"{km:.1f} km",
        "distanceKm": round(km, 2),
        "tags": list(venue.tags),
        "offers": offers,
        "imageUrl": image_url(base_url, "dineout", venue.id),
    }


def address_wire(address: SavedAddress) -> dict[str, Any]:
    """A saved address as get_addresses returns it."""
    return {
        "id": address.id,
        "label": address.label,
        "tag": address.label,
        "addressLine": address.address_line,
        "address": address.address_line,
        "area": address.locality,
        "city": CITY,
        "lat": address.lat,
        "lng": address.lng,
    }
