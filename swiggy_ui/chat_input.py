"""The chat's edge: the next message in (typed or a card's button), the person's own
message drawn at once, a note from the run before, and the page following a reply."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st
from streamlit.runtime.uploaded_file_manager import UploadedFile

from swiggy_core.actions import action_message, check_typed, typed_message, visible_text
from swiggy_core.basket_list import WantedLine, looks_like_list, read_file, read_list
from swiggy_core.basket_photo import Photo, prepare_photo
from swiggy_core.basket_records import ListSource
from swiggy_core.constants import LIST_FILE_TYPES
from swiggy_core.errors import InputError
from swiggy_core.models import ChatMessage, ErrorInfo
from swiggy_core.verticals import Vertical
from swiggy_ui import state
from swiggy_ui.first_paint import (
    ShopFirstPaint,
    draw_chat_input,
    file_options,
    input_key,
    take_early_input,
    takes_lists,
)
from swiggy_ui.safe_text import markdown_text, plain

WORKING_PLACEHOLDER = "Working on your last message… press Stop to end it."


@dataclass(frozen=True)
class ShopList:
    """A message that is a shopping list: its wanted lines, or the photo to read them from."""

    message: ChatMessage
    wanted: list[WantedLine]
    source: ListSource
    photo: Photo | None = None


def take_list(vertical: Vertical, message: ChatMessage) -> ShopList | None:
    """The list `message` was read as when it was typed or attached (None: a message)."""
    found = st.session_state.pop(_list_key(vertical), None)
    if isinstance(found, ShopList) and found.message.content == message.content:
        return found
    return None


def read_input(vertical: Vertical, first: ShopFirstPaint | None = None) -> ChatMessage | None:
    """The next message: a pressed card button's action, else what the person typed (here,
    or in the input drawn before the app loaded: `first` drew it on this run)."""
    action = state.pop_action()
    if action is not None:
        state.queue_toast(action.label)  # shown on the next run (this one reruns at once)
        return action_message(action)
    drawn_here = None if first is not None and first.input_drawn else draw_chat_input(vertical)
    early = take_early_input(vertical)
    typed_here = typed_text(drawn_here)
    if early is not None and typed_here:  # sent twice: the first goes first, then this
        state.vertical_chat(vertical.id).keep_unsent(typed_here)
    typed, files = _parts(early if early is not None else drawn_here)
    if not typed.strip() and not files:
        return None
    try:
        if typed.strip() or not files:
            check_typed(typed)
        if files:
            return _attached(vertical, typed, files[0])
        message = typed_message(typed)
        if takes_lists(vertical) and looks_like_list(typed):
            _keep_list(vertical, ShopList(message, read_list(typed), "typed"))
        return message
    except InputError as error:
        error.kept_text = typed or None  # the page keeps the words for "Send again"
        raise


def _parts(submitted: object) -> tuple[str, list[UploadedFile]]:
    """The words and the files of a submission (plain text where files are not taken)."""
    if submitted is None:
        return "", []
    if isinstance(submitted, str):
        return submitted, []
    text = getattr(submitted, "text", "") or ""
    return str(text), list(getattr(submitted, "files", None) or [])


def _attached(vertical: Vertical, typed: str, upload: UploadedFile) -> ChatMessage:
    """A list file read into its lines, or a photo prepared for the model to read."""
    name, data = upload.name, upload.getvalue()
    is_list = name.lower().rsplit(".", 1)[-1] in LIST_FILE_TYPES
    said = f"List from {name}" if is_list else f"Photo: {name}"
    message = typed_message(f"{typed.strip()}\n\n{said}" if typed.strip() else said)
    if is_list:
        shop_list = ShopList(message, read_file(name, data), "file")
    else:
        shop_list = ShopList(message, [], "photo", prepare_photo(name, data))
    _keep_list(vertical, shop_list)
    return message


def _keep_list(vertical: Vertical, shop_list: ShopList) -> None:
    st.session_state[_list_key(vertical)] = shop_list


def _list_key(vertical: Vertical) -> str:
    return f"shop_list::{vertical.id}"


def read_or_keep(
    page: state.VerticalChat, vertical: Vertical, first: ShopFirstPaint | None = None
) -> ChatMessage | None:
    """`read_input`; words it refuses become the page's notice and are kept (then a rerun)."""
    try:
        return read_input(vertical, first)
    except InputError as error:
        page.notice = ErrorInfo(code=error.code.value, category="input", message=error.message)
        page.unsent = error.kept_text
        st.rerun()


def typed_text(submitted: object) -> str | None:
    """The words of a chat input's value (None when nothing was typed)."""
    typed, _files = _parts(submitted)
    return typed if typed.strip() else None


def busy_input(vertical: Vertical, placeholder: str = WORKING_PLACEHOLDER) -> str | None:
    """The input while a reply streams: visibly busy, nothing typed can be lost.

    Until a run reaches this call the browser still shows the open input of the run
    before, and Enter there sends: those words are returned, for the page to keep (with
    any typed before the app loaded).
    """
    key = input_key(vertical)
    typed = typed_text(st.session_state.get(key))  # read before it is replaced
    st.chat_input(placeholder, key=key, disabled=True, **file_options(vertical))
    early = typed_text(take_early_input(vertical))
    kept = [words for words in (early, typed) if words]
    return "\n\n".join(kept) or None


def show_toast() -> None:
    """A note from the run before: a card action's label ("Added 2 × Yoga Bar"), a late Stop."""
    toast = state.pop_toast()
    if toast:
        label, icon = toast
        st.toast(plain(label), icon=icon)


def show_user(message: ChatMessage) -> None:
    with st.chat_message("user"):
        st.markdown(markdown_text(visible_text(message)))
