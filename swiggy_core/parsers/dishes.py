"""Menu dishes (Food): price, stock, veg mark, variants (`variations` or `variantsV2`), addons.

Older Food payloads give dish prices in paise; the documented ones do not state a unit
and their values read as rupees. A menu's typical price settles it: no delivery menu's
typical dish costs ₹2,500, while ₹25 is the least a typical dish costs in paise.
"""

from __future__ import annotations

from typing import Any

from swiggy_core.constants import PAISE_PER_RUPEE
from swiggy_core.parsers._values import (
    as_dict,
    as_list,
    money,
    pick,
    to_bool,
    to_float,
    to_id,
    to_str,
)
from swiggy_core.parsers.images import image_from
from swiggy_core.parsers.results import DishAddon, DishVariant, ProductItem

STOCK_KEYS = ("isInStockAndAvailable", "inStock", "in_stock", "isInStock", "available")
_SCALE_SAMPLE = 40  # dishes enough to know a menu's unit
_PAISE_TYPICAL_PRICE = 2_500
_GENERIC_CATEGORIES = frozenset({"recommended", "bestsellers", "bestseller"})
_MAX_VARIATIONS = 12
_MAX_VARIANT_GROUPS = 6
_DESCRIPTION_CHARS = 500
_RUPEE_MARKS = ("₹", "rs", "inr")


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


def read_dish(
    record: dict[str, Any], name: str, context: dict[str, Any], scale: float
) -> ProductItem:
    """One dish card; prices divided by `scale` (see `price_scale`)."""
    final = _dish_price(record.get("finalPrice", record.get("final_price")), scale)
    base = _dish_price(pick(record, "price", "defaultPrice", "default_price"), scale)
    restaurant = as_dict(record.get("restaurant")) or {}
    variants = _variants(record, scale)
    addons = _addons(record, scale)
    return ProductItem(
        name=name,
        menu_item_id=to_id(pick(record, "id", "menu_item_id", "menuItemId", "itemId", "item_id")),
        price=final if final is not None else base,
        mrp=base if final is not None and base is not None and base > final else None,
        in_stock=to_bool(pick(record, *STOCK_KEYS)) is not False,
        image_url=image_from(record),
        description=to_str(record.get("description"), _DESCRIPTION_CHARS),
        is_veg=_veg(record),
        category=dish_category(record, context),
        restaurant_id=to_id(pick(record, "restaurantId", "restaurant_id"))
        or to_id(pick(restaurant, "id", "restaurantId")),
        restaurant_name=to_str(pick(record, "restaurantName", "restaurant_name"))
        or to_str(restaurant.get("name")),
        variants=variants,
        addons=addons,
        customisable=bool(variants or addons)
        or to_bool(pick(record, "hasVariants")) is True
        or to_bool(pick(record, "hasAddons")) is True,
        bestseller=to_bool(record.get("isBestseller")) is True,
    )


def _dish_price(value: Any, scale: float) -> float | None:
    """A dish price in the menu's unit, unless the text itself says rupees ("₹249")."""
    if isinstance(value, str) and any(mark in value.lower() for mark in _RUPEE_MARKS):
        return money(value)
    return money(value, scale=scale)


def _veg(record: dict[str, Any]) -> bool | None:
    flag = to_bool(pick(record, "isVeg", "is_veg", "veg"))
    if flag is not None:
        return flag
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


def _variants(record: dict[str, Any], scale: float) -> list[DishVariant]:
    """Variant choices (a dish carries `variations` or `variantsV2`, never both)."""
    variants: list[DishVariant] = []
    for group in _variant_groups(record):
        group_name = to_str(pick(group, "name", "title", "groupName"))
        group_id = to_id(pick(group, "groupId", "group_id", "id")) if group_name else None
        for choice in as_list(group.get("variations"))[:_MAX_VARIATIONS]:
            entry = as_dict(choice) or {}
            choice_name = to_str(pick(entry, "name", "title"))
            if choice_name is None:
                continue
            variants.append(
                DishVariant(
                    group=group_name,
                    group_id=group_id or to_id(pick(entry, "groupId", "group_id")),
                    name=choice_name,
                    variant_id=to_id(pick(entry, "id", "variationId", "variation_id")),
                    extra_price=_dish_price(entry.get("price"), scale),
                    in_stock=to_bool(pick(entry, "inStock", "in_stock")) is not False,
                )
            )
    return variants


def _addons(record: dict[str, Any], scale: float) -> list[DishAddon]:
    """Every possible addon of a dish, per group (the cart says which are valid)."""
    addons: list[DishAddon] = []
    for group in as_list(record.get("addons"))[:_MAX_VARIANT_GROUPS]:
        entry = as_dict(group) or {}
        group_name = to_str(pick(entry, "groupName", "name", "title"))
        group_id = to_id(pick(entry, "groupId", "group_id"))
        for choice in as_list(entry.get("choices"))[:_MAX_VARIATIONS]:
            item = as_dict(choice) or {}
            name = to_str(pick(item, "name", "title"))
            if name is not None:
                addons.append(
                    DishAddon(
                        group=group_name,
                        group_id=group_id,
                        name=name,
                        addon_id=to_id(pick(item, "id", "choice_id", "addonId")),
                        price=_dish_price(item.get("price"), scale),
                    )
                )
    return addons


def dish_category(record: dict[str, Any], context: dict[str, Any]) -> str | None:
    """The record's category; of a `categories` list the first specific one."""
    listed = [to_str(c, 80) for c in as_list(record.get("categories"))[:8]]
    specific = [c for c in listed if c and c.lower() not in _GENERIC_CATEGORIES]
    return (
        to_str(pick(record, "category", "categoryName"))
        or (specific[0] if specific else None)
        or to_str(context.get("category"))
        or next((c for c in listed if c), None)
    )
