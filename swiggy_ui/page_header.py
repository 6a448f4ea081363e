"""A shop page's header: title, mode badge, delivery address, details toggle, and a warning
before a Swiggy sign-in or pasted token runs out."""

from __future__ import annotations

from datetime import UTC, datetime

import streamlit as st

from swiggy_core.constants import OAUTH_EXPIRY_WARNING
from swiggy_core.verticals import Vertical
from swiggy_ui import state
from swiggy_ui.address_chooser import DELIVERY_SERVERS, render_address_chooser
from swiggy_ui.banners import CONNECTIONS_PAGE
from swiggy_ui.orders_view import render_orders_button, render_orders_dialog
from swiggy_ui.runtime import Runtime, swiggy_token_is_stale
from swiggy_ui.safe_text import plain
from swiggy_ui.signin_state import current_token

OFFLINE_BADGE = "Offline demo"


def render_header(runtime: Runtime, vertical: Vertical) -> None:
    """The shop's title, the mode, where it delivers, and the details toggle."""
    title, side = st.columns([3, 2], vertical_alignment="bottom")
    title.title(f"{vertical.display_name}")
    title.caption(vertical.tagline)
    address = state.active_address()
    with side:
        if runtime.mode == "offline_demo":
            st.badge(OFFLINE_BADGE, icon=":material/science:", color="orange")
        else:
            st.badge(runtime.mode_label, icon=":material/bolt:", color="green")
        if vertical.server_key in DELIVERY_SERVERS:
            render_address_chooser(runtime, vertical)
        elif address is not None:
            st.caption(
                f":material/location_on: {plain(address.label or 'Address')} · "
                + plain(_shortened(address.address))
            )
        _details_toggle(vertical)
        render_orders_button(vertical)
    render_orders_dialog(runtime, vertical)
    if not runtime.app.in_sandbox:
        _expiry_warning(runtime)


def _details_toggle(vertical: Vertical) -> None:
    """Tool names and token counts, for those who want them (remembered for the session)."""
    key = f"details-{vertical.id}"
    if key not in st.session_state:  # a widget's own state ends when its page is left
        st.session_state[key] = state.show_details()
    st.toggle(
        "Show details",
        key=key,
        help="Show which tools ran and the tokens each reply used.",
        on_change=lambda: state.set_show_details(bool(st.session_state[key])),
    )


def _expiry_warning(runtime: Runtime) -> None:
    """Warn a day before a Swiggy sign-in (5 days, no refresh) or a pasted token runs out."""
    if runtime.credentials.token_source == "signin":
        token = current_token(runtime.identity.user_id, "swiggy", runtime.settings)
        if token is not None and token.expires_within(OAUTH_EXPIRY_WARNING, datetime.now(UTC)):
            st.warning(
                "Your Swiggy sign-in expires within a day. Sign in again on Connections "
                "(within Swiggy's 30-day session it usually needs no OTP).",
                icon=":material/schedule:",
            )
            st.page_link(CONNECTIONS_PAGE, label="Reconnect Swiggy", icon=":material/link:")
    elif swiggy_token_is_stale():
        st.warning(
            "Your Swiggy token is more than 4 days old and may expire soon. Reconnect on "
            "Connections.",
            icon=":material/schedule:",
        )


def _shortened(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
