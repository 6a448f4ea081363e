"""What the planner says about restaurants, menus, food carts and orders (documented shapes)."""

from __future__ import annotations

from typing import Any

from swiggy_core.diet import DietProfile
from swiggy_core.parsers.restaurants import parse_restaurants
from swiggy_core.ranking import rank, read_wants
from swiggy_sandbox.planner import text as en
from swiggy_sandbox.planner.diet_picks import clashes, diet_first, dish_item, flagged_note

_PAISE = 100
_VARIANT_KEYS = ("variants", "variantsV2")


def is_open(restaurant: dict[str, Any]) -> bool:
    """Swiggy asks to recommend only restaurants whose availabilityStatus is OPEN."""
    status = restaurant.get("availabilityStatus")
    return status is None or str(status).upper() == "OPEN"


def restaurants_reply(data: dict[str, Any], query: str) -> str:
    """The open restaurant that fits best and why, then the next step (cards show the rest)."""
    found = [r for r in data.get("restaurants") or [] if isinstance(r, dict)]
    open_now = [r for r in found if is_open(r)]
    if not open_now:
        closed = " (the ones that have it are closed right now)" if found else ""
        return f"No restaurant near you delivers “{query}” right now{closed}. Try another dish?"
    # The dishes come first on screen, each with its own Add (as in the Swiggy app).
    if dish := _best_dish(data.get("dishes") or [], {str(r.get("id")) for r in open_now}):
        return (
            f"For “{query}”, {_dish_line(dish)} looks best. "
            "Press Add on a dish to order it, or Menu on a restaurant for everything it has."
        )
    best = _ranked_like_cards(open_now, query)[0]
    return (
        f"For “{query}”, {_restaurant_line(best)} looks best. "
        "Press Menu on a card, or say “order from the first restaurant”."
    )


def _ranked_like_cards(restaurants: list[dict[str, Any]], query: str) -> list[dict[str, Any]]:
    """Restaurants in the app's card order for this search (what fits first)."""
    parsed = parse_restaurants({"restaurants": restaurants}, "foodorder")
    if parsed is None:
        return restaurants
    ranked = rank(parsed.items, read_wants(query))
    by_id = {str(r.get("id")): r for r in restaurants}
    order = [by_id.get(item.restaurant_id or "") for item in [*ranked.items, *ranked.dropped]]
    return [restaurant for restaurant in order if restaurant is not None] or restaurants


def _best_dish(dishes: list[Any], open_ids: set[str]) -> dict[str, Any] | None:
    """The in-stock dish of the best-rated open restaurant (the cheaper one on a tie)."""
    orderable = [
        d
        for d in dishes
        if isinstance(d, dict) and in_stock(d) and str(d.get("restaurantId")) in open_ids
    ]
    if not orderable:
        return None
    return max(
        orderable,
        key=lambda d: (float(d.get("restaurantRating") or 0), -float(d.get("price") or 0)),
    )


def _dish_line(dish: dict[str, Any]) -> str:
    """ "Paneer Biryani from Meghana Foods (rated 4.5, ₹259)"."""
    facts = [f"rated {dish['restaurantRating']}"] if dish.get("restaurantRating") else []
    if dish.get("price"):
        facts.append(en.rupees(float(dish["price"]) / _PAISE))
    where = f" from {dish['restaurantName']}" if dish.get("restaurantName") else ""
    about = f" ({', '.join(facts)})" if facts else ""
    return f"{dish.get('name')}{where}{about}"


def _restaurant_line(restaurant: dict[str, Any]) -> str:
    """ "Meghana Foods (rated 4.5, 25-30 mins)": the name and why it stands out."""
    facts = [f"rated {restaurant['avgRating']}"] if restaurant.get("avgRating") else []
    if restaurant.get("deliveryTimeRange"):
        facts.append(str(restaurant["deliveryTimeRange"]))
    name = str(restaurant.get("name"))
    return f"{name} ({', '.join(facts)})" if facts else name


