"""The cart in the chat: one compact line with the change and the total.

The whole cart (lines with − / +, the server's bill, the address, Place order) lives in
the cart panel (`swiggy_ui.cart_panel`); repeating it after every change made long chats
unreadable. What the server dropped or capped is still said here, where it happened.
"""

from __future__ import annotations

import streamlit as st

from swiggy_core.formatting import discount_percent, rupees
from swiggy_core.parsers import CartLine, CartResult
from swiggy_ui.cards.context import CardContext
from swiggy_ui.cart_actions import change_text
from swiggy_ui.safe_text import plain

CART_ICON = ":material/shopping_cart:"


def render_cart(cart: CartResult, ctx: CardContext) -> None:
    """The change and the total on one line (greyed once a newer cart follows)."""
    text = plain(change_text(ctx.previous_cart, cart))
    if not cart.items and cart.message:
        text += f" · {plain(cart.message)}"
    if ctx.live:
        st.markdown(f"{CART_ICON} {text}")
    else:
        st.caption(f"{CART_ICON} {text}")
    for notice in cart.notices:
        if ctx.live:
            st.warning(plain(notice), icon=":material/info:")
        else:
            st.caption(plain(notice))


def unit_price_text(line: CartLine) -> str | None:
    """`₹27 each ~~₹29~~`: the price charged, with the MRP struck when it is higher."""
    if line.unit_price is None:
        return None
    text = f"{rupees(line.unit_price)} each"
    if discount_percent(line.unit_price, line.mrp):
        text += f" ~~{rupees(line.mrp)}~~"
    return text
