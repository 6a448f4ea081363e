"""The Home page: what the app does, the shops, and the current mode; each shop's page."""

from __future__ import annotations

from functools import partial

import streamlit as st
from streamlit.navigation.page import StreamlitPage

from swiggy_core.faultpoints import delay_point
from swiggy_core.verticals import VERTICALS, Vertical, get_vertical
from swiggy_ui.first_paint import mark_app_loaded, offline_before_load, shop_first_paint
from swiggy_ui.shop_links import remember_shop_page


def shop_page(vertical: Vertical) -> StreamlitPage:
    """The vertical's page, at its slug (/nutricart): navigation and Home's links share it."""
    page = st.Page(
        partial(_render_shop, vertical.id),
        title=vertical.display_name,
        icon=vertical.icon,
        url_path=vertical.slug,
    )
    remember_shop_page(vertical.id, page)
    return page


def _render_shop(vertical_id: str) -> None:
    # In a new process the title and the chat input come first, before the app loads; then
    # the page is drawn (and usable) while the sandbox starts, then in full.
    first = shop_first_paint(get_vertical(vertical_id))
    if first.input_drawn:
        delay_point("app.load")  # a test makes the load slow, to send a message during it
    from swiggy_ui.runtime import get_runtime
    from swiggy_ui.starting_page import render_while_starting
    from swiggy_ui.vertical_page import render_vertical

    mark_app_loaded()
    runtime = get_runtime(wait=False)
    if render_while_starting(runtime, vertical_id, first):
        return
    render_vertical(runtime, vertical_id, first)


def render_home() -> None:
    # The heading and the shops first: on a cold server the runtime (store, sandbox) takes
    # seconds to load, and the first visitor should see the app meanwhile.
    st.title("Shop by chatting")
    st.markdown(
        "Ask for groceries, grooming, a table or dinner in plain words. Results arrive as "
        "cards you can add to your cart; nothing is ordered or booked until you confirm."
    )
    mode = st.empty()
    _shops()
    if offline_before_load():  # known before the app loads: say it at once
        with mode.container():
            _mode("offline_demo", "")
    from swiggy_ui.runtime import get_runtime, start_background_work

    mark_app_loaded()
    runtime = get_runtime(wait=False)  # the mode needs no sandbox: it starts after this page
    with mode.container():
        _mode(runtime.mode, runtime.mode_label)
    start_background_work(runtime)


def _mode(mode: str, label: str) -> None:
    if mode == "offline_demo":
        st.info(
            "**Offline demo.** No Anthropic key is set, so a small built-in planner answers "
            "and a sandbox stands in for Swiggy: nothing real is ordered. Add a key on "
            "**Connections** to chat with Claude.",
            icon=":material/science:",
        )
    else:
        st.success(f"Connected: {label}", icon=":material/bolt:")


def _shops() -> None:
    shops = list(VERTICALS.values())
    for row_start in range(0, len(shops), 2):
        row = shops[row_start : row_start + 2]
        for column, vertical in zip(st.columns(2, border=True), row, strict=False):
            with column:
                st.subheader(f"{vertical.icon} {vertical.display_name}")
                st.caption(vertical.tagline)
                st.page_link(shop_page(vertical), label=f"Open {vertical.display_name}")
