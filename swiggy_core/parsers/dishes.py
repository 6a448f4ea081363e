"""Menu dishes (Food): price, stock, veg mark, variants (`variations` or `variantsV2`), addons.

Older Food payloads give dish prices in paise; the documented ones do not state a unit
and their values read as rupees. A menu's typical price settles it: no delivery menu's
typical dish costs ₹2,500, while ₹25 is the least a typical dish costs in paise.
"""

from __future__ import annotations

from typing import Any

from swiggy_core.constants import PAISE_PER_RUPEE
from swiggy_core.parsers._values import (
    Keys,
    as_dict,
    as_list,
    first,
    money,
    pick,
    to_bool,
    to_float,
    to_id,
    to_str,
)
from swiggy_core.parsers.images import image_from

STOCK_KEYS = ("isInStockAndAvailable", "inStock", "in_stock", "isInStock", "available")
_SCALE_SAMPLE = 40  # dishes enough to know a menu's unit
_PAISE_TYPICAL_PRICE = 2_500
_GENERIC_CATEGORIES = frozenset({"recommended", "bestsellers", "bestseller"})
_MAX_VARIATIONS = 12
_MAX_VARIANT_GROUPS = 6
_DESCRIPTION_CHARS = 500
_RUPEE_MARKS = ("₹", "rs", "inr")
_STOCK_KEYS = Keys(*STOCK_KEYS)
_PRICE_KEYS = Keys("price", "defaultPrice", "default_price")
_DISH_ID_KEYS = Keys("id", "menu_item_id", "menuItemId", "itemId", "item_id")
_RESTAURANT_ID_KEYS = Keys("restaurantId", "restaurant_id")
_RESTAURANT_NAME_KEYS = Keys("restaurantName", "restaurant_name")
_VEG_KEYS = Keys("isVeg", "is_veg", "veg")
_CATEGORY_KEYS = Keys("category", "categoryName")
_VARIANT_KEYS = frozenset({"variantsV2", "variants", "variations"})
_CUSTOMISABLE_KEYS = frozenset({"hasVariants", "hasAddons"})
_EXTRA_KEYS = frozenset().union(
    {"finalPrice", "final_price", "restaurant", "addons", "isBestseller"},
    _RESTAURANT_ID_KEYS,
    _RESTAURANT_NAME_KEYS,
    _VARIANT_KEYS,
    _CUSTOMISABLE_KEYS,
)
Fields = dict[str, Any]  # a card model's fields, validated once with the whole result


