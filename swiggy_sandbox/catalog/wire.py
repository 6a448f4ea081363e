"""Catalog entities in the JSON shapes the Swiggy MCP tools return (SWIGGY_FACTS.md)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from swiggy_core.formatting import rupees
from swiggy_sandbox.catalog.geo import delivery_minutes, haversine_km, is_open
from swiggy_sandbox.catalog.models import Dish, Product, Restaurant, SavedAddress, Variation

StockLeft = Callable[[Variation], int]


def image_url(base_url: str, kind: str, item_id: str) -> str:
    """Absolute URL of the sandbox's generated SVG for an item."""
    return f"{base_url.rstrip('/')}/img/{kind}/{item_id}.svg"


def variation_wire(
    product: Product, variation: Variation, base_url: str, left: int
) -> dict[str, Any]:
    """One pack (a search result's `variations[]` entry) with price, stock and the cap."""
    cap = max(0, min(variation.max_quantity, left))
    out: dict[str, Any] = {
        "spinId": variation.spin_id,
        "skuId": variation.sku_id,
        "quantityDescription": variation.quantity_description,
        "displayName": f"{product.display_name} {variation.quantity_description}",
        "brandName": product.brand,
        "price": {"mrp": variation.mrp, "offerPrice": variation.offer_price},
        "isInStockAndAvailable": left > 0,
        "imageUrl": image_url(base_url, "product", product.product_id),
        "maxQuantity": cap,
    }
    if 0 < left < variation.max_quantity:
        out["maxQuantityMessage"] = f"Only {left} left in stock"
    if product.is_veg is not None:
        out["vegClassifier"] = "VEG" if product.is_veg else "NONVEG"
    return out


def product_wire(product: Product, base_url: str, stock_left: StockLeft) -> dict[str, Any]:
    """A search result entry (Swiggy's SearchProduct; no fields beyond the documented ones)."""
    variations = [variation_wire(product, v, base_url, stock_left(v)) for v in product.variations]
    in_stock = any(v["isInStockAndAvailable"] for v in variations)
    return {
        "displayName": product.display_name,
        "brand": product.brand,
        "inStock": in_stock,
        "isAvail": True,  # every catalog product is sold at every sandbox address
        "productId": product.product_id,
        "parentProductId": product.product_id,
        "variations": variations,
    }


def cart_item_wire(
    product: Product, variation: Variation, quantity: int, base_url: str, left: int
) -> dict[str, Any]:
    """One cart line (Swiggy's InstamartCartItem): `mrp` and `discountedFinalPrice` per unit."""
    out = variation_wire(product, variation, base_url, left)
    item: dict[str, Any] = {
        "spinId": variation.spin_id,
        "skuId": variation.sku_id,
        "productId": product.product_id,
        "itemName": product.display_name,
        "itemVariant": variation.quantity_description,
        "quantity": quantity,
        "isInStockAndAvailable": out["isInStockAndAvailable"],
        "mrp": variation.mrp,
        "discountedFinalPrice": variation.offer_price,
        "imageUrl": out["imageUrl"],
        "maxQuantity": out["maxQuantity"],
    }
    if "maxQuantityMessage" in out:
        item["maxQuantityMessage"] = out["maxQuantityMessage"]
    return item


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
        "costForTwo": f"{rupees(restaurant.cost_for_two)} for two",
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


def address_wire(address: SavedAddress) -> dict[str, Any]:
    """A saved address as get_addresses lists it.

    Swiggy's documented record has no coordinates; the sandbox adds `lat`/`lng` because the
    app puts the chosen address's point into the prompt for tools that require one
    (track_order's lat/lng, Dineout's latitude/longitude).
    """
    return {
        "id": address.id,
        "addressLine": address.address_line,
        "phoneNumber": address.phone,
        "addressCategory": address.category,
        "addressTag": address.label,
        "lat": address.lat,
        "lng": address.lng,
    }


def address_details_wire(address: SavedAddress) -> dict[str, Any]:
    """A cart's `selectedAddressDetails`."""
    return {
        "id": address.id,
        "address": address.address_line,
        "area": address.locality,
        "name": address.name,
        "mobile": address.phone,
        "annotation": address.label,
        "category": address.category,
        "city": address.city,
    }
