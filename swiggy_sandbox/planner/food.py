"""FeedMe on Swiggy Food: craving → restaurants → a menu → cart → an order the person approves."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from swiggy_sandbox.connector import Finish, Step
from swiggy_sandbox.planner import food_replies as say
from swiggy_sandbox.planner import misses, wishes
from swiggy_sandbox.planner import text as en
from swiggy_sandbox.planner.approval import ask_approval
from swiggy_sandbox.planner.common import (
    address_or_step,
    call,
    chosen_restaurant_id,
    failure_reply,
    help_reply,
)
from swiggy_sandbox.planner.diet_picks import diet_first, dish_item
from swiggy_sandbox.planner.intents import Intent
from swiggy_sandbox.planner.reorder import reorder_food
from swiggy_sandbox.planner.tool_calls import ToolCall
from swiggy_sandbox.planner.view import ConversationView

_CART_TOOLS = ("get_food_cart", "update_food_cart", "flush_food_cart", "place_food_order")
# The calls whose data carries the cart (flushing or ordering leaves it empty).
_CART_READS = ("get_food_cart", "update_food_cart")
_VAGUE = frozenset({"", "hungry", "food", "something", "anything", "eat", "something to eat"})


def plan_food(view: ConversationView, intent: Intent) -> Step:
    """The next step for FeedMe."""
    if failed := view.failure():
        return failure_reply(failed)
    address = address_or_step(view, "get_addresses")
    if not isinstance(address, str):
        return address
    handler = _HANDLERS.get(intent.kind)
    return handler(view, intent, address) if handler else help_reply(view)


def _search(view: ConversationView, intent: Intent, address: str) -> Step:
    query, intro = wishes.food_wish(view.text)
    if query in _VAGUE:
        return misses.vague_food()
    done = view.searched("search_restaurants", query)
    if done is not None:
        asked = str(done.input.get("query", ""))
        reply = say.restaurants_reply(done.data, asked)
        found = [r for r in done.data.get("restaurants") or [] if isinstance(r, dict)]
        open_now = [r for r in found if say.is_open(r)]
        if not open_now:
            return misses.restaurant_miss(view.vertical, asked, reply if found else "")
        best = wishes.best_rated(open_now, view.text)
        return Finish(f"{best}\n\n{reply}" if best else reply)
    return call(view, "search_restaurants", {"addressId": address, "query": query}, say=intro)


def _track(view: ConversationView, intent: Intent, address: str) -> Step:
    done = view.called("track_food_order")
    if done is None:
        return call(view, "track_food_order", {})
    if not done.data.get("orders"):
        return Finish(
            "You have no food order on its way right now. Hungry? Try “I want a paneer biryani”."
        )
    return Finish(str(done.data.get("statusMessage") or "Your order is on its way."))


def _open_menu(view: ConversationView, intent: Intent, address: str) -> Step:
    if menu := view.called("get_restaurant_menu"):
        search = view.latest("search_restaurants")
        craving = en.words(str(search.input.get("query", ""))) if search else []
        return Finish(say.menu_reply(menu.data, craving, view.diet))
    restaurant_id = intent.ids.get("restaurantId") or chosen_restaurant_id(
        view, intent, "search_restaurants"
    )
    if not restaurant_id:
        return Finish("Which restaurant? Search for a dish first, then pick one from the list.")
    return call(
        view, "get_restaurant_menu", {"addressId": address, "restaurantId": str(restaurant_id)}
    )


def _add(view: ConversationView, intent: Intent, address: str) -> Step:
    dish = _dish(view, intent)
    if dish is None:
        return Finish("Which dish should I add? Open a restaurant's menu first.")
    quantity = int(intent.ids.get("quantity") or intent.quantity or 1)
    return _change_cart(view, address, dish, lambda old: old + quantity, "Added")


def _set_quantity(view: ConversationView, intent: Intent, address: str) -> Step:
    lines = _current_lines(view)
    if lines is None:
        return call(view, "get_food_cart", {"addressId": address})
    line = _cart_line(lines, intent)
    if line is None:
        return Finish(f"I don't see that dish in your cart. {_cart_text(view)}")
    quantity = int(intent.ids.get("quantity", intent.quantity or 1))
    dish = {**line, "restaurantId": _cart_restaurant(view)}
    return _change_cart(view, address, dish, lambda _old: quantity, "Updated")


def _remove(view: ConversationView, intent: Intent, address: str) -> Step:
    if view.called("get_food_cart") is None and view.called("update_food_cart") is None:
        return call(view, "get_food_cart", {"addressId": address})
    # Match against the cart as read this turn, before the removal changed it.
    read = view.called("get_food_cart")
    line = _cart_line(say.food_cart_lines(read.data) if read else [], intent)
    if line is None:
        return Finish(f"I don't see that dish in your cart. {_cart_text(view)}")
    restaurant = say.cart_restaurant(read.data) if read else {}
    dish = {**line, "restaurantId": str(restaurant.get("id")) if restaurant else None}
    return _change_cart(view, address, dish, lambda _old: 0, "Removed")


def _view_cart(view: ConversationView, intent: Intent, address: str) -> Step:
    if done := view.called("get_food_cart"):
        return Finish(say.food_cart_reply(done.data))
    return call(view, "get_food_cart", {"addressId": address})


def _checkout(view: ConversationView, intent: Intent, address: str) -> Step:
    """Read the cart, then ask the person to approve the exact order call (never call it)."""
    cart = view.called("get_food_cart")
    if cart is None:
        return call(
            view, "get_food_cart", {"addressId": address}, say="Let me check your cart first."
        )
    if not say.food_cart(cart.data).get("items"):
        return Finish("Your food cart is empty, so there's nothing to order yet.")
    arguments = {"addressId": address, "paymentMethod": "Cash"}
    return ask_approval(view, "place_food_order", arguments, say.food_order_review(cart.data))


def _confirm(view: ConversationView, intent: Intent, address: str) -> Step:
    """Typed words never place an order: only the app's Confirm dialog can."""
    return Finish(
        "I can't place an order from a message. Only the Confirm button in the app's "
        "dialog can. Say “place the order” and I'll ask for it."
    )


