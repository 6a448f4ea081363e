"""A shop's past orders: "Your orders" in the page header opens them, "Order again" shows
what goes back in (unavailable and re-priced lines first), and "Add to cart" writes the
cart once, through the chat, as a card action: the chat records it and the cart panel
follows. Placing the order is then the usual Place order and confirmation."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import streamlit as st

from swiggy_core.errors import SwiggyAssistantError
from swiggy_core.formatting import day_label, rupees
from swiggy_core.models import CardAction
from swiggy_core.parsers import CartLine
from swiggy_core.parsers.info_fields import status_words
from swiggy_core.past_orders import PastOrder
from swiggy_core.reorder import ReorderLine, ReorderPlan
from swiggy_core.reorder_reads import current_cart, is_food, past_orders, review
from swiggy_core.saved_addresses import Reader
from swiggy_core.verticals import Vertical
from swiggy_ui import state
from swiggy_ui.runtime import Runtime
from swiggy_ui.safe_text import plain

ORDERS_LABEL = "Your orders"
AGAIN_LABEL = "Order again"
ADD_LABEL = "Add to cart"
_SHOWN = 10
_UNREADABLE = "Your orders could not be read just now. Try again in a moment."
NOT_DELIVERED_NOTE = "You can order this again once it has been delivered."
_NO_ADDRESS = "Choose where to deliver first (Deliver to, at the top of the page)."


@dataclass
class OrdersState:
    """The dialog of one shop: open or not, the orders read, the order under review."""

    open: bool = False
    orders: list[PastOrder] | None = None
    plan: ReorderPlan | None = None
    chosen: PastOrder | None = None
    problem: str | None = None


def render_orders_button(vertical: Vertical) -> None:
    """The header's "Your orders" button (not for table bookings)."""
    if vertical.books_tables:
        return
    # A callback, not the button's value: a button outside the dialog's fragment can read
    # as pressed again on the full run that closes the dialog.
    st.button(
        ORDERS_LABEL,
        key=f"orders-{vertical.id}",
        icon=":material/receipt_long:",
        on_click=_opened,
        args=(_state(vertical),),
    )


def _opened(view: OrdersState) -> None:
    view.open, view.orders, view.plan, view.chosen, view.problem = True, None, None, None, None


def render_orders_dialog(runtime: Runtime, vertical: Vertical) -> None:
    """The orders dialog while it is open (drawn outside the header's columns)."""
    if not vertical.books_tables and _state(vertical).open:
        _dialog(runtime, vertical)


def _state(vertical: Vertical) -> OrdersState:
    key = f"orders::{state.backend()}::{vertical.id}"
    if key not in st.session_state:
        st.session_state[key] = OrdersState()
    found: OrdersState = st.session_state[key]
    return found


def _closed(vertical_id: str) -> None:
    key = f"orders::{state.backend()}::{vertical_id}"
    if key in st.session_state:
        st.session_state[key].open = False


def _dismissed() -> None:
    """The dialog's × or Esc: it stays closed on the next run."""
    for key, value in st.session_state.items():
        if str(key).startswith("orders::") and isinstance(value, OrdersState):
            value.open = False


@st.dialog(ORDERS_LABEL, width="medium", on_dismiss=_dismissed)
def _dialog(runtime: Runtime, vertical: Vertical) -> None:
    view = _state(vertical)
    read = shop_reader(runtime, vertical)
    address = state.active_address()
    address_id = address.address_id if address else None
    if view.orders is None:
        view.orders = _guarded(view, lambda: past_orders(read, vertical, address_id)) or []
    if view.problem:
        st.warning(view.problem, icon=":material/cloud_off:")
    if view.plan is not None and view.chosen is not None:
        _review(vertical, view, read)
    elif is_food(vertical) and address_id is None:
        st.info(_NO_ADDRESS, icon=":material/location_on:")
    elif not view.orders:
        st.info(f"You have no past orders on {vertical.display_name} yet.", icon=":material/info:")
    else:
        _listing(vertical, view, read, address_id)


def shop_reader(runtime: Runtime, vertical: Vertical) -> Reader:
    """The app's own audited reads of this shop's server."""
    # The MCP client loads with the first read, not with the shop page's header.
    from swiggy_core.approval.shop_calls import ShopCalls
    from swiggy_core.mcp.manager import shared_manager

    setup = runtime.setup(vertical.id)
    conversation = runtime.conversation_id(vertical.id)
    return ShopCalls(runtime.user_id, vertical, setup, shared_manager(), conversation).read


_T = TypeVar("_T")


def _guarded(view: OrdersState, work: Callable[[], _T]) -> _T | None:
    """One read; a failure becomes the dialog's warning instead of a crash."""
    try:
        return work()
    except SwiggyAssistantError:  # an MCP call's failure is one too
        view.problem = _UNREADABLE
        return None


