"""Summary lines for what is on offer and in the cart: products, restaurants, dishes, carts."""

from __future__ import annotations

from typing import Any

from swiggy_core.parsers.dishes import price_scale
from swiggy_sandbox.servers.summary_format import (
    Record,
    child,
    first,
    line,
    numbered,
    records,
    rupees,
)

# A bare-number costForTwo this large is paise ("40000" = ₹400): no meal for two costs that.
_PAISE_COST_THRESHOLD = 5_000
_CART_KEYS = ("billBreakdown", "pricing", "cartTotalAmount", "cartAbsent")


def products(record: Record) -> str | None:
    """One line per pack: `N. Name — 500 ml | ₹27 (MRP ₹28) | in stock (ID: spin, SKU: sku)`."""
    if "products" not in record:
        return None
    rows: list[str] = []
    for product in records(record.get("products")) + records(record.get("similarProducts")):
        name = first(product, "displayName", "name")
        for pack in records(product.get("variations")) or [product]:
            rows.append(_pack_line(len(rows) + 1, name or first(pack, "displayName"), pack))
    return numbered(rows) or "No products found."


def _pack_line(index: int, name: Any, pack: Record) -> str:
    price = child(pack, "price")
    offer, mrp = rupees(first(price, "offerPrice", "price")), rupees(price.get("mrp"))
    shown = f"{offer} (MRP {mrp})" if offer and mrp and mrp != offer else offer or mrp
    stocked = first(pack, "isInStockAndAvailable", "inStock") is not False
    ids = [("ID", pack.get("spinId")), ("SKU", pack.get("skuId"))]
    if not pack.get("spinId"):
        ids = [("ID", first(pack, "productId", "id"))]
    details = [pack.get("quantityDescription"), shown, "in stock" if stocked else "out of stock"]
    return line(index, name, details, ids)


def restaurants(record: Record) -> str | None:
    """`N. Name — cuisines | 4.3★ | 39 min | ₹500 for two (ID: …)`."""
    if "restaurants" not in record:
        return None
    found = records(record.get("restaurants"))
    body = numbered(restaurant_line(i, r) for i, r in enumerate(found, 1))
    dishes = len(records(record.get("dishes")))
    also = f"\nAlso {dishes} matching dish(es)." if dishes else ""
    return (body or "No restaurants found.") + also


def restaurant_line(index: int, place: Record) -> str:
    """One restaurant (Food or Dineout) as a numbered line."""
    cuisines = first(place, "cuisines", "cuisine")
    stars = first(place, "avgRating", "avgRatingString") or first(child(place, "rating"), "value")
    minutes = first(place, "deliveryTimeMinutes") or first(child(place, "sla"), "deliveryTime")
    status = str(place.get("availabilityStatus") or "").upper()
    closed = place.get("isOpen") is False or status in ("CLOSED", "UNAVAILABLE")
    details = [
        ", ".join(map(str, cuisines)) if isinstance(cuisines, list) else cuisines,
        f"{stars}★" if stars else None,
        f"{minutes} min" if minutes else first(place, "locality", "areaName", "area"),
        _cost(place.get("costForTwo")),
        "closed" if closed else None,
    ]
    return line(index, place.get("name"), details, [("ID", first(place, "id", "restaurantId"))])


def _cost(value: Any) -> str | None:
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
        amount = rupees(value, paise=value >= _PAISE_COST_THRESHOLD)
    else:
        amount = rupees(value)
    if not amount:
        return None
    return amount if "two" in amount else f"{amount} for two"


def dishes(record: Record) -> str | None:
    """`N. Name — veg | category | ₹259 (ID: menu_item_id, Restaurant: id)`."""
    found = records(record.get("dishes")) or [
        item for item in records(record.get("items")) if "quantity" not in item
    ]
    for category in records(child(record, "menu").get("categories")):
        found += [
            {**card, "category": category.get("title")}
            for card in records(category.get("itemCards"))
        ]
    if not found and "dishes" not in record and "menu" not in record:
        return None
    name = child(record, "restaurant").get("name")
    heading = f"Menu of {name}:" if name else ""
    # Swiggy's older menus (`card.info`) give dish prices in paise; the documented flat lists
    # leave the unit open: decide per menu exactly as the app's parsers do, so both agree.
    flat = [dish for dish in found if not child(child(dish, "card"), "info")]
    in_paise = price_scale(flat) > 1
    body = numbered(_dish_line(i, dish, in_paise) for i, dish in enumerate(found, 1))
    return "\n".join(part for part in (heading, body or "No dishes found.") if part)


