"""NutriCart and StyleKit share one Instamart cart: ask before one shop builds on the other's.

Each shop's chat knows only the cart results it saw. The session remembers, per server,
which shop last saw the cart change (and what it held); arriving in another shop on the
same server with that cart not empty asks: keep the items (the chat reads the cart, so
the panel and its buttons see them) or clear them.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from swiggy_core.cart import CartState
from swiggy_core.verticals import VERTICALS, Vertical
from swiggy_ui import state
from swiggy_ui.cart_actions import clear_action, keep_action

Signature = tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class SharedCart:
    """The newest cart this session saw on one server, and the shop that saw it."""

    vertical_id: str
    shop: str
    count: int
    signature: Signature


def signature(cart: CartState) -> Signature:
    return tuple((line.key, line.quantity) for line in cart.items)


def ask_about_shared_cart(vertical: Vertical, cart: CartState) -> bool:
    """Note this shop's cart; ask when another shop on the same server left items in it.

    True while the question is open (this chat's cart is not the server's then).
    """
    if not any(
        other.server_key == vertical.server_key and other.id != vertical.id
        for other in VERTICALS.values()
    ):
        return False
    newest = _note(vertical, cart)
    if newest is None or newest.vertical_id == vertical.id:
        return False
    if newest.signature == signature(cart) or _settled(vertical) == newest.signature:
        return False
    if newest.count == 0:
        if cart.is_empty:
            return False
        _emptied(vertical, newest)  # this chat's lines are gone at Swiggy's end
    else:
        _ask(vertical, newest)
    return True


def _emptied(vertical: Vertical, newest: SharedCart) -> None:
    key = f"shared-cart-{vertical.id}"
    with st.container(border=True, key=key):
        st.markdown(
            f":material/remove_shopping_cart: Your Instamart cart was cleared in {newest.shop}: "
            "show it here before changing it."
        )
        _settle_button(
            f"{key}-refresh", "Show my cart", ":material/refresh:", vertical, newest, "keep"
        )


def _note(vertical: Vertical, cart: CartState) -> SharedCart | None:
    """Remember this shop's cart as the newest when it changed here (or nothing is known)."""
    shared_key = f"shared_cart::{state.backend()}::{vertical.server_key}"
    seen_key = f"cart_seen::{state.backend()}::{vertical.id}"
    newest: SharedCart | None = st.session_state.get(shared_key)
    mine = signature(cart)
    seen = st.session_state.get(seen_key)
    if seen != mine:
        st.session_state[seen_key] = mine
        # A change seen in this session is the newest; a first look only fills a blank.
        if seen is not None or newest is None or newest.count == 0:
            newest = SharedCart(vertical.id, vertical.display_name, cart.item_count, mine)
            st.session_state[shared_key] = newest
    return newest


def _settled_key(vertical: Vertical) -> str:
    return f"cart_settled::{state.backend()}::{vertical.id}"


def _settled(vertical: Vertical) -> Signature | None:
    settled: Signature | None = st.session_state.get(_settled_key(vertical))
    return settled


def _ask(vertical: Vertical, newest: SharedCart) -> None:
    items = f"{newest.count} item" + ("" if newest.count == 1 else "s")
    key = f"shared-cart-{vertical.id}"
    with st.container(border=True, key=key):
        st.markdown(
            f":material/shopping_cart: Your Instamart cart has {items} from {newest.shop} "
            "— keep them or clear?"
        )
        with st.container(horizontal=True):
            _settle_button(f"{key}-keep", "Keep them", ":material/check:", vertical, newest, "keep")
            _settle_button(f"{key}-clear", "Clear", ":material/delete:", vertical, newest, "clear")


def _settle_button(
    key: str, label: str, icon: str, vertical: Vertical, newest: SharedCart, choice: str
) -> None:
    """A button that settles the shared cart with `choice` (keep or clear)."""
    st.button(label, key=key, icon=icon, on_click=_settle, args=(vertical, newest, choice))


def _settle(vertical: Vertical, newest: SharedCart, choice: str) -> None:
    """Keep: this chat reads the cart. Clear: the clear action."""
    if choice == "clear":
        action = clear_action()
        # This chat saw no items, so its derived cart does not change when the clear lands:
        # note the clear here, so the other shop's stale lines wait for a fresh read.
        shared_key = f"shared_cart::{state.backend()}::{vertical.server_key}"
        st.session_state[shared_key] = SharedCart(vertical.id, vertical.display_name, 0, ())
    else:
        action = keep_action(newest.count, newest.shop)
    st.session_state[_settled_key(vertical)] = newest.signature
    state.queue_action(action)
