"""Addresses, order and booking confirmations, status, info and raw results.

Order and booking confirmations are bordered containers headed by the app's badge: model
and tool text cannot draw either (its directives are escaped by `safe_text`), so a reply
that *says* "Order placed" never looks like this card. Their marks are Material icons, not
emoji: a browser without an emoji font would draw a missing-glyph box.
"""

from __future__ import annotations

import streamlit as st

from swiggy_core.formatting import date_time_label, price_known, rupees
from swiggy_core.parsers import (
    AddressesResult,
    AddressItem,
    BookingConfirmedResult,
    InfoResult,
    OrderPlacedResult,
    RawResult,
    StatusResult,
)
from swiggy_ui.banners import support_code
from swiggy_ui.cards.context import CardContext
from swiggy_ui.cards.empty import is_empty_search, render_empty_search
from swiggy_ui.cards.grid import card_grid
from swiggy_ui.safe_text import inline_code, plain
from swiggy_ui.state import active_address, set_active_address
from swiggy_ui.tracking_card import render_order_tracking

APP_BADGE = "Swiggy assistant · verified"
APP_BADGE_ICON = ":material/verified:"
ORDER_PLACED_TITLE = ":green[:material/check_circle: **Order placed**]"
TABLE_BOOKED_TITLE = ":green[:material/check_circle: **Table booked**]"


def render_addresses(result: AddressesResult, ctx: CardContext) -> None:
    current = active_address()
    current_id = current.address_id if current else None

    def card(item: AddressItem, key: str) -> None:
        st.markdown(f"**{plain(item.label) or 'Address'}**")
        st.caption(plain(item.address))
        if item.address_id and item.address_id == current_id:
            st.badge("Delivering here", color="green", icon=":material/check:")
        elif item.address_id:
            st.button(
                "Use this address", key=f"{key}-use", on_click=set_active_address, args=(item,)
            )

    card_grid(result.items, card, key=ctx.key)
    if result.has_more:
        total = f" of {result.total}" if result.total else ""
        st.caption(f"Showing {len(result.items)}{total} saved addresses: ask for more.")


def render_order_placed(result: OrderPlacedResult, ctx: CardContext) -> None:
    with st.container(border=True):
        app_badge()
        st.markdown(ORDER_PLACED_TITLE)
        ids = result.order_ids or [result.order_id]
        label = "Order ids" if len(ids) > 1 else "Order id"
        st.markdown(f"{label} {', '.join(inline_code(order_id) for order_id in ids)}")
        _facts(
            plain(result.status),
            rupees(result.amount) if price_known(result.amount) else None,
            plain(result.payment_method),
            f"ETA {plain(result.eta)}" if result.eta else None,
        )
        if result.failures:
            failed = "; ".join(plain(failure) for failure in result.failures)
            st.warning(f"{plain(result.message or '')} Not placed: {failed}".strip())
        render_order_tracking(ids, ctx.vertical, ctx.key)  # live while it is on its way
        st.caption("Orders cannot be cancelled once placed.")


def render_booking_confirmed(result: BookingConfirmedResult, ctx: CardContext) -> None:
    with st.container(border=True):
        app_badge()
        st.markdown(TABLE_BOOKED_TITLE)
        st.markdown(f"Booking id {inline_code(result.booking_id)}")
        _facts(
            plain(result.restaurant_name),
            plain(date_time_label(result.date_time)),  # "Mon 23 Nov, 8:00 PM"
            f"{result.guest_count} guests" if result.guest_count else None,
            plain(result.status),
        )


def app_badge() -> None:
    """The mark of the app's own confirmation cards (no model or tool text can draw it)."""
    st.badge(APP_BADGE, icon=APP_BADGE_ICON, color="green")


def _facts(*facts: str | None) -> None:
    """One caption line of the facts that are present (each already safe Markdown)."""
    present = [fact for fact in facts if fact]
    if present:
        st.caption(" · ".join(present))


def render_status(result: StatusResult, ctx: CardContext) -> None:
    if is_empty_search(result):
        render_empty_search(result, ctx.vertical)
    elif result.success:
        st.success(plain(result.message) or "Done.", icon=":material/check_circle:")
    else:
        st.warning(plain(result.message) or "That did not work.", icon=":material/error:")
        support_code(result.code)  # only the app's own codes (E-…), never a server's status


def render_info(result: InfoResult, ctx: CardContext) -> None:
    if is_empty_search(result):
        render_empty_search(result, ctx.vertical)
        return
    with st.container(border=True):
        if result.title:
            st.markdown(f"**{plain(result.title)}**")
        for name, value in list(result.fields.items())[:12]:
            st.markdown(f"**{plain(name)}**: {plain(value)}")


RAW_LINES = 20
RAW_CHARS = 1_500


def render_raw(result: RawResult, ctx: CardContext) -> None:
    """Text no card understood (a summary's prose): its lines as written, shortened."""
    text = result.text[:RAW_CHARS]
    every = [line for line in text.splitlines() if line.strip()]
    lines = [plain(line) for line in every[:RAW_LINES]]
    if lines:
        more = result.truncated or len(text) < len(result.text) or len(every) > RAW_LINES
        st.caption("  \n".join(lines) + ("…" if more else ""))