def menu_dishes(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The browse menu's dishes (a flat list), in menu order."""
    items = data.get("items") or []
    return [d for d in items if isinstance(d, dict) and d.get("id") is not None]


def in_stock(dish: dict[str, Any]) -> bool:
    """`inStock` is a number on Swiggy's menus (1 or 0); missing means available."""
    return bool(dish.get("inStock", 1))


def menu_reply(data: dict[str, Any], craving: list[str], diet: DietProfile | None = None) -> str:
    """The dish that answers the craving best, in one line: the menu cards show the rest.

    With a standing diet, the pick is one that suits it when any does.
    """
    restaurant = data.get("restaurant") or {}
    name = restaurant.get("name", "the restaurant")
    dishes = [d for d in menu_dishes(data) if in_stock(d)]
    scored = [(en.match_score(craving, str(d.get("name", ""))), d) for d in dishes]
    matching = [d for _, d in sorted((row for row in scored if row[0]), key=lambda r: -r[0])]
    others = [d for d in dishes if d not in matching]
    if not dishes:
        return f"{name} has nothing available to order right now."
    pick = diet_first(diet, matching + others, dish_item)[0]
    flagged = sum(clashes(diet, dish, dish_item) for dish in dishes)
    price = en.rupees(float(pick.get("price") or 0) / _PAISE)
    lead = f"{name} has what you wanted" if matching else f"Here's the menu of {name}"
    closed = ""
    if restaurant.get("isOpen") is False:
        closed = "Heads-up: it's closed right now, so ordering will wait until it opens.\n\n"
    return (
        f"{closed}{lead}; {pick.get('name')} ({price}) is a good pick. "
        f"Say “add the {str(pick.get('name', 'first dish')).lower()}” or tap Add."
        f"{flagged_note(flagged, 'dish')}"
    )


def food_cart(data: dict[str, Any]) -> dict[str, Any]:
    """The Food cart (FC) inside a cart tool's data: `data.data` (an older flat cart as is)."""
    inner = data.get("data")
    return inner if isinstance(inner, dict) else data


def cart_restaurant(data: dict[str, Any]) -> dict[str, Any]:
    """The cart's restaurant record ({} when the cart is empty)."""
    restaurant = food_cart(data).get("restaurant")
    return restaurant if isinstance(restaurant, dict) else {}


def food_cart_lines(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The cart's dishes as update_food_cart wants them back (plus the name)."""
    lines = []
    for item in food_cart(data).get("items") or []:
        line: dict[str, Any] = {
            "menu_item_id": str(item.get("menu_item_id")),
            "quantity": int(item.get("quantity", 1)),
            "name": str(item.get("name", "")),
        }
        # Selections go back under the key the cart reported: the dish's own format.
        for key in _VARIANT_KEYS:
            if item.get(key):
                line[key] = [_picked(v, "variation_id", "variationId") for v in item[key]]
        if item.get("addons"):
            line["addons"] = [_picked(a, "choice_id", "id") for a in item["addons"]]
        lines.append(line)
    return lines


def _picked(selection: dict[str, Any], key: str, fallback: str) -> dict[str, Any]:
    group = selection.get("group_id", selection.get("groupId"))
    return {"group_id": group, key: selection.get(key, selection.get(fallback))}


def to_pay(data: dict[str, Any]) -> Any:
    """The cart's amount to pay (rupees)."""
    return (food_cart(data).get("pricing") or {}).get("to_pay")


def food_cart_reply(data: dict[str, Any], opening: str = "") -> str:
    """The food cart: restaurant, dishes and the amount to pay."""
    cart = food_cart(data)
    items = cart.get("items") or []
    if not items:
        return f"{opening}Your food cart is empty.".strip()
    lines = en.cart_listing(items, lambda item: item.get("name"), lambda item: item.get("total"))
    where = cart_restaurant(data).get("name") or "the restaurant"
    return (
        f"{opening}Your cart from {where}:\n{lines}\n\n"
        f"To pay: {en.rupees(to_pay(data))} (delivery, fees and taxes included)."
    )


def food_order_review(data: dict[str, Any]) -> str:
    """What the person approves before the food order is placed: restaurant, bill, terms."""
    where = cart_restaurant(data).get("name") or "the restaurant"
    return (
        f"Your order from {where} comes to {en.rupees(to_pay(data))}: pay in cash on "
        "delivery or by UPI. Once placed it cannot be cancelled."
    )


def food_order_reply(order: dict[str, Any]) -> str:
    """The food order as placed (the documented COD answer; older accounts' shapes too)."""
    eta = order.get("estimatedDelivery")
    arrival = f" It should reach you in about {eta}." if eta else ""
    older = order.get("restaurant")
    older = older if isinstance(older, dict) else {}
    name = order.get("restaurantName") or older.get("name") or "the restaurant"
    amount = order.get("totalAmount", order.get("toPay"))
    return (
        f"Done — order {order.get('orderId')} is placed with {name}: "
        f"{en.rupees(amount)} to pay in cash on delivery.{arrival}"
    )