def _dish_line(index: int, entry: Record, menu_in_paise: bool) -> str:
    legacy = child(child(entry, "card"), "info")
    dish = legacy or entry
    place = child(entry, "restaurant")
    veg = first(dish, "isVeg", "is_veg")
    labels = dish.get("categories")
    category = first(dish, "category") or entry.get("category")
    if category is None and isinstance(labels, list) and labels:
        category = labels[0]
    price = dish.get("price")
    in_paise = isinstance(price, int | float) and (bool(legacy) or menu_in_paise)
    details = [
        None if veg is None else "veg" if veg in (True, 1, "1", "true") else "non-veg",
        category,
        first(dish, "restaurant_name", "restaurantName") or place.get("name"),
        rupees(price, paise=in_paise),
        "out of stock" if dish.get("inStock") in (False, 0) else None,
    ]
    restaurant = first(dish, "restaurant_id", "restaurantId") or place.get("id")
    ids = [("ID", first(dish, "menu_item_id", "id")), ("Restaurant", restaurant)]
    return line(index, dish.get("name"), details, ids)


def cart(record: Record) -> str | None:
    """The lines (`N. Name — pack | qty 2 | ₹54 (ID: …)`) and a `Bill:` line."""
    items = records(record.get("items"))
    billed = any(key in record for key in _CART_KEYS)
    if not billed and not any("quantity" in item for item in items):
        return None
    bill = _bill(record)
    if not items:
        # A Food coupon answer carries the pricing without the lines.
        return bill if bill and "pricing" in record else "Your cart is empty."
    where = record.get("restaurantName") or child(record, "restaurant").get("name")
    heading = f"Your cart from {where}:" if where else "Your cart:"
    rows = numbered(_cart_line(i, item) for i, item in enumerate(items, 1))
    return "\n".join(part for part in (heading, rows, bill) if part)


def _cart_line(index: int, item: Record) -> str:
    """`N. Name — pack | qty 2 | ₹54 (₹27 each) (ID: …)`: the line total first."""
    quantity = item.get("quantity")
    unit = first(item, "discountedFinalPrice") or first(child(item, "price"), "offerPrice")
    if unit is None and isinstance(item.get("price"), int | float):
        unit = item["price"]
    # `total` is the line's; Food's `final_price` is the line's or the unit's, so it comes last.
    total = first(item, "totalPrice", "total", "subtotal", "final_price")
    if total is None and isinstance(unit, int | float) and isinstance(quantity, int | float):
        total = unit * quantity
    each = rupees(unit)
    amount = rupees(total) or each
    priced = f"{amount} ({each} each)" if amount and each and amount != each else amount
    ids = [("ID", first(item, "spinId", "menu_item_id", "id")), ("SKU", item.get("skuId"))]
    details = [first(item, "itemVariant", "quantityDescription"), f"qty {quantity}", priced]
    return line(index, first(item, "itemName", "displayName", "name"), details, ids)


def _bill(record: Record) -> str:
    breakdown = child(record, "billBreakdown")
    if breakdown:
        rows = records(breakdown.get("lineItems"))
        to_pay = breakdown.get("toPay")
        if isinstance(to_pay, dict):
            rows.append(to_pay)
        elif not any(str(row.get("label")).lower() == "to pay" for row in rows):
            rows.append({"label": "To Pay", "value": to_pay})
        pairs = [(row.get("label"), row.get("value")) for row in rows]
    else:
        pricing = child(record, "pricing")
        pairs = [(key.replace("_", " ").capitalize(), value) for key, value in pricing.items()]
    shown = [f"{label} {amount}" for label, value in pairs if (amount := rupees(value))]
    return f"Bill: {' · '.join(shown)}" if shown else ""


def addresses(record: Record) -> str | None:
    """`N. Home — Flat 402, … (ID: addr_…)`."""
    if "addresses" not in record and "locations" not in record:
        return None
    found = records(first(record, "addresses", "locations"))
    rows = (
        line(
            i,
            _label(first(a, "addressTag", "label", "tag", "addressCategory", "annotation")),
            [first(a, "addressLine", "address", "fullAddress")],
            [("ID", first(a, "id", "addressId"))],
        )
        for i, a in enumerate(found, 1)
    )
    return numbered(rows) or "No saved addresses."


def _label(value: Any) -> str:
    """`Home`, `Work` (Swiggy's categories are upper case: `HOME`)."""
    text = str(value or "Address")
    return text.title() if text.isupper() else text
