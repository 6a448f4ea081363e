"""What records look like: key vocabularies and predicates for each card kind."""

from __future__ import annotations

from typing import Any

_SCALAR_TYPES = (str, int, float)
_ADDRESS_VALUE_TYPES = (str, dict)
NAME_KEYS = (
    "name",
    "displayName",
    "display_name",
    "productName",
    "product_name",
    "itemName",
    "item_name",
    "dishName",
    "title",
)
PRODUCT_KEYS = frozenset(
    {
        *("price", "selling_price", "sellingPrice", "mrp", "variations", "defaultPrice"),
        *("default_price", "offerPrice", "offer_price", "finalPrice", "final_price"),
        *("spinId", "skuId", "productId", "product_id", "quantityDescription"),
        *("quantity_description", "isInStockAndAvailable", "maxQuantity", "variantsV2"),
    }
)
MENU_KEYS = frozenset(
    {"itemCards", "isVeg", "is_veg", "variantsV2", "addons", "defaultPrice", "dishes", "menu"}
)
STRONG_RESTAURANT_KEYS = frozenset(
    {
        *("cuisines", "cuisine", "costForTwo", "cost_for_two", "costForTwoMessage"),
        *("priceForTwo", "price_for_two", "sla", "deliveryTime", "delivery_time"),
        *("areaName", "locality", "cloudinaryImageId", "totalRatingsString"),
    }
)
WEAK_RESTAURANT_KEYS = frozenset({"rating", "avgRating", "avg_rating", "avgRatingString"})
TIME_KEYS = (
    "time",
    "displayTime",
    "display_time",
    "slotTime",
    "slot_time",
    "startTime",
    "start_time",
    "timeSlot",
    "reservationTime",
    "slot",
)
_TIME_KEY_SET = frozenset(TIME_KEYS)
AVAILABILITY_KEYS = (
    "available",
    "isAvailable",
    "is_available",
    "availability",
    "soldOut",
    "sold_out",
    "availableSeats",
)
# Disjoint from the time keys by construction: `is_slot_record` relies on it.
_SLOT_ID_KEYS = frozenset({"slotId", "slot_id", "id", *AVAILABILITY_KEYS, "label"}) - _TIME_KEY_SET
ADDRESS_TEXT_KEYS = (
    "addressLine",
    "address_line",
    "addressLine1",
    "address",
    "fullAddress",
    "full_address",
    "formattedAddress",
    "formatted_address",
    "displayAddress",
    "display_address",
)
_ADDRESS_HINT_KEYS = frozenset(
    {"id", "addressId", "address_id", "label", "tag", "annotation", "lat", "lng", "latitude"}
)
CART_KEYS = frozenset(
    {
        *("billBreakdown", "bill_breakdown", "toPay", "to_pay", "cartItems", "cart_items"),
        *("cartMenuItems", "lineItems", "line_items", "billDetails", "bill", "cart"),
    }
)

# A record of any kind (product, restaurant, slot, address) holds at least one of these.
RECORD_KEYS = (
    PRODUCT_KEYS
    | STRONG_RESTAURANT_KEYS
    | WEAK_RESTAURANT_KEYS
    | _TIME_KEY_SET
    | _ADDRESS_HINT_KEYS
)


def _has_name(record: dict[str, Any]) -> bool:
    for key in NAME_KEYS:
        value = record.get(key)
        if isinstance(value, str) and value.strip():
            return True
    return False


# Each predicate first asks whether a record holds any key of interest at all
# (`isdisjoint`, no set built): most dicts of a payload hold none, and walks ask of every one.


def is_product_record(record: dict[str, Any]) -> bool:
    """A dict that reads as a product or a dish (a name plus price-like keys)."""
    if PRODUCT_KEYS.isdisjoint(record) or not _has_name(record):
        return False
    keys = record.keys()
    if STRONG_RESTAURANT_KEYS.isdisjoint(keys):
        return True
    return len(keys & PRODUCT_KEYS) >= len(keys & STRONG_RESTAURANT_KEYS)


def is_restaurant_record(record: dict[str, Any]) -> bool:
    """A dict that reads as a restaurant (a name plus cuisine/cost/sla-like keys)."""
    keys = record.keys()
    strong = 0 if STRONG_RESTAURANT_KEYS.isdisjoint(keys) else len(keys & STRONG_RESTAURANT_KEYS)
    if not strong and WEAK_RESTAURANT_KEYS.isdisjoint(keys):
        return False
    product = 0 if PRODUCT_KEYS.isdisjoint(keys) else len(keys & PRODUCT_KEYS)
    # Ties go to restaurants here and to products in is_product_record: the caller's
    # order (by vertical and signals) decides which parser sees the record first.
    if not ((strong and strong >= product) or not product):
        return False
    return _has_name(record)


def is_slot_record(record: dict[str, Any]) -> bool:
    """A dict that reads as a time slot (a time plus an id or availability)."""
    # No id or availability key is a time key: "another key than the time" is any of them.
    if _TIME_KEY_SET.isdisjoint(record) or _SLOT_ID_KEYS.isdisjoint(record):
        return False
    for key in record.keys() & _TIME_KEY_SET:  # noqa: SIM110 - a loop, no generator per record
        if isinstance(record[key], _SCALAR_TYPES):
            return True
    return False


def is_address_record(record: dict[str, Any]) -> bool:
    """A dict that reads as a saved address (address text plus an id, label or coordinates)."""
    if _ADDRESS_HINT_KEYS.isdisjoint(record) or not STRONG_RESTAURANT_KEYS.isdisjoint(record):
        return False
    return any(
        isinstance(record[k], _ADDRESS_VALUE_TYPES) for k in ADDRESS_TEXT_KEYS if k in record
    )
