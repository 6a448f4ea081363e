"""NutriCart and StyleKit on Instamart: search, a replace-only cart, checkout via approval."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from swiggy_sandbox.connector import Finish, Step
from swiggy_sandbox.planner import instamart_replies as say
from swiggy_sandbox.planner import instamart_search as find
from swiggy_sandbox.planner import text as en
from swiggy_sandbox.planner.approval import ask_approval
from swiggy_sandbox.planner.common import Handler, address_or_step, call, plan_with
from swiggy_sandbox.planner.diet_picks import diet_first, product_item
from swiggy_sandbox.planner.intents import Intent
from swiggy_sandbox.planner.reorder import reorder_instamart
from swiggy_sandbox.planner.view import ConversationView

Lines = list[dict[str, Any]]
_CART_TOOLS = ("get_cart", "update_cart", "clear_cart", "checkout")


def plan_instamart(view: ConversationView, intent: Intent) -> Step:
    """The next step for an Instamart vertical."""
    return plan_with(view, intent, _HANDLERS)


def _add(view: ConversationView, intent: Intent) -> Step:
    target = _target(view, intent)
    if target is None and intent.name_words and view.called("search_products") is None:
        # Naming a product is a direct order: find it now, then add the best match.
        query = find.qualified(view, en.without_size(intent.phrase) or " ".join(intent.name_words))
        search = find.search_one(view, Intent("search", query=query))
        # Said once per turn: the address lookup may come first.
        return search if view.turn_calls() else find.with_intro(search, f"Let me find {query}.")
    if target is None:
        return Finish("Which product should I add? Search first, then say “add the first one”.")
    quantity = int(intent.ids.get("quantity") or intent.quantity or 1)
    return _change_cart(view, target, lambda old: old + quantity, "Added")


def _set_quantity(view: ConversationView, intent: Intent) -> Step:
    quantity = int(intent.ids.get("quantity", intent.quantity or 1))
    if not intent.ids and _current_lines(view) is None:
        return call(view, "get_cart", {})
    target = _target(view, intent, from_cart=True)
    if target is None:
        return _missing_line(view, intent)
    verb = "Removed" if quantity == 0 else "Updated"
    return _change_cart(view, target, lambda _old: quantity, verb)


def _remove(view: ConversationView, intent: Intent) -> Step:
    fresh = view.called("get_cart")
    if fresh is None and view.called("update_cart") is None:
        address = address_or_step(view, "get_addresses")
        if not isinstance(address, str):
            return address
        return call(view, "get_cart", {})
    target = _target(view, intent, from_cart=True)
    if target is None:
        return _missing_line(view, intent)
    return _change_cart(view, target, lambda _old: 0, "Removed")


def _view_cart(view: ConversationView, intent: Intent) -> Step:
    done = view.called("get_cart")
    if done is None:
        return call(view, "get_cart", {})
    return Finish(say.cart_reply(done.data))


def _clear_cart(view: ConversationView, intent: Intent) -> Step:
    """Empty the shared Instamart cart (asked for with the shop-switch question's Clear)."""
    done = view.called("clear_cart")
    if done is None:
        return call(view, "clear_cart", {})
    if not done.ok:
        return Finish(f"I couldn't clear the cart: {done.error}")
    return Finish("Done: your Instamart cart is empty now. What would you like?")


def _checkout(view: ConversationView, intent: Intent) -> Step:
    """Read the cart, then ask the person to approve the exact checkout call (never call it)."""
    address = address_or_step(view, "get_addresses")
    if not isinstance(address, str):
        return address
    cart = view.called("get_cart")
    if cart is None:
        return call(view, "get_cart", {}, say="Let me check your cart first.")
    if not cart.data.get("items"):
        return Finish("Your cart is empty, so there's nothing to order yet.")
    arguments = {"addressId": address, "paymentMethod": "COD"}
    return ask_approval(view, "checkout", arguments, say.order_review(cart.data))


def _confirm(view: ConversationView, intent: Intent) -> Step:
    """Typed words never place an order: only the app's Confirm dialog can."""
    return Finish(
        "I can't place an order from a message. Only the Confirm button in the app's "
        "dialog can. Say “place the order” and I'll ask for it."
    )


def _cancel(view: ConversationView, intent: Intent) -> Step:
    return Finish("Okay, I won't place the order. Your cart stays as it is.")


def _change_cart(
    view: ConversationView, target: dict[str, Any], new_quantity: Callable[[int], int], verb: str
) -> Step:
    """Send the full cart with one line changed (update_cart replaces the whole cart)."""
    address = address_or_step(view, "get_addresses")
    if not isinstance(address, str):
        return address
    if updated := view.called("update_cart"):
        return Finish(_after_update(updated.data, target, verb))
    lines = _current_lines(view)
    if lines is None:
        return call(view, "get_cart", {}, say="Let me check what's in your cart first.")
    old = next((line["quantity"] for line in lines if line["spinId"] == target["spinId"]), 0)
    others = [line for line in lines if line["spinId"] != target["spinId"]]
    wanted = new_quantity(old)
    if wanted > 0:
        others.append({**target, "quantity": wanted})
    items = [{k: v for k, v in line.items() if k != "name" and v is not None} for line in others]
    return call(view, "update_cart", {"selectedAddressId": address, "items": items})


def _current_lines(view: ConversationView) -> Lines | None:
    """The cart as the latest cart result says (None when the chat has none yet)."""
    latest = view.latest(*_CART_TOOLS)
    if latest is None:
        return None
    return [] if latest.name == "checkout" else say.cart_lines(latest.data)


def _target(
    view: ConversationView, intent: Intent, from_cart: bool = False
) -> dict[str, Any] | None:
    """The product line meant: card ids, else a position or name in results or the cart."""
    if intent.ids.get("spinId"):
        ids = intent.ids
        return {"spinId": ids["spinId"], "skuId": ids.get("skuId"), "name": ids.get("name", "")}
    if from_cart:
        # The cart as read this turn (before any change this turn made), else the latest.
        read = view.called("get_cart")
        lines = say.cart_lines(read.data) if read else (_current_lines(view) or [])
        enough = math.ceil(len(intent.name_words) / 2)
        if not intent.name_words and intent.position is None and len(lines) == 1:
            return dict(lines[0])  # "make it 3" with one line in the cart
        known = _product_words(view)
        found = en.pick(lines, intent.position) or en.best_match(
            intent.name_words, lines, lambda line: known.get(line["spinId"], line["name"]), enough
        )
        return dict(found) if found else None
    search = view.latest("search_products")
    if search is None:
        return None
    cap = find.budget(view.user_texts[search.turn], search.data)
    # In the cards' order (ranked against the search), so "the first one" is the first card.
    shown = say.shown_products(search.data, cap, str(search.input.get("query") or ""))
    shown = diet_first(view.diet, shown, product_item)  # flagged cards are last on screen too
    every = list(search.data.get("products") or [])
    product = en.pick(shown, intent.position)
    if product is None and intent.name_words:
        enough = math.ceil(len(intent.name_words) / 2)
        product = en.best_match(
            intent.name_words, shown + every, lambda p: p["displayName"], enough
        )
    if product is None and intent.position is None and not intent.name_words and shown:
        product = shown[0]  # "add it" right after a search means the top result
    variation = say.buyable(product, en.pack_size(intent.phrase)) if product else None
    if product is None or variation is None:
        return None
    return {
        "spinId": variation["spinId"],
        "skuId": variation.get("skuId"),
        "name": product["displayName"],
    }


def _product_words(view: ConversationView) -> dict[str, str]:
    """spinId → name and kind of product, from every search so far."""
    known: dict[str, str] = {}
    for search in view.calls:
        if search.name != "search_products" or not search.ok:
            continue
        for product in search.data.get("products") or []:
            words = say.product_words(product)
            for variation in product.get("variations") or []:
                known[str(variation.get("spinId"))] = words
    return known


def _after_update(data: dict[str, Any], target: dict[str, Any], verb: str) -> str:
    line = next((i for i in data.get("items") or [] if i.get("spinId") == target["spinId"]), None)
    name = target.get("name") or (say.item_name(line) if line else "that item")
    capped = say.capped_note(data, target["spinId"])
    if verb == "Removed":
        opening = f"Removed {name}. " if line is None else f"{name} is still in the cart. "
    elif line is None:
        why = capped or f"The cart update didn't include {name}; it may be out of stock. "
        return f"{why.strip()}\n{say.cart_reply(data)}"
    else:
        opening = f"{verb}: {line['quantity']} × {name}. {capped}"
    return say.cart_reply(data, opening)


def _missing_line(view: ConversationView, intent: Intent) -> Finish:
    latest = view.latest(*_CART_TOOLS)
    what = f"“{intent.phrase}”" if intent.phrase else "that"
    cart = (
        say.cart_reply(latest.data)
        if latest and latest.name != "checkout"
        else "Your cart is empty."
    )
    return Finish(f"I don't see {what} in your cart. {cart}")


_HANDLERS: dict[str, Handler] = {
    "search": find.search,
    "routine": find.routine,
    "add": _add,
    "choose": _add,
    "set_quantity": _set_quantity,
    "remove": _remove,
    "view_cart": _view_cart,
    "clear_cart": _clear_cart,
    "checkout": _checkout,
    "confirm": _confirm,
    "cancel": _cancel,
    "reorder": reorder_instamart,
}
