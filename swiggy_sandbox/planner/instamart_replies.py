"""What the planner says about Instamart products, carts and orders."""

from __future__ import annotations

from typing import Any

from swiggy_sandbox.planner import text as en

SHOWN_PRODUCTS = 5
_SKIN_TYPES = ("oily", "dry", "combination", "sensitive", "normal")
_HAIR_TYPES = ("oily", "dry", "frizzy", "curly", "thin", "dandruff")


def buyable(product: dict[str, Any]) -> dict[str, Any] | None:
    """The first pack that is in stock (None when all are sold out)."""
    for variation in product.get("variations") or []:
        if variation.get("isInStockAndAvailable", True):
            return variation
    return None


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


def products_reply(data: dict[str, Any], cap: float | None, nutrition: bool) -> str:
    """A short list of what the search found, with prices and a next step."""
    query = data.get("query", "that")
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


def _product_line(product: dict[str, Any]) -> str:
    variation = buyable(product) or {}
    size = f" ({variation['quantityDescription']})" if variation.get("quantityDescription") else ""
    return f"{product.get('displayName', 'Item')}{size} — {en.rupees(price_of(product))}"


def _protein_note(shown: list[dict[str, Any]]) -> str:
    with_facts = [p for p in shown if (p.get("nutrition") or {}).get("proteinG") is not None]
    if not with_facts:
        return ""
    best = max(with_facts, key=lambda p: p["nutrition"]["proteinG"])
    return (
        f"Nutrition: {best['displayName']} has the most protein here, "
        f"{best['nutrition']['proteinG']} g per 100 g."
    )


def cart_lines(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The cart's lines as update_cart wants them back (plus the name, for matching)."""
    return [
        {
            "spinId": item["spinId"],
            "skuId": item.get("skuId"),
            "quantity": int(item.get("quantity", 1)),
            "name": str(item.get("displayName", "")),
        }
        for item in data.get("items") or []
        if item.get("spinId")
    ]


def cart_reply(data: dict[str, Any], opening: str = "") -> str:
    """The cart in a few lines: items, quantities and the amount to pay."""
    items = data.get("items") or []
    if not items:
        return f"{opening}Your cart is empty.".strip()
    lines = [
        f"{item.get('quantity', 1)} × {item.get('displayName', 'item')} — "
        f"{en.rupees(item.get('totalPrice'))}"
        for item in items
    ]
    to_pay = (data.get("billBreakdown") or {}).get("toPay")
    return f"{opening}Your cart:\n{en.listing(lines)}\nTo pay: {en.rupees(to_pay)} (fees included)."


def order_review(data: dict[str, Any]) -> str:
    """What the person approves before an order is placed: the bill and the terms."""
    to_pay = (data.get("billBreakdown") or {}).get("toPay")
    count = data.get("itemCount") or len(data.get("items") or [])
    return (
        f"Your order comes to {en.rupees(to_pay)} for {count} item(s), paid cash on delivery. "
        "Once placed it cannot be cancelled."
    )


def order_reply(order: dict[str, Any]) -> str:
    """The order as placed."""
    eta = (
        f" It should arrive in about {order['etaMinutes']} minutes."
        if order.get("etaMinutes")
        else ""
    )
    return (
        f"Done — order {order.get('orderId')} is placed: {order.get('itemCount', '')} item(s), "
        f"{en.rupees(order.get('toPay'))} to pay in cash on delivery.{eta}"
    )


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
