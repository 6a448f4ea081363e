"""The cart panel in a shop page's sidebar: the cart as the conversation left it.

Derived from the stored messages on every run, so it changes as soon as a cart result
arrives and its buttons always act on the current cart (see `cart_actions`). It shows
each line with − / + / remove, the server's bill as reported, the address the order
goes to, and Place order (which asks for approval first; nothing is spent here).
A phone keeps the sidebar folded away: the cart bar under the chat input (`cart_bar`)
says what the cart holds and slides this panel in.
"""

from __future__ import annotations

import streamlit as st

from swiggy_core.cart import CartState
from swiggy_core.formatting import rupees
from swiggy_core.models import CardAction, ChatMessage
from swiggy_core.parsers import CartLine
from swiggy_core.verticals import Vertical
from swiggy_ui import state
from swiggy_ui.cards.cart import unit_price_text
from swiggy_ui.cards.rows import bill_rows
from swiggy_ui.cart_actions import checkout_action, quantity_action
from swiggy_ui.cart_bar import render_cart_bar
from swiggy_ui.cart_switch import ask_about_shared_cart
from swiggy_ui.nutrition_panel import render_nutrition
from swiggy_ui.runtime import Runtime
from swiggy_ui.safe_text import plain

EMPTY_TEXT = "Your cart is empty. Add something from the chat."
ASKED_TEXT = "Items from another shop are in the cart: keep them to see them here."
HELD_TEXT = "These items are in your UPI order."
CASH_WORDS = frozenset({"cash", "cod", "cash on delivery"})
# Shops whose results never hold a cart (a table booking has none).
_CART_SERVERS = frozenset({"instamart", "food"})


def render_cart_panel(runtime: Runtime, vertical: Vertical, messages: list[ChatMessage]) -> None:
    """The sidebar cart of `vertical`, its bar under the input, the shared-cart question.

    Everything comes from `messages` (the stored chat); `runtime` is part of the page's
    call so the panel can grow without changing it.
    """
    if vertical.server_key not in _CART_SERVERS:
        return
    cart = state.current_cart(messages, vertical.id)  # derived once per history read
    asked = ask_about_shared_cart(vertical, cart)
    # While a reply runs the cart may be changing: nothing acts on it until it has landed.
    watching = state.vertical_chat(vertical.id).watching
    # While the shared-cart question is open this chat's lines may not be the server's:
    # shown, but nothing acts on them (an update would replace the cart with stale lines).
    # While a UPI order of these lines waits for its payment, nothing acts on them either.
    busy = asked or cart.held_for_payment or (watching is not None and not watching.finished)
    render_cart_bar(vertical, cart, busy=busy)  # under the input: a phone folds the sidebar
    with st.sidebar, st.container(border=True, key=f"cart-panel-{vertical.id}"):
        _title(cart)
        if cart.is_empty:
            st.caption(ASKED_TEXT if asked else EMPTY_TEXT)
            return
        for line in cart.items:
            _line(cart, line, key=f"cart-{vertical.id}-{line.key}", busy=busy)
        st.divider()
        bill_rows(cart.bill, cart.to_pay)
        render_nutrition(vertical, cart)
        _payment_note(cart.payment_methods)
        _address()
        if cart.held_for_payment:  # in place of Place order: never ordered twice
            st.caption(f":material/hourglass_top: {HELD_TEXT}")
            return
        st.button(
            "Place order",
            key=f"cart-{vertical.id}-checkout",
            type="primary",
            icon=":material/shopping_bag:",
            width="stretch",
            disabled=busy,
            on_click=state.queue_action,
            args=(checkout_action(),),
        )


def _title(cart: CartState) -> None:
    title = "Your cart" + (f" · {plain(cart.restaurant_name)}" if cart.restaurant_name else "")
    count = f" ({cart.item_count})" if cart.item_count else ""
    st.markdown(f":material/shopping_cart: **{title}**{count}")


def _line(cart: CartState, line: CartLine, *, key: str, busy: bool) -> None:
    """Name and amount on one row, then − quantity + remove.

    The amount sits beside the name, which wraps, rather than after four buttons: in a
    300 px sidebar that row ran out of room and cut "₹108" to "₹10".
    """
    size = f" · {plain(line.quantity_description)}" if line.quantity_description else ""
    with st.container(horizontal=True, wrap=False, gap="xsmall"):
        st.markdown(f"{plain(line.name)}{size}", width="stretch")
        st.markdown(rupees(line.line_total), width="content")
    each = unit_price_text(line) if line.quantity != 1 or line.mrp else None
    if each:
        st.caption(each)
    if not line.in_stock:
        st.badge("Out of stock", color="gray")
    with st.container(horizontal=True, vertical_alignment="center", wrap=False, gap="xsmall"):
        _step("−", f"{key}-dec", quantity_action(cart, line, line.quantity - 1), busy)
        st.markdown(f"**{line.quantity}**", width="content")
        _step("+", f"{key}-inc", quantity_action(cart, line, line.quantity + 1), busy)
        st.button(
            "",
            key=f"{key}-remove",
            icon=":material/delete:",
            help=f"Remove {line.name}",
            type="tertiary",
            disabled=busy,
            on_click=state.queue_action,
            args=(quantity_action(cart, line, 0),),
        )


def _step(label: str, key: str, action: CardAction, busy: bool) -> None:
    st.button(label, key=key, disabled=busy, on_click=state.queue_action, args=(action,))


def _payment_note(methods: list[str]) -> None:
    """Say so when the server does not offer cash on delivery (the only way we pay)."""
    if methods and not {method.strip().lower() for method in methods} & CASH_WORDS:
        st.warning(
            "Cash on delivery is not offered for this cart, and this app pays no other way.",
            icon=":material/payments:",
        )


def _address() -> None:
    address = state.active_address()
    if address is None:
        st.caption(":material/location_on: No delivery address chosen yet: ask for yours.")
        return
    label = plain(address.label or "Address")
    st.caption(f":material/location_on: Deliver to **{label}** · {plain(address.address)}")
