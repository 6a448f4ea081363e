"""One line of a cart snapshot: its name, ids, quantity and prices, checked against the bill.

Prices come in rupees or paise, per unit or per line, depending on the shop: a line is read
as plain fields first, and `fix_paise_lines` / `fix_charged_line_totals` settle the unit
once the whole cart and its bill are known.
"""

from __future__ import annotations

from typing import Any

from swiggy_core.constants import PAISE_PER_RUPEE
from swiggy_core.parsers._values import (
    Keys,
    as_dict,
    as_list,
    cents,
    first,
    money,
    to_bool,
    to_float,
    to_id,
    to_int,
    to_str,
)
from swiggy_core.parsers.checkout_results import BillLine
from swiggy_core.parsers.images import image_from
from swiggy_core.parsers.shapes import NAME_KEYS

_QUANTITY_KEYS = ("quantity", "qty", "count", "selectedQuantity", "cartQuantity")
# The price charged comes first: Instamart's `discountedFinalPrice`, never its `mrp`.
_CHARGED_KEYS = ("discountedFinalPrice", "discounted_final_price")
_UNIT_KEYS = (
    *_CHARGED_KEYS,
    *("unitPrice", "unit_price", "offerPrice", "offer_price", "finalPrice", "final_price"),
)
_UNIT_FALLBACK_KEYS = ("price", "sellingPrice", "selling_price", "itemPrice")
_TOTAL_KEYS = ("lineTotal", "line_total", "totalPrice", "total_price", "total", "subtotal")
_PAISE_KEYS = (("unitPricePaise", "pricePaise", "price_paise"), ("totalPaise", "total_paise"))
_PAISE_TOLERANCE = 0.01
_TOTAL_TOLERANCE = 0.05
_STOCK_KEYS = Keys("isInStockAndAvailable", "in_stock", "inStock", "isAvailable")
_SIZE_KEYS = Keys("quantityDescription", "quantity_description", "itemVariant", "item_variant")
_QUANTITY = Keys(*_QUANTITY_KEYS)
_NAMES = Keys(*NAME_KEYS)
_UNITS = Keys(*_UNIT_KEYS)
_UNIT_FALLBACKS = Keys(*_UNIT_FALLBACK_KEYS)
_TOTALS = Keys(*_TOTAL_KEYS)
_CHARGED = Keys(*_CHARGED_KEYS)
_PAISE_UNITS = Keys(*_PAISE_KEYS[0])
_PAISE_TOTALS = Keys(*_PAISE_KEYS[1])
_FOOD_TOTALS = Keys("total", "subtotal")
_SPIN_KEYS = Keys("spinId", "spin_id")
_SKU_KEYS = Keys("skuId", "sku_id")
_PRODUCT_ID_KEYS = Keys("productId", "product_id")
_MENU_ITEM_ID_KEYS = Keys("menu_item_id", "menuItemId", "itemId", "item_id")
_RESTAURANT_ID_KEYS = Keys("restaurantId", "restaurant_id")
_DISH_HINT_KEYS = Keys("restaurantId", "isVeg")
_STATED_PRICE_KEYS = frozenset().union(
    {"final_price"}, _UNITS, _TOTALS, _PAISE_UNITS, _PAISE_TOTALS
)
Fields = dict[str, Any]  # a card model's fields, validated once with the whole result


def read_line(
    entry: dict[str, Any], restaurant_id: str | None, restaurant_name: str | None
) -> Fields | None:
    """One line's `CartLine` fields, or None for an entry with neither name nor id."""
    variation: dict[str, Any] = as_dict(entry.get("variation")) or next(
        (v for v in as_list(entry.get("variations")) if isinstance(v, dict)), {}
    )
    quantity_value = first(entry, _QUANTITY)
    quantity = to_int(quantity_value) if quantity_value is not None else 1
    ids = _ids(entry, variation, restaurant_id)
    name = to_str(first(entry, _NAMES)) or (to_str(first(variation, _NAMES)) if variation else None)
    if name is None and not any(ids.values()):
        return None
    unit, total = _prices(entry, variation, quantity or 0)
    price = as_dict(entry.get("price")) or as_dict(variation.get("price")) or {}
    size = first(entry, _SIZE_KEYS) or (first(variation, _SIZE_KEYS) if variation else None)
    return {
        "name": name or f"Item {next(v for v in ids.values() if v)}",
        "quantity": quantity if quantity is not None else 1,
        "unit_price": unit,
        "line_total": total,
        "mrp": to_float(price.get("mrp")) or to_float(entry.get("mrp")),
        "quantity_description": to_str(size),
        "image_url": image_from(entry) or (image_from(variation) if variation else None),
        "restaurant_id": restaurant_id or to_id(first(entry, _RESTAURANT_ID_KEYS)),
        "restaurant_name": restaurant_name or to_str(entry.get("restaurantName")),
        "in_stock": to_bool(first(entry, _STOCK_KEYS)) is not False,
        **ids,
    }


