"""Products (Instamart `variations[]`) and menu dishes (Food), prices in rupees."""

from __future__ import annotations

from typing import Any

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
    to_int,
    to_str,
)
from swiggy_core.parsers.catalog_results import ProductsResult
from swiggy_core.parsers.dishes import STOCK_KEYS, dish_category, price_scale, read_dish
from swiggy_core.parsers.images import image_from
from swiggy_core.parsers.records import find_records
from swiggy_core.parsers.shapes import NAME_KEYS, is_product_record
from swiggy_core.parsers.unwrap import extract_payload
from swiggy_core.verticals.catalog import search_lists_of

_WRAPPERS = (
    *("data", "result", "results", "response", "payload", "products", "dishes"),
    *("menu", "items", "cards"),
)
_SIMILAR_KEYS = frozenset({"similarProducts", "similar_products", "recommendations"})
_CATEGORY_CONTEXT = {"title": "category", "categoryName": "category", "category": "category"}
_GROCERY_KEYS = frozenset({"variations", "spinId", "skuId", "productId", "quantityDescription"})
_DISH_KEYS = frozenset(
    {
        "isVeg",
        "is_veg",
        "variantsV2",
        "addons",
        "defaultPrice",
        "imageId",
        "inStock",
        "itemAttribute",
    }
)
# Documented dish keys that no grocery product has: a dish even with `variations`.
_STRONG_DISH_KEYS = frozenset(
    {"menu_item_id", "menuItemId", "restaurant_id", "hasVariants", "hasAddons", "isBestseller"}
)
_GROCERY_ID_KEYS = frozenset({"spinId", "skuId", "productId", "quantityDescription"})
_PRODUCT_STOCK_KEYS = Keys("inStock", "isAvail", "in_stock")
_NAME_KEYS = Keys(*NAME_KEYS)
_STOCK_KEYS = Keys(*STOCK_KEYS)
_ID_KEYS = Keys("productId", "product_id", "id")
_VEG_KEYS = Keys("isVeg", "is_veg")
_OFFER_KEYS = Keys("offerPrice", "offer_price", "sellingPrice", "selling_price")
_MRP_KEYS = Keys("mrp", "MRP")
_SPIN_KEYS = Keys("spinId", "spin_id")
_SKU_KEYS = Keys("skuId", "sku_id")
_SIZE_KEYS = Keys("quantityDescription", "quantity_description", "weight", "packSize")
_MAX_QUANTITY_KEYS = Keys("maxQuantity", "max_quantity", "maxAllowedQuantity")
_PRODUCT_EXTRA_KEYS = frozenset({*_PRODUCT_STOCK_KEYS, *_VEG_KEYS, "description"})
_VEG_CLASSES = {"VEG": True, "NONVEG": False, "NON_VEG": False, "EGG": False}
_MAX_VARIATIONS = 12
_DESCRIPTION_CHARS = 500
Fields = dict[str, Any]  # a card model's fields, validated once with the whole result


def parse_products(
    payload: Any, vertical_id: str, tool_input: dict[str, Any] | None = None
) -> ProductsResult | None:
    """Products or dishes found anywhere in the payload, or None when there are none."""
    node = extract_payload(payload, _WRAPPERS)
    found = find_records(
        node, is_product_record, inherit=_CATEGORY_CONTEXT, skip_keys=_SIMILAR_KEYS
    )
    if not found.records:
        found = find_records(payload, is_product_record, inherit=_CATEGORY_CONTEXT)
    food = search_lists_of(vertical_id) == "dishes"
    records = found.records
    is_dish = [_is_dish(record, food) for record, _ in records]
    scale = price_scale(
        [record for (record, _), dish in zip(records, is_dish, strict=True) if dish]
    )
    items = [
        _item(record, context, dish, scale)
        for (record, context), dish in zip(records, is_dish, strict=True)
    ]
    products = [item for item in items if item is not None]
    if not products:
        return None
    restaurant_id, restaurant_name = _menu_restaurant(payload, tool_input)
    is_menu = sum(1 for p in products if p.get("menu_item_id")) * 2 > len(products)
    data = as_dict(payload) or {}
    # Items are plain fields until here: the result and all its items validate once.
    return ProductsResult.model_validate(
        {
            "kind": "menu" if is_menu else "grocery",
            "items": products,
            "restaurant_id": restaurant_id,
            "restaurant_name": restaurant_name,
            "next_offset": _next_offset(payload),
            "truncated": found.truncated or to_bool(data.get("truncated")) is True,
        }
    )


def _is_dish(record: dict[str, Any], food: bool) -> bool:
    keys = record.keys()
    if not keys.isdisjoint(_STRONG_DISH_KEYS) and keys.isdisjoint(_GROCERY_ID_KEYS):
        return True
    return keys.isdisjoint(_GROCERY_KEYS) and (food or not keys.isdisjoint(_DISH_KEYS))


