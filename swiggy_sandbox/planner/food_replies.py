"""What the planner says about restaurants, menus, food carts and orders."""

from __future__ import annotations

from typing import Any

from swiggy_sandbox.planner import text as en

SHOWN_RESTAURANTS = 5
SHOWN_DISHES = 6
_VARIANT_KEYS = ("variants", "variantsV2")


def restaurants_reply(data: dict[str, Any], query: str) -> str:
    """Restaurants with rating, delivery time and price, then the question."""
    found = data.get("restaurants") or []
    if not found:
        return f"No restaurant near you delivers “{query}” right now. Try another dish or cuisine?"
    lines = [_restaurant_line(r) for r in found[:SHOWN_RESTAURANTS]]
    return (
        f"These deliver “{query}” to you:\n{en.listing(lines)}\n\n"
        "Which one should I open? Say “order from the first restaurant” or tap Menu."
    )


def _restaurant_line(restaurant: dict[str, Any]) -> str:
    facts = [f"★{restaurant['avgRating']}"] if restaurant.get("avgRating") else []
    sla = restaurant.get("sla") or {}
    if sla.get("slaString"):
        facts.append(str(sla["slaString"]))
    if restaurant.get("costForTwo"):
        facts.append(str(restaurant["costForTwo"]))
    closed = "" if restaurant.get("isOpen", True) else " (closed now)"
    return f"{restaurant.get('name')}{closed} — {' · '.join(facts)}"


def menu_dishes(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Every dish's `card.info` in menu order."""
    dishes: list[dict[str, Any]] = []
    for category in (data.get("menu") or {}).get("categories") or []:
        for card in category.get("itemCards") or []:
            info = (card.get("card") or {}).get("info")
            if isinstance(info, dict) and info.get("id") is not None:
                dishes.append(info)
    return dishes


def menu_reply(data: dict[str, Any], craving: list[str]) -> str:
    """The dishes that match the craving first, then a few others."""
    name = (data.get("restaurant") or {}).get("name", "the restaurant")
    dishes = [d for d in menu_dishes(data) if d.get("inStock", True)]
    scored = [(en.match_score(craving, str(d.get("name", ""))), d) for d in dishes]
    matching = [d for _, d in sorted((row for row in scored if row[0]), key=lambda r: -r[0])]
    others = [d for d in dishes if d not in matching]
    shown = (matching + others)[:SHOWN_DISHES]
    if not shown:
        return f"{name} has nothing available to order right now."
    lines = [
        f"{d.get('name')}{' (veg)' if d.get('isVeg') else ''} — {en.rupees(_paise(d) / 100)}"
        for d in shown
    ]
    lead = "has what you wanted" if matching else "has these"
    restaurant = data.get("restaurant") or {}
    closed = ""
    if restaurant.get("isOpen") is False:
        opens = (
            f" (opens at {restaurant['nextOpenTime']})" if restaurant.get("nextOpenTime") else ""
        )
        closed = f"Heads-up: it's closed right now{opens}, so ordering will wait until then.\n\n"
    return (
        f"{closed}{name} {lead}:\n{en.listing(lines)}\n\n"
        f"Say “add the {str(shown[0].get('name', 'first dish')).lower()}” or tap Add."
    )


def _paise(dish: dict[str, Any]) -> float:
    return float(dish.get("price") or 0)


def food_cart_lines(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The cart's dishes as update_food_cart wants them back (plus the name)."""
    lines = []
    for item in data.get("items") or []:
        line: dict[str, Any] = {
            "menu_item_id": str(item.get("menu_item_id")),
            "quantity": int(item.get("quantity", 1)),
            "name": str(item.get("name", "")),
        }
        for key in _VARIANT_KEYS:
            if item.get(key):
                line[key] = [_picked(v, "variation_id") for v in item[key]]
        if item.get("addons"):
            line["addons"] = [_picked(a, "choice_id") for a in item["addons"]]
        lines.append(line)
    return lines


def _picked(selection: dict[str, Any], key: str) -> dict[str, Any]:
    return {"group_id": selection.get("group_id"), key: selection.get(key)}


def food_cart_reply(data: dict[str, Any], opening: str = "") -> str:
    """The food cart: restaurant, dishes and the amount to pay."""
    items = data.get("items") or []
    if not items:
        return f"{opening}Your food cart is empty.".strip()
    lines = [
        f"{item.get('quantity', 1)} × {item.get('name')} — {en.rupees(item.get('totalPrice'))}"
        for item in items
    ]
    to_pay = (data.get("billBreakdown") or {}).get("toPay")
    where = data.get("restaurantName") or "the restaurant"
    return (
        f"{opening}Your cart from {where}:\n{en.listing(lines)}\n"
        f"To pay: {en.rupees(to_pay)} (delivery, fees and taxes included)."
    )


def food_order_review(data: dict[str, Any]) -> str:
    """What the person approves before the food order is placed: restaurant, bill, terms."""
    to_pay = (data.get("billBreakdown") or {}).get("toPay")
    return (
        f"Your order from {data.get('restaurantName')} comes to {en.rupees(to_pay)}, paid cash on "
        "delivery. Once placed it cannot be cancelled."
    )


def food_order_reply(order: dict[str, Any]) -> str:
    """The food order as placed."""
    eta = order.get("etaMinutes")
    arrival = f" It should reach you in about {eta} minutes." if eta else ""
    name = (order.get("restaurant") or {}).get("name", "the restaurant")
    return (
        f"Done — order {order.get('orderId')} is placed with {name}: "
        f"{en.rupees(order.get('toPay'))} to pay in cash on delivery.{arrival}"
    )
