"""What the planner says about Instamart products, carts and orders.

Results arrive in Swiggy's documented shapes: products with `variations`, cart lines with
`itemName` and `discountedFinalPrice` (per unit), bill values as strings ("₹54.00").
What a model knows about groceries beyond that (nutrition, what kind of product a name is)
comes from the sandbox catalog, standing in for the model's general knowledge.
"""

from __future__ import annotations

import re
from typing import Any

from swiggy_sandbox.catalog import Product, load_catalog
from swiggy_sandbox.planner import text as en

SHOWN_PRODUCTS = 5
_AMOUNT_RE = re.compile(r"-?\d[\d,]*(?:\.\d+)?")
_SKIN_TYPES = ("oily", "dry", "combination", "sensitive", "normal")
_HAIR_TYPES = ("oily", "dry", "frizzy", "curly", "thin", "dandruff")


def buyable(product: dict[str, Any], size: str | None = None) -> dict[str, Any] | None:
    """The pack of `size` ("1l") when it is in stock, else the first in stock (or None)."""
    packs = [v for v in product.get("variations") or [] if v.get("isInStockAndAvailable", True)]
    sized = [v for v in packs if _squeezed(v.get("quantityDescription")) == size]
    return (sized or packs or [None])[0]


def _squeezed(description: Any) -> str:
    return str(description or "").lower().replace(" ", "")


def price_of(product: dict[str, Any]) -> float | None:
    """The offer price of the first buyable pack."""
    variation = buyable(product)
    if variation is None:
        return None
    price = variation.get("price") or {}
    return float(price.get("offerPrice") or price.get("mrp") or 0)


def shown_products(data: dict[str, Any], cap: float | None) -> list[dict[str, Any]]:
    """The products a reply lists, in order: buyable and within the budget."""
    products = [p for p in data.get("products") or [] if price_of(p) is not None]
    if cap is not None:
        products = [p for p in products if (price_of(p) or 0) <= cap]
    return products[:SHOWN_PRODUCTS]


def amount(value: Any) -> float | None:
    """Rupees from a number, "₹54.00" or a `{label, value}` bill entry."""
    if isinstance(value, dict):
        value = value.get("value")
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    match = _AMOUNT_RE.search(str(value or "").replace("₹", ""))
    return float(match.group().replace(",", "")) if match else None


def known_product(product_id: Any) -> Product | None:
    """What the model knows about a product (None for products it has never heard of)."""
    return load_catalog().product(str(product_id))


def product_words(product: dict[str, Any]) -> str:
    """A product's name and what kind of product it is ("cleanser" is a face wash)."""
    known = known_product(product.get("productId"))
    facts = [str(product.get("displayName", ""))]
    if known is not None:
        facts += [known.sub_category, *known.tags]
    return " ".join(fact for fact in facts if fact)


def products_reply(data: dict[str, Any], query: str, cap: float | None, nutrition: bool) -> str:
    """A short list of what the search found, with prices and a next step."""
    shown = shown_products(data, cap)
    if not shown:
        if cap is not None and data.get("products"):
            budget = en.rupees(cap)
            return f"Nothing for “{query}” is under {budget} right now. Shall I drop the budget?"
        return f"I couldn't find anything for “{query}”. Try a simpler name or a brand."
    budget = f" under {en.rupees(cap)}" if cap is not None else ""
    lines = [_product_line(p) for p in shown]
    reply = f"Here's what I found for “{query}”{budget}:\n{en.listing(lines)}"
    if nutrition and (note := _protein_note(shown)):
        reply += f"\n\n{note}"
    return reply + "\n\nSay “add 2 of the first one” or use the Add buttons."


def several_reply(found: list[tuple[str, dict[str, Any]]], cap: float | None) -> str:
    """The best few of each search, one line per search, then the next step."""
    lines = []
    for query, data in found:
        shown = shown_products(data, cap)[:2]
        names = "; ".join(_product_line(p) for p in shown) or "nothing in stock right now"
        lines.append(f"**{query.capitalize()}**: {names}")
    return "\n".join(lines) + "\n\nUse the Add buttons, or say “add the first one”."


def _product_line(product: dict[str, Any]) -> str:
    variation = buyable(product) or {}
    size = f" ({variation['quantityDescription']})" if variation.get("quantityDescription") else ""
    return f"{product.get('displayName', 'Item')}{size} — {en.rupees(price_of(product))}"


