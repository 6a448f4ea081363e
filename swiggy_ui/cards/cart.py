"""The cart card: lines with − / +, the price charged (MRP struck), the server's bill,
what the server dropped or capped, and Place order."""

from __future__ import annotations

import streamlit as st

from swiggy_core.actions import ActionKind, CardAction
from swiggy_core.formatting import discount_percent, rupees
from swiggy_core.parsers import CartLine, CartResult
from swiggy_ui.cards.context import CardContext
from swiggy_ui.cards.rows import bill_rows
from swiggy_ui.safe_text import plain
from swiggy_ui.state import queue_action


def render_cart(cart: CartResult, ctx: CardContext, *, with_checkout: bool = True) -> None:
    with st.container(border=True):
        title = "Your cart" + (f" · {plain(cart.restaurant_name)}" if cart.restaurant_name else "")
        st.markdown(f"**{title}**")
        if not cart.items:
            st.caption(plain(cart.message) or "Your cart is empty.")
            return
        for index, line in enumerate(cart.items):
            _line_row(line, f"{ctx.key}-l{index}")
        for notice in cart.notices:
            st.warning(plain(notice), icon=":material/info:")
        st.divider()
        bill_rows(cart.bill, cart.to_pay)
        _payment_note(cart.payment_methods)
        if with_checkout:
            st.button(
                "Place order",
                key=f"{ctx.key}-checkout",
                type="primary",
                icon=":material/shopping_bag:",
                on_click=queue_action,
                args=(CardAction(kind="request_checkout", label="Place the order", ids={}),),
            )


CASH_WORDS = frozenset({"cash", "cod", "cash on delivery"})


def _payment_note(methods: list[str]) -> None:
    """Say so when the server does not offer cash on delivery (the only way we pay)."""
    if methods and not {method.strip().lower() for method in methods} & CASH_WORDS:
        st.warning(
            "Cash on delivery is not offered for this cart, and this app pays no other way.",
            icon=":material/payments:",
        )


def unit_price_text(line: CartLine) -> str | None:
    """`₹27 each ~~₹29~~`: the price charged, with the MRP struck when it is higher."""
    if line.unit_price is None:
        return None
    text = f"{rupees(line.unit_price)} each"
    if discount_percent(line.unit_price, line.mrp):
        text += f" ~~{rupees(line.mrp)}~~"
    return text


def _line_row(line: CartLine, key: str) -> None:
    name, minus, qty, plus, total = st.columns([5, 1, 1, 1, 2], vertical_alignment="center")
    size = f" · {plain(line.quantity_description)}" if line.quantity_description else ""
    name.markdown(f"{plain(line.name)}{size}")
    each = unit_price_text(line) if line.quantity != 1 or line.mrp else None
    if each:
        name.caption(each)
    if not line.in_stock:
        name.badge("Out of stock", color="gray")
    minus.button("−", key=f"{key}-dec", on_click=queue_action, args=(_qty(line, -1),))
    qty.markdown(f"**{line.quantity}**")
    plus.button("+", key=f"{key}-inc", on_click=queue_action, args=(_qty(line, +1),))
    total.markdown(rupees(line.line_total))


def _qty(line: CartLine, change: int) -> CardAction:
    quantity = max(0, line.quantity + change)
    ids = {
        "name": line.name,
        "quantity": quantity,
        "spinId": line.spin_id,
        "skuId": line.sku_id,
        "menu_item_id": line.menu_item_id,
        "restaurantId": line.restaurant_id,
    }
    kind: ActionKind = "remove_from_cart" if quantity == 0 else "set_quantity"
    label = (
        f"Remove {line.name} from my cart"
        if quantity == 0
        else f"Change {line.name} to {quantity} in my cart"
    )
    return CardAction(kind=kind, label=label, ids={k: v for k, v in ids.items() if v is not None})
