"""What the planner says about Instamart products, carts and orders.

Results arrive in Swiggy's documented shapes: products with `variations`, cart lines with
`itemName` and `discountedFinalPrice` (per unit), bill values as strings ("₹54.00").
What a model knows about groceries beyond that (nutrition, what kind of product a name is)
comes from the sandbox catalog, standing in for the model's general knowledge.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from swiggy_core.parsers.products import parse_products
from swiggy_core.ranking import rank, read_wants
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


def shown_products(
    data: dict[str, Any], cap: float | None, query: str | None = None
) -> list[dict[str, Any]]:
    """The products a reply speaks of: buyable, within the budget, and (given the query)
    in the order the app's cards show them, so "the first one" is the first card."""
    products = [p for p in data.get("products") or [] if price_of(p) is not None]
    if query:
        products = ranked_like_cards(products, query, cap)
    if cap is not None:
        products = [p for p in products if (price_of(p) or 0) <= cap]
    return products[:SHOWN_PRODUCTS]


def ranked_like_cards(
    products: list[dict[str, Any]], query: str, cap: float | None
) -> list[dict[str, Any]]:
    """Products in the app's card order for this search: those that fit first."""
    parsed = parse_products({"products": products}, "food")
    if parsed is None:
        return products
    wants = read_wants(query)
    if cap is not None:
        wants = replace(wants, budget=cap)
    ranked = rank(parsed.items, wants)
    by_id = {str(p.get("productId")): p for p in products}
    order = [by_id.get(item.product_id or "") for item in [*ranked.items, *ranked.dropped]]
    return [product for product in order if product is not None] or products


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
    """The one product to pick and why, then the next step: the cards show the rest."""
    shown = shown_products(data, cap, query)
    if not shown:
        if cap is not None and data.get("products"):
            budget = en.rupees(cap)
            return f"Nothing for “{query}” is under {budget} right now. Shall I drop the budget?"
        return f"I couldn't find anything for “{query}”. Try a simpler name or a brand."
    budget = f" under {en.rupees(cap)}" if cap is not None else ""
    best = shown[0]
    reply = f"Best fit for “{query}”{budget}: {best.get('displayName', 'the first card')}"
    reply += f", {_why(best, nutrition)}."
    if nutrition and (note := _protein_note(shown, best)):
        reply += f" {note}"
    return reply + " Tap Add, or say “add 2 of the first one”."


def several_reply(found: list[tuple[str, dict[str, Any]]], cap: float | None) -> str:
    """Which searches found something (best fit first in each), then the next step."""
    have = [query for query, data in found if shown_products(data, cap, query)]
    missing = [query for query, data in found if not shown_products(data, cap, query)]
    reply = f"The best fit comes first for {_joined(have)}." if have else ""
    if missing:
        budget = f" under {en.rupees(cap)}" if cap is not None else ""
        reply += f" Nothing for {_joined(missing)} is in stock{budget} right now."
    return reply.strip() + " Use the Add buttons, or say “add the first one”."


def _why(product: dict[str, Any], nutrition: bool) -> str:
    """What makes the pick worth it in a few words: protein when known, then the price."""
    pack = (buyable(product) or {}).get("quantityDescription")
    price = f"{en.rupees(price_of(product))} for {pack}" if pack else en.rupees(price_of(product))
    known = known_product(product.get("productId"))
    if nutrition and known is not None and known.nutrition is not None:
        return f"{known.nutrition.protein_g:g} g protein per 100 g at {price}"
    return price


def _joined(queries: list[str]) -> str:
    """ "“eggs”, “milk” and “bread”"."""
    quoted = [f"“{query}”" for query in queries]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} and {quoted[-1]}"


def _protein_note(shown: list[dict[str, Any]], best: dict[str, Any]) -> str:
    """The most protein among the fitting ones, when it is not the pick already."""
    protein = {}
    for product in shown:
        known = known_product(product.get("productId"))
        if known is not None and known.nutrition is not None:
            protein[str(product.get("displayName"))] = known.nutrition.protein_g
    if not protein:
        return ""
    most = max(protein, key=lambda name: protein[name])
    if most == best.get("displayName"):
        return ""
    return f"For the most protein: {most}, {protein[most]:g} g per 100 g."


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
    return (
        f"{opening}Your cart:\n{en.cart_listing(items, item_name, line_total)}\n\n"
        f"To pay: {en.rupees(to_pay(data))} (fees included)."
    )


def order_review(data: dict[str, Any]) -> str:
    """What the person approves before an order is placed: the bill and the terms."""
    count = sum(int(item.get("quantity", 1)) for item in data.get("items") or [])
    where = (data.get("selectedAddressDetails") or {}).get("annotation")
    to = f", delivered to {where}" if where else ""
    return (
        f"Your order comes to {en.rupees(to_pay(data))} for {count} item(s){to}: pay in cash "
        "on delivery or by UPI. Once placed it cannot be cancelled."
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