def _item(
    record: dict[str, Any], context: dict[str, Any], dish: bool, scale: float
) -> Fields | None:
    name = to_str(first(record, _NAME_KEYS))
    if name is None:
        return None
    if dish:
        return read_dish(record, name, context, scale)
    return _grocery(record, name, context)


def _grocery(record: dict[str, Any], name: str, context: dict[str, Any]) -> Fields:
    variations = [
        _variation(v) for v in as_list(record.get("variations"))[:_MAX_VARIATIONS] if as_dict(v)
    ]
    default = _default_pack(variations)
    # Product-level fields fill gaps in the default pack (read only when there are gaps).
    own = _variation(record) if default is None or _has_gaps(default) else default
    default = default or own
    # Product-level stock, veg mark and description are rare on grocery: one test for all.
    extra = not _PRODUCT_EXTRA_KEYS.isdisjoint(record)
    return {
        "name": name,
        "product_id": to_id(first(record, _ID_KEYS)),
        "spin_id": default["spin_id"] or own["spin_id"],
        "sku_id": default["sku_id"] or own["sku_id"],
        "brand": to_str(record.get("brand")),
        "quantity_description": default["quantity_description"] or own["quantity_description"],
        "price": default["price"] if default["price"] is not None else own["price"],
        "mrp": default["mrp"] if default["mrp"] is not None else own["mrp"],
        "in_stock": (default["in_stock"] if variations else own["in_stock"])
        and (not extra or to_bool(first(record, _PRODUCT_STOCK_KEYS)) is not False),
        "max_quantity": default["max_quantity"] or own["max_quantity"],
        "image_url": default["image_url"] or own["image_url"],
        "description": to_str(record.get("description"), _DESCRIPTION_CHARS) if extra else None,
        "is_veg": _veg_mark(record, extra),
        "category": dish_category(record, context),
        "variations": variations,
    }


def _veg_mark(record: dict[str, Any], extra: bool) -> bool | None:
    """The product's own veg mark, else the packs' (`vegClassifier`: VEG, NONVEG, EGG).

    Read for the ranking's diet filter ("veg snacks"); an egg is not vegetarian.
    """
    own = to_bool(first(record, _VEG_KEYS)) if extra else None
    if own is not None:
        return own
    for variation in as_list(record.get("variations"))[:_MAX_VARIATIONS]:
        mark = variation.get("vegClassifier") if isinstance(variation, dict) else None
        if isinstance(mark, str):
            return _VEG_CLASSES.get(mark.strip().upper())
    return None


def _default_pack(variations: list[Fields]) -> Fields | None:
    """The first pack in stock, else the first pack."""
    for variation in variations:
        if variation["in_stock"]:
            return variation
    return variations[0] if variations else None


def _has_gaps(variation: Fields) -> bool:
    return (
        variation["spin_id"] is None
        or variation["price"] is None
        or variation["quantity_description"] is None
        or variation["image_url"] is None
    )


def _variation(record: dict[str, Any]) -> Fields:
    """One pack's `ProductVariation` fields (validated with the whole result)."""
    price = record.get("price")
    price_dict = as_dict(price) or {}
    offer = money(price) if price is not None else None
    if offer is None:
        offer = money(first(record, _OFFER_KEYS))
    mrp = (to_float(first(price_dict, _MRP_KEYS)) if price_dict else None) or to_float(
        record.get("mrp")
    )
    return {
        "spin_id": to_id(first(record, _SPIN_KEYS)),
        "sku_id": to_id(first(record, _SKU_KEYS)),
        "quantity_description": to_str(first(record, _SIZE_KEYS)),
        "price": offer if offer is not None else mrp,
        "mrp": mrp,
        "in_stock": to_bool(first(record, _STOCK_KEYS)) is not False,
        "max_quantity": to_int(first(record, _MAX_QUANTITY_KEYS)),
        "image_url": image_from(record),
    }


def _menu_restaurant(
    payload: Any, tool_input: dict[str, Any] | None
) -> tuple[str | None, str | None]:
    data = as_dict(payload) or {}
    info = as_dict(pick(data, "restaurant", "restaurantInfo", "restaurantDetails")) or {}
    info = as_dict(info.get("info")) or info
    restaurant_id = to_id(pick(info, "id", "restaurantId")) or to_id(
        pick(data, "restaurantId", "restaurant_id")
    )
    restaurant_id = restaurant_id or to_id(data.get("restaurantIdOfAddedItem"))
    if restaurant_id is None and isinstance(tool_input, dict):
        restaurant_id = to_id(pick(tool_input, "restaurantId", "restaurant_id"))
    name = to_str(info.get("name")) or to_str(data.get("restaurantName"))
    return restaurant_id, name


def _next_offset(payload: Any) -> int | None:
    data = as_dict(payload) or {}
    inner = as_dict(data.get("data")) or {}
    return to_int(pick(data, "nextOffset", "next_offset")) or to_int(
        pick(inner, "nextOffset", "next_offset")
    )