def price_scale(dishes: list[dict[str, Any]]) -> float:
    """Paise (100) when the typical dish price is at least 2,500 units, else rupees (1)."""
    prices = sorted(
        price
        for record in dishes[:_SCALE_SAMPLE]
        if not isinstance(raw := pick(record, "price", "defaultPrice", "default_price"), str)
        and (price := to_float(raw)) is not None
        and price > 0
    )
    if not prices:
        return 1.0
    return float(PAISE_PER_RUPEE) if prices[len(prices) // 2] >= _PAISE_TYPICAL_PRICE else 1.0


def read_dish(record: dict[str, Any], name: str, context: dict[str, Any], scale: float) -> Fields:
    """One dish card's `ProductItem` fields; prices divided by `scale` (see `price_scale`)."""
    fields: Fields = {
        "name": name,
        "menu_item_id": to_id(first(record, _DISH_ID_KEYS)),
        "price": _dish_price(first(record, _PRICE_KEYS), scale),
        "mrp": None,
        "in_stock": to_bool(first(record, _STOCK_KEYS)) is not False,
        "image_url": image_from(record),
        "description": to_str(record.get("description"), _DESCRIPTION_CHARS),
        "is_veg": _veg(record),
        "category": dish_category(record, context),
        "restaurant_id": None,
        "restaurant_name": None,
        "variants": [],
        "addons": [],
        "customisable": False,
        "bestseller": False,
    }
    # Most dishes hold none of the keys below: one test instead of reading each.
    if not _EXTRA_KEYS.isdisjoint(record):
        _read_extras(record, fields, scale)
    return fields


def _read_extras(record: dict[str, Any], fields: Fields, scale: float) -> None:
    """The final price, restaurant, variants, addons and flags of a dish, into `fields`."""
    final = _dish_price(record.get("finalPrice", record.get("final_price")), scale)
    base = fields["price"]
    restaurant = as_dict(record.get("restaurant")) or {}
    variants = [] if _VARIANT_KEYS.isdisjoint(record) else _variants(record, scale)
    addons = _addons(record, scale) if "addons" in record else []
    fields["price"] = final if final is not None else base
    fields["mrp"] = base if final is not None and base is not None and base > final else None
    fields["restaurant_id"] = to_id(first(record, _RESTAURANT_ID_KEYS)) or (
        to_id(pick(restaurant, "id", "restaurantId")) if restaurant else None
    )
    fields["restaurant_name"] = to_str(first(record, _RESTAURANT_NAME_KEYS)) or (
        to_str(restaurant.get("name")) if restaurant else None
    )
    fields["variants"] = variants
    fields["addons"] = addons
    fields["customisable"] = bool(variants or addons) or (
        not _CUSTOMISABLE_KEYS.isdisjoint(record)
        and (
            to_bool(pick(record, "hasVariants")) is True
            or to_bool(pick(record, "hasAddons")) is True
        )
    )
    fields["bestseller"] = to_bool(record.get("isBestseller")) is True


def _dish_price(value: Any, scale: float) -> float | None:
    """A dish price in the menu's unit, unless the text itself says rupees ("₹249")."""
    if value is None:
        return None
    if isinstance(value, str) and any(mark in value.lower() for mark in _RUPEE_MARKS):
        return money(value)
    return money(value, scale=scale)


def _veg(record: dict[str, Any]) -> bool | None:
    flag = to_bool(first(record, _VEG_KEYS))
    if flag is not None:
        return flag
    if "itemAttribute" not in record:
        return None
    attribute = as_dict(record.get("itemAttribute")) or {}
    return to_bool(attribute.get("vegClassifier"))


def _variant_groups(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Variant groups from `variantsV2` or `variants`: a list, or `{variantGroups: [...]}`."""
    for key in ("variantsV2", "variants"):
        value = record.get(key)
        groups = as_list(value) or as_list((as_dict(value) or {}).get("variantGroups"))
        groups = groups or as_list((as_dict(value) or {}).get("variant_groups"))
        if groups:
            return [g for g in groups[:_MAX_VARIANT_GROUPS] if as_dict(g)]
    flat = [v for v in as_list(record.get("variations"))[:_MAX_VARIATIONS] if as_dict(v)]
    # Legacy `variations`: one flat list of choices, each naming its own group.
    return [{"variations": flat}] if flat else []


def _variants(record: dict[str, Any], scale: float) -> list[Fields]:
    """`DishVariant` fields of each choice (a dish has `variations` or `variantsV2`)."""
    variants: list[Fields] = []
    for group in _variant_groups(record):
        group_name = to_str(pick(group, "name", "title", "groupName"))
        group_id = to_id(pick(group, "groupId", "group_id", "id")) if group_name else None
        for choice in as_list(group.get("variations"))[:_MAX_VARIATIONS]:
            entry = as_dict(choice) or {}
            choice_name = to_str(pick(entry, "name", "title"))
            if choice_name is None:
                continue
            variants.append(
                {
                    "group": group_name,
                    "group_id": group_id or to_id(pick(entry, "groupId", "group_id")),
                    "name": choice_name,
                    "variant_id": to_id(pick(entry, "id", "variationId", "variation_id")),
                    "extra_price": _dish_price(entry.get("price"), scale),
                    "in_stock": to_bool(pick(entry, "inStock", "in_stock")) is not False,
                }
            )
    return variants


def _addons(record: dict[str, Any], scale: float) -> list[Fields]:
    """`DishAddon` fields of every possible addon, per group (the cart says which are valid)."""
    addons: list[Fields] = []
    for group in as_list(record.get("addons"))[:_MAX_VARIANT_GROUPS]:
        entry = as_dict(group) or {}
        group_name = to_str(pick(entry, "groupName", "name", "title"))
        group_id = to_id(pick(entry, "groupId", "group_id"))
        for choice in as_list(entry.get("choices"))[:_MAX_VARIATIONS]:
            item = as_dict(choice) or {}
            name = to_str(pick(item, "name", "title"))
            if name is not None:
                addons.append(
                    {
                        "group": group_name,
                        "group_id": group_id,
                        "name": name,
                        "addon_id": to_id(pick(item, "id", "choice_id", "addonId")),
                        "price": _dish_price(item.get("price"), scale),
                    }
                )
    return addons


def dish_category(record: dict[str, Any], context: dict[str, Any]) -> str | None:
    """The record's category; of a `categories` list the first specific one."""
    own = to_str(first(record, _CATEGORY_KEYS))
    if own:
        return own
    categories = record.get("categories")
    if not categories:  # the usual dish: its menu category, inherited
        return to_str(context.get("category")) if context else None
    listed = [to_str(c, 80) for c in as_list(categories)[:8]]
    specific = [c for c in listed if c and c.lower() not in _GENERIC_CATEGORIES]
    if specific:
        return specific[0]
    inherited = to_str(context.get("category")) if context else None
    return inherited or next((c for c in listed if c), None)