def _cancel(view: ConversationView, intent: Intent, address: str) -> Step:
    return Finish("Okay, I won't place the order. Your cart stays as it is.")


def _change_cart(
    view: ConversationView,
    address: str,
    dish: dict[str, Any],
    new_quantity: Callable[[int], int],
    verb: str,
) -> Step:
    """Send the whole desired cart; a dish from another restaurant starts a new cart."""
    if updated := view.called("update_food_cart"):
        return Finish(_switched(view, updated) + _after_update(updated.data, dish, verb))
    lines = _current_lines(view)
    if lines is None:
        return call(view, "get_food_cart", {"addressId": address})
    restaurant_id = str(dish["restaurantId"])
    if _cart_restaurant(view) not in (None, restaurant_id):
        lines = []  # one restaurant per cart: the new dish replaces the old cart
    dish_id = str(dish["menu_item_id"])
    old = next((line["quantity"] for line in lines if line["menu_item_id"] == dish_id), 0)
    kept = [line for line in lines if line["menu_item_id"] != dish_id]
    if (wanted := new_quantity(old)) > 0:
        existing = next((line for line in lines if line["menu_item_id"] == dish_id), {})
        kept.append({**existing, "menu_item_id": dish_id, "quantity": wanted})
    items = [{k: v for k, v in line.items() if k != "name"} for line in kept]
    arguments: dict[str, Any] = {
        "restaurantId": restaurant_id,
        "addressId": address,
        "cartItems": items,
    }
    if dish.get("restaurantName"):
        arguments["restaurantName"] = dish["restaurantName"]
    return call(view, "update_food_cart", arguments)


