""" "My usual" offline: rebuild a past order as the real model is told to (see the profiles).

The first ask reads the newest past order and shows what goes back in: Instamart lines
matched to the products sold now (unavailable and re-priced ones named, old → new), or
Food's `reorderMeta` items. "Add my usual to the cart" (or the Orders view's reorder card
action) then writes the cart once.
"""

from __future__ import annotations

from typing import Any

from swiggy_core.actions import suggestion_markup
from swiggy_core.parsers import CartLine
from swiggy_core.parsers.products import parse_products
from swiggy_core.past_orders import (
    FOOD_ORDERS_TOOL,
    INSTAMART_DETAILS_TOOL,
    INSTAMART_ORDERS_TOOL,
    ORDERS_ASKED,
    PastOrder,
    food_orders,
    instamart_orders,
    with_paid_prices,
)
from swiggy_core.reorder import ReorderLine, ReorderPlan, plan_food, plan_instamart
from swiggy_sandbox.connector import Finish, Step
from swiggy_sandbox.planner import food_replies
from swiggy_sandbox.planner import instamart_replies as say
from swiggy_sandbox.planner import text as en
from swiggy_sandbox.planner.common import address_or_step, call
from swiggy_sandbox.planner.intents import Intent
from swiggy_sandbox.planner.view import ConversationView

ADD_USUAL = "Add my usual to the cart"
_NO_ORDERS = "You have no past orders here yet, so there's nothing to order again."


def reorder_instamart(view: ConversationView, intent: Intent) -> Step:
    """Orders → (details) → one search per line → review; or, asked to add, one write."""
    if written := _card_write(view, intent):
        return written
    address = address_or_step(view, "get_addresses")
    if not isinstance(address, str):
        return address
    listed = view.called(INSTAMART_ORDERS_TOOL)
    if listed is None:
        return call(view, INSTAMART_ORDERS_TOOL, {"count": ORDERS_ASKED}, say=_LOOKING)
    order = _newest(instamart_orders(listed.data))
    if order is None:
        return Finish(_NO_ORDERS)
    details = view.called(INSTAMART_DETAILS_TOOL)
    if details is None and view.offers(INSTAMART_DETAILS_TOOL):
        return call(view, INSTAMART_DETAILS_TOOL, {"orderId": order.order_id})
    order = with_paid_prices(order, details.data) if details else order
    for line in order.lines:
        if _search_for(view, line.name) is None:
            return call(view, "search_products", {"addressId": address, "query": line.name})
    products = [p for line in order.lines for p in _products(view, line.name)]
    plan = plan_instamart(order, products)
    if not intent.ids.get("add"):
        return Finish(_review(plan, order))
    if not plan.addable:
        return Finish("None of those lines can be ordered right now, so I added nothing.")
    if updated := view.called("update_cart"):
        return Finish(say.cart_reply(updated.data, "Added your usual. "))
    cart = view.called("get_cart")
    if cart is None:
        return call(view, "get_cart", {}, say="Let me check what's in your cart first.")
    current = [CartLine(name=c["name"], **_ids(c)) for c in say.cart_lines(cart.data)]
    return call(view, "update_cart", plan.cart_arguments(address, current))


def reorder_food(view: ConversationView, intent: Intent, address: str) -> Step:
    """Food orders → review of the newest reorderable one; or, asked to add, one write."""
    if written := _card_write(view, intent):
        return written
    listed = view.called(FOOD_ORDERS_TOOL)
    if listed is None:
        return call(view, FOOD_ORDERS_TOOL, {"addressId": address}, say=_LOOKING)
    reorderable = [order for order in food_orders(listed.data) if order.reorderable]
    order = _newest(reorderable)
    if order is None:
        return Finish(_NO_ORDERS)
    plan = plan_food(order)
    if not intent.ids.get("add"):
        return Finish(_review(plan, order, _replaces_note(view, plan)))
    if view.called("update_food_cart") is None:
        return call(view, "update_food_cart", plan.cart_arguments(address, []))
    if read := view.called("get_food_cart"):
        return Finish(food_replies.food_cart_reply(read.data, "Added your usual. "))
    return call(view, "get_food_cart", {"addressId": address})


_LOOKING = "Let me look up your last order."


def _card_write(view: ConversationView, intent: Intent) -> Step | None:
    """The Orders view's button (or a basket review's Add all): write the cart it reviewed,
    once, then show the cart."""
    tool, arguments = intent.ids.get("cart_tool"), intent.ids.get("arguments")
    if not isinstance(tool, str) or not isinstance(arguments, dict):
        return None
    done = view.called(tool)
    if done is None:
        return call(view, tool, arguments)
    if tool == "update_food_cart":
        if (read := view.called("get_food_cart")) is None:
            return call(view, "get_food_cart", {"addressId": arguments.get("addressId")})
        return Finish(food_replies.food_cart_reply(read.data, "Added your order again. "))
    # A basket review of a shopping list sends the same action, marked as a list's.
    added = (
        "Added your list. " if intent.ids.get("source") == "list" else "Added your order again. "
    )
    return Finish(say.cart_reply(done.data, added))


def _newest(orders: list[PastOrder]) -> PastOrder | None:
    """The newest delivered order, else the newest one (lists come newest first)."""
    done = [order for order in orders if not order.active and order.lines]
    return done[0] if done else next((order for order in orders if order.lines), None)


def _search_for(view: ConversationView, query: str) -> dict[str, Any] | None:
    found = (c for c in view.turn_calls() if c.name == "search_products")
    return next((c.data for c in found if c.input.get("query") == query), None)


def _products(view: ConversationView, query: str) -> list[Any]:
    parsed = parse_products(_search_for(view, query) or {}, view.vertical)
    return list(parsed.items) if parsed else []


def _ids(line: dict[str, Any]) -> dict[str, Any]:
    return {"spin_id": line["spinId"], "sku_id": line.get("skuId"), "quantity": line["quantity"]}


def _review(plan: ReorderPlan, order: PastOrder, note: str = "") -> str:
    """What goes back in, what changed price and what cannot, before anything is added."""
    where = f" from {order.shop_name}" if order.shop_name else ""
    when = f" ({order.placed[:10]})" if order.placed else ""
    lines = "\n".join(f"- {_line_text(line)}" for line in plan.lines)
    ask = suggestion_markup([ADD_USUAL]) if plan.addable else ""
    closing = "Shall I add them?" if plan.addable else "None of them can be ordered right now."
    return f"Your last order{where}{when}:\n{lines}\n\n{note}{closing}\n\n{ask}".strip()


def _line_text(line: ReorderLine) -> str:
    text = f"{line.quantity} × {line.name}"
    if line.status == "unavailable":
        return f"{text}: can't be added ({(line.note or 'unavailable').lower()})"
    if line.status == "repriced":
        text += f": now {en.rupees(line.new_price)} (was {en.rupees(line.old_price)})"
    elif line.new_price is not None:
        text += f" · {en.rupees(line.new_price)}"
    return f"{text} ({line.note.lower()})" if line.note else text


def _replaces_note(view: ConversationView, plan: ReorderPlan) -> str:
    """A food cart holds one restaurant: say so when another one's dishes are in it."""
    latest = view.latest("get_food_cart", "update_food_cart")
    restaurant = food_replies.cart_restaurant(latest.data) if latest else {}
    items = food_replies.food_cart(latest.data).get("items") if latest else None
    if items and str(restaurant.get("id")) != str(plan.restaurant_id):
        return f"This replaces your cart from {restaurant.get('name') or 'another restaurant'}. "
    return ""
