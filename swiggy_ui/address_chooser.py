"""The shop header's "Deliver to" chooser: the saved addresses, read by the app itself.

Usable before the first search and remembered per person and world (the runtime keeps
the choice as a preference). When nothing was chosen yet, the first saved address is
taken, so a search never has to open with address cards and Place order has somewhere to
deliver; the person changes it here, or inside the confirmation dialog.
"""

from __future__ import annotations

import streamlit as st

from swiggy_core.parsers import AddressItem
from swiggy_core.verticals import Vertical
from swiggy_ui import state
from swiggy_ui.runtime import Runtime
from swiggy_ui.safe_text import plain
from swiggy_ui.saved_addresses import address_line, load_saved_addresses

# Shops that deliver to an address (Dineout books a table at the restaurant).
DELIVERY_SERVERS = frozenset({"instamart", "food"})
NO_ADDRESS = ":material/location_off: No saved address yet: add one in the Swiggy app."
LOADING_ADDRESSES = ":material/hourglass_top: Loading your saved addresses…"


def render_address_chooser(runtime: Runtime, vertical: Vertical) -> None:
    """A select box of the saved addresses; changing it changes where orders go."""
    if vertical.server_key not in DELIVERY_SERVERS:
        return
    # While the sandbox starts (a cold process) they cannot be read yet: the page says so
    # and reads them once it runs, instead of waiting for it.
    starting = runtime.app.sandbox_starting
    saved = None if starting else load_saved_addresses(runtime, vertical.id)
    current = state.active_address()
    if not saved:
        if current is not None:
            st.caption(f":material/location_on: {plain(address_line(current))}")
        elif starting:
            st.caption(LOADING_ADDRESSES)
        else:
            st.caption(NO_ADDRESS if saved == [] else ":material/location_on: Deliver to —")
        return
    ids = [item.address_id for item in saved]
    if current is None or current.address_id not in ids:
        current = saved[0]
        state.set_active_address(current)  # remembered by the runtime on the next run
    by_id = {item.address_id: item for item in saved}
    key = f"deliver-to-{vertical.id}"
    st.session_state.setdefault(key, current.address_id)
    if st.session_state[key] != current.address_id:  # changed elsewhere (the dialog)
        st.session_state[key] = current.address_id
    st.selectbox(
        "Deliver to",
        options=ids,
        format_func=lambda address_id: address_line(by_id[address_id]),
        key=key,
        on_change=_chosen,
        args=(key, by_id),
    )


def _chosen(key: str, by_id: dict[str | None, AddressItem]) -> None:
    choice = by_id.get(st.session_state.get(key))
    if choice is not None:
        state.set_active_address(choice)