def _ids(
    entry: dict[str, Any], variation: dict[str, Any], restaurant_id: str | None
) -> dict[str, str | None]:
    spin_id = to_id(first(entry, _SPIN_KEYS)) or (
        to_id(variation.get("spinId")) if variation else None
    )
    sku_id = to_id(first(entry, _SKU_KEYS)) or (
        to_id(variation.get("skuId")) if variation else None
    )
    product_id = to_id(first(entry, _PRODUCT_ID_KEYS))
    menu_item_id = to_id(first(entry, _MENU_ITEM_ID_KEYS))
    if menu_item_id is None and not (spin_id or sku_id or product_id):
        # A bare `id`: a dish in a food cart, a product elsewhere.
        bare = to_id(entry.get("id"))
        if restaurant_id or first(entry, _DISH_HINT_KEYS) is not None:
            menu_item_id = bare
        else:
            product_id = bare
    return {
        "spin_id": spin_id,
        "sku_id": sku_id,
        "product_id": product_id,
        "menu_item_id": menu_item_id,
    }


def _prices(
    entry: dict[str, Any], variation: dict[str, Any], quantity: int
) -> tuple[float | None, float | None]:
    # A line with only a `price` (the usual grocery line) skips the other price keys.
    stated = not _STATED_PRICE_KEYS.isdisjoint(entry)
    food_line = _food_line_total(entry, quantity) if stated else None
    if food_line is not None:
        return round(food_line / quantity, 2), food_line
    unit = (money(first(entry, _UNITS)) if stated else None) or money(first(entry, _UNIT_FALLBACKS))
    unit = unit if unit is not None or not variation else money(variation.get("price"))
    if not stated:
        return unit, None if unit is None else cents(unit * quantity)
    total = money(first(entry, _TOTALS))
    paise_unit = money(first(entry, _PAISE_UNITS), scale=PAISE_PER_RUPEE)
    paise_total = money(first(entry, _PAISE_TOTALS), scale=PAISE_PER_RUPEE)
    unit = paise_unit if paise_unit is not None else unit
    total = paise_total if paise_total is not None else total
    if total is None and unit is not None:
        total = cents(unit * quantity)
    if unit is None and total is not None and quantity:
        unit = round(total / quantity, 2)
    return unit, total


def _food_line_total(entry: dict[str, Any], quantity: int) -> float | None:
    """The food cart's `final_price` next to `subtotal`/`total`: the line's charged total.

    When `final_price` times the quantity is what `total` says, it was a unit price.
    """
    if "final_price" not in entry:
        return None
    final = money(entry["final_price"])
    total = money(first(entry, _FOOD_TOTALS))
    if final is None or total is None or quantity < 1:
        return None
    if quantity > 1 and abs(final * quantity - total) < abs(final - total):
        return cents(final * quantity)
    return final


def only_charged(entry: dict[str, Any]) -> bool:
    """A line priced by `discountedFinalPrice` alone (unit or line total: not stated)."""
    return first(entry, _CHARGED) is not None and first(entry, _TOTALS) is None


def fix_charged_line_totals(
    charged: list[Fields], items: list[Fields], bill: list[BillLine]
) -> None:
    """`discountedFinalPrice` read as a unit price, unless the bill's item total says the
    lines' prices were already line totals."""
    item_total = next((line.amount for line in bill if line.kind == "item_total"), None)
    if not charged or len(charged) != len(items) or item_total is None:
        return
    as_units = sum(line["line_total"] or 0.0 for line in charged)
    as_lines = sum(line["unit_price"] or 0.0 for line in charged)
    if (
        abs(as_lines - item_total) > _TOTAL_TOLERANCE
        or abs(as_units - item_total) <= _TOTAL_TOLERANCE
    ):
        return
    for line in charged:
        if line["unit_price"] is not None and line["quantity"]:
            line["line_total"] = line["unit_price"]
            line["unit_price"] = round(line["unit_price"] / line["quantity"], 2)


def fix_paise_lines(items: list[Fields], bill: list[BillLine]) -> None:
    """Lines reported in paise next to a rupee bill: scale them to match the bill."""
    item_total = next((line.amount for line in bill if line.kind == "item_total"), None)
    totals = [line["line_total"] for line in items if line["line_total"] is not None]
    if not item_total or len(totals) != len(items) or not totals:
        return
    ratio = sum(totals) / item_total
    if abs(ratio - PAISE_PER_RUPEE) > PAISE_PER_RUPEE * _PAISE_TOLERANCE:
        return
    for line in items:
        for key in ("unit_price", "line_total", "mrp"):
            if line[key] is not None:
                line[key] = line[key] / PAISE_PER_RUPEE