def _listing(vertical: Vertical, view: OrdersState, read: Reader, address_id: str | None) -> None:
    for order in (view.orders or [])[:_SHOWN]:
        with st.container(border=True, key=f"order-{vertical.id}-{order.order_id}"):
            st.markdown(_order_title(order))
            st.caption(plain(_items_text(order)))
            if not order.reorderable:
                st.caption(
                    NOT_DELIVERED_NOTE if order.active else "Swiggy doesn't offer this order again."
                )
            pressed = st.button(
                AGAIN_LABEL,
                key=f"again-{vertical.id}-{order.order_id}",
                icon=":material/replay:",
                disabled=not order.reorderable or not order.lines,
            )
        if pressed:
            _choose(vertical, view, read, order, address_id)
            st.rerun()  # the whole page redraws the dialog with the review


def _choose(
    vertical: Vertical, view: OrdersState, read: Reader, order: PastOrder, address_id: str | None
) -> None:
    """Review `order` against what the shop sells now (it needs the delivery address)."""
    if address_id is None:
        view.problem = _NO_ADDRESS
        return
    plan = _guarded(view, lambda: review(read, vertical, order, address_id))
    view.plan, view.chosen = plan, (order if plan else None)


def _order_title(order: PastOrder) -> str:
    """ "**Instamart · Indiranagar** · Fri 20 Nov · ₹312 · Delivered" (escaped)."""
    parts = [
        f"**{plain(order.shop_name or 'Order')}**",
        day_label(order.placed[:10]) if order.placed else None,
        rupees(order.total) if order.total is not None else None,
        plain(status_words(order.status) or "") or None,
    ]
    return " · ".join(part for part in parts if part)


def _items_text(order: PastOrder) -> str:
    return ", ".join(f"{line.quantity} × {line.name}" for line in order.lines)


def _review(vertical: Vertical, view: OrdersState, read: Reader) -> None:
    """What goes back in, line by line, before anything is added."""
    plan, order = view.plan, view.chosen
    assert plan is not None and order is not None
    st.markdown(f"**Order again from {plain(order.shop_name or vertical.display_name)}**")
    for line in plan.lines:
        st.markdown(_line_text(line))
    if plan.unavailable or plan.repriced:
        st.caption("Lines that can't be added are left out; changed prices are today's.")
    if plan.shop == "instamart":
        st.caption("What is in your cart now stays; these lines are added to it.")
    else:
        st.caption("A food cart holds one restaurant: this replaces your food cart.")
    add, back = st.columns(2)
    if back.button("Back to your orders", key=f"back-{vertical.id}", use_container_width=True):
        view.plan, view.chosen = None, None
        st.rerun()
    if add.button(
        ADD_LABEL,
        key=f"add-{vertical.id}",
        type="primary",
        icon=":material/add_shopping_cart:",
        disabled=not plan.addable,
        use_container_width=True,
    ):
        _add(view, plan, order, read)
        st.rerun()  # closed: the whole page runs and the chat sends the queued action


def _add(view: OrdersState, plan: ReorderPlan, order: PastOrder, read: Reader) -> None:
    """Queue the one cart write for the chat and close the dialog (a failed cart read
    stays in the dialog as its warning)."""
    action = _guarded(view, lambda: _cart_action(plan, order, read))
    if action is not None:
        state.queue_action(action)
        view.open, view.plan, view.chosen = False, None, None


def _line_text(line: ReorderLine) -> str:
    """One line of the review, with what changed said plainly."""
    text = f"{line.quantity} × {plain(line.name)}"
    if line.status == "unavailable":
        why = plain((line.note or "unavailable").lower())
        return f":material/block: ~~{text}~~ · can't be added ({why})"
    if line.status == "repriced":
        change = f"now {rupees(line.new_price)}, was {rupees(line.old_price)}"
        return f":material/sell: {text} · **{change}**"
    price = f" · {rupees(line.new_price)}" if line.new_price is not None else ""
    note = f" ({plain(line.note.lower())})" if line.note else ""
    return f":material/check_circle: {text}{price}{note}"


def _cart_action(plan: ReorderPlan, order: PastOrder, read: Reader) -> CardAction:
    """The card action that writes the whole cart once: Instamart's merged with the cart
    as the server holds it now (read here, so nothing in it is lost)."""
    address = state.active_address()
    address_id = (address.address_id if address else None) or ""
    current: list[CartLine] = []
    if plan.shop == "instamart":
        current = current_cart(read, "food")
    arguments = plan.cart_arguments(address_id, current)
    count = sum(line.quantity for line in plan.addable)
    ids = {"orderId": order.order_id, "cart_tool": plan.cart_tool, "arguments": arguments}
    label = f"Order again: {count} item{'s' if count != 1 else ''} from your past order"
    return CardAction(kind="reorder", label=label, ids=ids)