def _protein_note(shown: list[dict[str, Any]]) -> str:
    protein = {}
    for product in shown:
        known = known_product(product.get("productId"))
        if known is not None and known.nutrition is not None:
            protein[str(product.get("displayName"))] = known.nutrition.protein_g
    if not protein:
        return ""
    best = max(protein, key=lambda name: protein[name])
    return f"Nutrition: {best} has the most protein here, {protein[best]:g} g per 100 g."


def cart_lines(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The cart's lines as update_cart wants them back (plus the name, for matching)."""
    return [
        {
            "spinId": item["spinId"],
            "skuId": item.get("skuId"),
            "quantity": int(item.get("quantity", 1)),
            "name": item_name(item),
        }
        for item in data.get("items") or []
        if item.get("spinId")
    ]


def item_name(item: dict[str, Any]) -> str:
    """A cart line's product name."""
    return str(item.get("itemName") or item.get("displayName") or "item")


def line_total(item: dict[str, Any]) -> float | None:
    """What a cart line costs: the per-unit price charged times the quantity."""
    unit = amount(item.get("discountedFinalPrice"))
    if unit is None:  # an older cart shape: the line's own total
        return amount(item.get("totalPrice"))
    return unit * int(item.get("quantity", 1))


def to_pay(cart: dict[str, Any]) -> float | None:
    """The cart's amount to pay as Swiggy reported it."""
    return amount((cart.get("billBreakdown") or {}).get("toPay") or cart.get("cartTotalAmount"))


def cart_reply(data: dict[str, Any], opening: str = "") -> str:
    """The cart in a few lines: items, quantities and the amount to pay."""
    items = data.get("items") or []
    if not items:
        return f"{opening}Your cart is empty.".strip()
    lines = [
        f"{item.get('quantity', 1)} × {item_name(item)} — {en.rupees(line_total(item))}"
        for item in items
    ]
    return (
        f"{opening}Your cart:\n{en.listing(lines)}\n"
        f"To pay: {en.rupees(to_pay(data))} (fees included)."
    )


def order_review(data: dict[str, Any]) -> str:
    """What the person approves before an order is placed: the bill and the terms."""
    count = sum(int(item.get("quantity", 1)) for item in data.get("items") or [])
    where = (data.get("selectedAddressDetails") or {}).get("annotation")
    to = f", delivered to {where}" if where else ""
    return (
        f"Your order comes to {en.rupees(to_pay(data))} for {count} item(s){to}, paid cash on "
        "delivery. Once placed it cannot be cancelled."
    )


def order_reply(order: dict[str, Any]) -> str:
    """The order as placed (checkout's single-order result)."""
    where = f" to {order['deliveryLabel']}" if order.get("deliveryLabel") else ""
    total = amount(order.get("cartTotal", order.get("toPay")))  # `toPay`: an older shape
    return (
        f"Done — order {order.get('orderId')} is placed{where}: "
        f"{en.rupees(total)} to pay in cash on delivery."
    )


def capped_note(data: dict[str, Any], spin_id: str) -> str:
    """Why a line holds less than asked (stock or the per-order limit), or ""."""
    for reduced in data.get("reducedQuantityItems") or []:
        if reduced.get("spinId") == spin_id:
            why = reduced.get("reason") or "limited stock"
            return (
                f"Only {reduced.get('cappedQuantity')} of {reduced.get('requestedQuantity')} "
                f"could be added ({str(why).rstrip('.')}). "
            )
    for removed in data.get("removedOutOfStockItems") or []:
        if removed.get("spinId") == spin_id:
            return f"{item_name(removed)} is out of stock, so it wasn't added. "
    return ""


def skin_type(text: str) -> str | None:
    """The skin type named in a message."""
    return next((kind for kind in _SKIN_TYPES if f"{kind} skin" in text), None)


def hair_type(text: str) -> str | None:
    """The hair type named in a message."""
    return next((kind for kind in _HAIR_TYPES if f"{kind} hair" in text or kind in text), None)


def routine_reply(skin: str) -> str:
    """A three-step routine for a skin type, before any shopping."""
    treat = {
        "oily": "a salicylic-acid or oil-free foaming face wash",
        "dry": "a cream or hydrating face wash",
        "sensitive": "a fragrance-free gentle cleanser",
    }.get(skin, "a gentle face wash")
    moisturiser = "an oil-free gel moisturiser" if skin == "oily" else "a nourishing moisturiser"
    return (
        f"A simple routine for {skin} skin:\n"
        f"1. Cleanse morning and evening with {treat}.\n"
        f"2. Moisturise with {moisturiser}, even when your skin feels greasy.\n"
        "3. Protect every morning with a broad-spectrum SPF 50 sunscreen.\n"
        "Weekly: a clay mask once helps with excess oil and clogged pores."
    )
