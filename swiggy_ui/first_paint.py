"""What a page draws before the app's machinery has loaded in a new server process.

The first page a new process serves waits a second or more for the app to load (the
store, the models behind every card, the sandbox's servers). What needs none of it is
drawn first, so the first visitor sees the page and can type meanwhile: a shop's title
and chat input, and on Home the mode the app runs in when no key makes it the offline
demo. Once the app has loaded in this process, pages draw as they always do.

This module loads only Streamlit and the app's plain settings: importing anything heavier
here would defeat it (a test checks what it loads).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from swiggy_core.constants import LIST_FILE_TYPES, MAX_UPLOAD_BYTES, PHOTO_FILE_TYPES
from swiggy_core.verticals import Vertical

_app_loaded = False  # set once this process has imported the app's pages


def mark_app_loaded() -> None:
    global _app_loaded
    _app_loaded = True


def app_loaded() -> bool:
    return _app_loaded


@dataclass(frozen=True)
class ShopFirstPaint:
    """A shop page's start: the header's place, and whether the chat input is drawn."""

    header: DeltaGenerator  # the full header replaces what is drawn here, in place
    input_drawn: bool = False  # then nothing else may draw it on this run


def shop_first_paint(vertical: Vertical) -> ShopFirstPaint:
    """The header's place (first on every run, so nothing below it shifts when the full
    header fills it); before the app has loaded, also the title and the chat input."""
    header = st.empty()
    if _app_loaded:
        return ShopFirstPaint(header)
    with header.container():
        title, _side = st.columns([3, 2], vertical_alignment="bottom")  # as the full header
        title.title(vertical.display_name)
        title.caption(vertical.tagline)
    submitted = draw_chat_input(vertical)
    if submitted is not None:
        # Kept at once, in the session: a message sent while the app loads reruns the page,
        # and this run may be cut off before it reads what it was given.
        st.session_state[_early_key(vertical)] = submitted
    return ShopFirstPaint(header, input_drawn=True)


def take_early_input(vertical: Vertical) -> object | None:
    """What was sent in the input drawn before the app loaded, once (None: nothing)."""
    return st.session_state.pop(_early_key(vertical), None)


def _early_key(vertical: Vertical) -> str:
    return f"first-paint-sent::{vertical.id}"


def draw_chat_input(vertical: Vertical) -> object:
    """The shop's open chat input (one call, so the early and the full page draw the same
    widget and what is typed in one is read by the other)."""
    return st.chat_input(
        f"Ask {vertical.display_name}…", key=input_key(vertical), **file_options(vertical)
    )


def input_key(vertical: Vertical) -> str:
    return f"input-{vertical.id}"


def takes_lists(vertical: Vertical) -> bool:
    """The grocery shops turn a list, a list file or a photo into a basket review."""
    return vertical.search_lists == "products" and not vertical.books_tables


def file_options(vertical: Vertical) -> dict[str, Any]:
    """A list file or a photo can be attached on the grocery shops."""
    if not takes_lists(vertical):
        return {}
    return {
        "accept_file": True,
        "file_type": [*LIST_FILE_TYPES, *PHOTO_FILE_TYPES],
        "max_upload_size": MAX_UPLOAD_BYTES // 1_000_000,
    }


def offline_before_load() -> bool:
    """True when, before the app has loaded, this session is known to be the offline demo:
    no key for the model from the deployment or this session (the same rule the app
    applies; an unreadable setting answers False, and the full page says why)."""
    if _app_loaded:
        return False
    from swiggy_core.errors import SettingsError
    from swiggy_core.settings import load_settings
    from swiggy_ui.credentials import resolve_credentials
    from swiggy_ui.identity import current_identity

    try:
        settings = load_settings(deployment_secrets(), os.environ)
    except SettingsError:
        return False
    identity = current_identity()
    credentials = resolve_credentials(settings, identity, st.session_state.to_dict())
    return not credentials.api_key


def deployment_secrets() -> dict[str, Any]:
    """The deployment's secrets file as a dict ({} when there is none)."""
    try:
        return dict(st.secrets)
    except Exception:  # no secrets.toml at all is normal: Streamlit raises on access
        return {}