def _dish(view: ConversationView, intent: Intent) -> dict[str, Any] | None:
    """The dish meant: card ids, else a position or name on the latest menu."""
    if intent.ids.get("menu_item_id") and intent.ids.get("restaurantId"):
        return {
            "menu_item_id": str(intent.ids["menu_item_id"]),
            "restaurantId": str(intent.ids["restaurantId"]),
            "restaurantName": intent.ids.get("restaurantName"),
            "name": intent.ids.get("name", ""),
        }
    menu = view.latest("get_restaurant_menu")
    if menu is None:
        return None
    # In the cards' order: what may break the person's diet is last on screen too.
    dishes = diet_first(
        view.diet, [d for d in say.menu_dishes(menu.data) if say.in_stock(d)], dish_item
    )
    found = en.pick(dishes, intent.position) or en.best_match(
        intent.name_words, dishes, lambda d: str(d.get("name", ""))
    )
    if found is None:
        return None
    restaurant = menu.data.get("restaurant") or {}
    return {
        "menu_item_id": str(found["id"]),
        "restaurantId": str(restaurant.get("id") or menu.input.get("restaurantId")),
        "restaurantName": restaurant.get("name"),
        "name": found.get("name", ""),
    }


def _current_lines(view: ConversationView) -> list[dict[str, Any]] | None:
    latest = view.latest(*_CART_TOOLS)
    if latest is None:
        return None
    return say.food_cart_lines(latest.data) if latest.name in _CART_READS else []


def _cart_restaurant(view: ConversationView) -> str | None:
    """The restaurant the cart is locked to (None when it is empty)."""
    latest = view.latest(*_CART_TOOLS)
    if latest is None or latest.name not in _CART_READS or not say.food_cart_lines(latest.data):
        return None
    restaurant_id = say.cart_restaurant(latest.data).get("id")
    return str(restaurant_id) if restaurant_id is not None else None


def _cart_line(lines: list[dict[str, Any]], intent: Intent) -> dict[str, Any] | None:
    if wanted := intent.ids.get("menu_item_id"):
        return next((line for line in lines if line["menu_item_id"] == str(wanted)), None)
    enough = math.ceil(len(intent.name_words) / 2)
    return en.pick(lines, intent.position) or en.best_match(
        intent.name_words, lines, lambda line: line["name"], enough
    )


def _cart_text(view: ConversationView) -> str:
    latest = view.latest(*_CART_TOOLS)
    if latest is None or latest.name not in _CART_READS:
        return "Your food cart is empty."
    return say.food_cart_reply(latest.data)


def _switched(view: ConversationView, updated: ToolCall) -> str:
    """A sentence when this update started a cart at another restaurant (the old one is gone)."""
    before = view.calls[: view.calls.index(updated)]
    earlier = next((c for c in reversed(before) if c.ok and c.name in _CART_TOOLS), None)
    if earlier is None or earlier.name not in _CART_READS:
        return ""
    old, new = say.cart_restaurant(earlier.data), say.cart_restaurant(updated.data)
    if not say.food_cart_lines(earlier.data) or old.get("id") in (None, new.get("id")):
        return ""
    return (
        f"A cart holds one restaurant, so your cart from {old.get('name') or 'the other place'} "
        "was emptied. "
    )


def _after_update(data: dict[str, Any], dish: dict[str, Any], verb: str) -> str:
    dish_id = str(dish["menu_item_id"])
    items = say.food_cart(data).get("items") or []
    line = next((i for i in items if str(i.get("menu_item_id")) == dish_id), None)
    name = (line or {}).get("name") or dish.get("name") or "that dish"
    if verb == "Removed":
        return say.food_cart_reply(data, f"Removed {name}. " if line is None else "")
    if line is None:
        return f"The cart update didn't include {name}.\n" + say.food_cart_reply(data)
    return say.food_cart_reply(data, f"{verb}: {line['quantity']} × {name}. ")


_HANDLERS: dict[str, Callable[[ConversationView, Intent, str], Step]] = {
    "search": _search,
    "track": _track,
    "choose": _open_menu,
    "add": _add,
    "set_quantity": _set_quantity,
    "remove": _remove,
    "view_cart": _view_cart,
    "checkout": _checkout,
    "confirm": _confirm,
    "cancel": _cancel,
    "reorder": reorder_food,
}
