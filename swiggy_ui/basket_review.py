"""A shopping list's basket review in the chat: one row per wanted thing (the best match,
two alternatives to pick instead, the quantity), unmatched lines said plainly, and one
Add all that writes the cart once, as a card action through the chat, the way "Order
again" does: the chat records it and the cart panel follows. Nothing is added before.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from swiggy_core.basket import CART_TOOL, cart_arguments
from swiggy_core.basket_list import MAX_PACKS
from swiggy_core.basket_records import BasketChoice, BasketPick, BasketReview, BasketRow
from swiggy_core.basket_turn import list_answer, photo_answer
from swiggy_core.errors import ErrorCode, SwiggyAssistantError
from swiggy_core.formatting import rupees
from swiggy_core.models import CardAction
from swiggy_core.reorder_reads import current_cart
from swiggy_core.saved_addresses import Reader
from swiggy_core.turn.handle import TurnHandle
from swiggy_core.turn.session import ChatSession
from swiggy_core.verticals import Vertical
from swiggy_ui import state
from swiggy_ui.chat_input import ShopList
from swiggy_ui.orders_view import shop_reader
from swiggy_ui.runtime import Runtime
from swiggy_ui.safe_text import plain

ADD_ALL_LABEL = "Add all"
_UNREADABLE_CART = "Your cart could not be read just now, so nothing was added. Try again."


def send_list(
    runtime: Runtime, vertical: Vertical, session: ChatSession, shop_list: ShopList
) -> TurnHandle:
    """Store the person's list (or photo) and answer it with its basket review."""
    read = shop_reader(runtime, vertical)
    address = state.active_address()
    where = address.address_id if address else None
    photo = shop_list.photo
    if photo is None:
        answer = list_answer(read, vertical, shop_list.wanted, where, shop_list.source)
    else:
        model = session.hooked_setup().model
        lines = lambda found: list_answer(read, vertical, found, where, "photo")  # noqa: E731
        answer = photo_answer(session.client, model, photo, lines)
    return session.send_answered(shop_list.message, answer)


def drawer(runtime: Runtime, vertical: Vertical) -> Callable[[BasketReview, str, bool], None]:
    """Draws a stored review with this shop's reads behind its Add all."""

    def draw(review: BasketReview, key: str, added: bool) -> None:
        render_review(review, vertical, key, shop_reader(runtime, vertical), added=added)

    return draw


def _heading(lines: int, matched: int) -> str:
    """ "Your list: 4 lines, 3 matched" (or "all matched", "none matched")."""
    found = (
        "all matched" if matched == lines else f"{matched} matched" if matched else "none matched"
    )
    return f"Your list: {lines} line{'s' if lines != 1 else ''}, {found}"


def render_review(
    review: BasketReview, vertical: Vertical, key: str, read: Reader, *, added: bool = False
) -> None:
    """The card: rows, the unmatched notice, and Add all (off when nothing matched, and
    once this list was added)."""
    base = f"basket-{vertical.id}-{key}"
    with st.container(border=True, key=base):
        st.markdown(f"**{_heading(len(review.rows), len(review.matched))}**")
        if added:
            st.caption(":material/check_circle: You added this list to your cart.")
        else:
            st.caption(
                "Nothing from this list is in your cart yet. Change a pick or a quantity, "
                "then Add all."
            )
        rows = enumerate(review.rows)
        choices = [_row(row, f"{base}-{index}", done=added) for index, row in rows]
        if review.unmatched:
            names = ", ".join(plain(row.wanted.text) for row in review.unmatched)
            st.warning(
                f"No match in stock here for: {names}. Try other words for "
                f"{'it' if len(review.unmatched) == 1 else 'them'} in the chat. "
                f"({ErrorCode.LIST_UNMATCHED.value})",
                icon=":material/search_off:",
            )
        chosen = [choice for choice in choices if choice is not None and choice.quantity > 0]
        pressed = st.button(
            ADD_ALL_LABEL,
            key=f"{base}-add",
            type="primary",
            icon=":material/add_shopping_cart:",
            disabled=added or not chosen,
            use_container_width=True,
        )
    if pressed:
        _add_all(read, vertical, review, chosen, key)
        st.rerun()  # the chat sends the queued cart write


def _row(row: BasketRow, key: str, *, done: bool) -> BasketChoice | None:
    """One wanted line: its pick and quantity (None when nothing matched)."""
    wanted = plain(row.wanted.text)
    if row.best is None:
        st.markdown(f":material/block: ~~{wanted}~~ · no match in stock")
        return None
    what, how_many = st.columns([4, 1], vertical_alignment="bottom")
    picks = row.choices
    index = what.selectbox(
        wanted,
        range(len(picks)),
        format_func=lambda at: _pick_text(picks[at]),
        key=f"{key}-pick",
        disabled=done,
    )
    pick = picks[index or 0]
    cap = min(pick.max_quantity or MAX_PACKS, MAX_PACKS)
    quantity = how_many.number_input(
        "How many",
        min_value=0,
        max_value=cap,
        value=min(row.wanted.quantity, cap),
        step=1,
        key=f"{key}-qty",
        disabled=done,
    )
    return BasketChoice(pick=pick, quantity=int(quantity))


def _pick_text(pick: BasketPick) -> str:
    """ "Amul Taaza Toned Milk · 500 ml · ₹28" """
    parts = [pick.name, pick.pack, rupees(pick.price) if pick.price is not None else None]
    return " · ".join(part for part in parts if part)


def _add_all(
    read: Reader, vertical: Vertical, review: BasketReview, chosen: list[BasketChoice], key: str
) -> None:
    """Queue the one cart write for the chat: the chosen packs merged with the cart as the
    server holds it now (read here, so nothing in it is lost)."""
    address = state.active_address()
    address_id = (address.address_id if address else None) or review.address_id or ""
    try:
        current = current_cart(read, vertical.id)
    except SwiggyAssistantError:
        state.queue_toast(_UNREADABLE_CART, icon=":material/cloud_off:")
        return
    arguments = cart_arguments(address_id, current, chosen)
    count = sum(choice.quantity for choice in chosen)
    label = f"Add all: {count} item{'s' if count != 1 else ''} from your list"
    ids = {"cart_tool": CART_TOOL, "arguments": arguments, "source": "list", "review": key}
    state.queue_action(CardAction(kind="reorder", label=label, ids=ids))
