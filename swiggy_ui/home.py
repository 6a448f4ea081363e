"""The Home page: what the app does, the four shops, and the current mode."""

from __future__ import annotations

import streamlit as st

from swiggy_core.verticals import VERTICALS

PAGE_FILES = {
    "food": "app_pages/nutricart.py",
    "style": "app_pages/stylekit.py",
    "dining": "app_pages/tablescout.py",
    "foodorder": "app_pages/feedme.py",
}


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
    from swiggy_ui.runtime import get_runtime

    runtime = get_runtime()
    with mode.container():
        _mode(runtime.mode, runtime.mode_label)


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
    for row_start in range(0, len(VERTICALS), 2):
        ids = list(VERTICALS)[row_start : row_start + 2]
        for column, vertical_id in zip(st.columns(2, border=True), ids, strict=False):
            vertical = VERTICALS[vertical_id]
            with column:
                st.subheader(f"{vertical.icon} {vertical.display_name}")
                st.caption(vertical.tagline)
                st.page_link(PAGE_FILES[vertical_id], label=f"Open {vertical.display_name}")
