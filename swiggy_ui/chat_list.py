"""The sidebar's chats of one shop: New chat, earlier chats, rename, delete, clear all, export.

Chats belong to the person in one world (`runtime.user_id`); the store never lists or
deletes anyone else's. A chat with a reply still coming in, or with an order or booking
waiting for the person's answer, is never deleted: the person is told why and what to do.
Every change happens in a button's callback, so the page that follows already shows it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal

import streamlit as st

from swiggy_core.export import build_export, export_file_name, local_day, to_json, to_markdown
from swiggy_core.store import ChatStore, ConversationInfo, StoreError
from swiggy_core.verticals import Vertical
from swiggy_ui import state
from swiggy_ui.banners import support_code
from swiggy_ui.chat_search import render_chat_search
from swiggy_ui.runtime import Runtime
from swiggy_ui.safe_text import plain

# The sidebar lists this many of the newest chats, and as many more at each "Show older
# chats" (read a page at a time in SQL: a long history stays in the store).
MAX_LISTED: Final = 30
TITLE_MAX_CHARS: Final = 80
UNTITLED: Final = "Untitled chat"

Confirming = Literal["delete", "clear"]


@dataclass
class ChatListState:
    """What the list is in the middle of for one shop: a rename or a confirmation."""

    renaming: str | None = None
    confirming: Confirming | None = None
    # One message for the next run (a refusal is worth reading, so it is not a toast).
    flash: str | None = None
    flash_code: str | None = None  # the refusal's code, shown small for support
    shown: int = MAX_LISTED  # how many of the newest chats the list holds


def render_chat_list(runtime: Runtime, vertical: Vertical) -> None:
    """Draw the chats of `vertical` for this person in the sidebar."""
    page = state.vertical_chat(vertical.id)
    ui = _ui_state(vertical)
    with st.sidebar:
        st.markdown("**Chats**")
        render_chat_search(runtime, vertical)
        if ui.flash:
            st.warning(plain(ui.flash), icon=":material/block:")
            support_code(ui.flash_code)
            ui.flash = ui.flash_code = None
        chats = runtime.app.chats
        try:
            listing = chats.page(runtime.user_id, vertical.id, ui.shown)
            current = page.conversation_id or chats.newest(runtime.user_id, vertical.id)
            open_chat = _listed_chat(runtime, vertical, listing.chats, current)
            # Only the "Delete all N chats?" question needs the count.
            count = chats.count(runtime.user_id, vertical.id) if ui.confirming == "clear" else 0
        except StoreError as error:
            st.caption(f":material/database: Chats could not be loaded ({error.code}).")
            return
        if not listing.chats:  # the open chat is already a new one: nothing to list or start
            st.caption(f"Your chats with {vertical.display_name} will be listed here.")
            return
        st.button(
            "New chat",
            key=f"chats-new-{vertical.id}",
            icon=":material/add_comment:",
            width="stretch",
            disabled=open_chat is None,
            help="Start an empty chat; this one stays in the list.",
            on_click=_new_chat,
            args=(runtime, vertical),
        )
        _chooser(vertical, listing.chats, current)
        if listing.more:
            st.button(
                "Show older chats",
                key=f"chats-more-{vertical.id}",
                icon=":material/expand_more:",
                type="tertiary",
                on_click=_show_more,
                args=(ui,),
            )
        if open_chat is not None:
            _open_chat_tools(runtime, vertical, open_chat, ui)
        _clear_all(runtime, vertical, count, ui)


def _listed_chat(
    runtime: Runtime, vertical: Vertical, shown: list[ConversationInfo], current: str | None
) -> ConversationInfo | None:
    """The open chat if it is a listed one (it holds a message), shown or further down."""
    on_page = next((chat for chat in shown if chat.id == current), None)
    if on_page is not None or current is None:
        return on_page
    return runtime.app.chats.find(runtime.user_id, vertical.id, current)


def _ui_state(vertical: Vertical) -> ChatListState:
    key = f"chat_list::{state.backend()}::{vertical.id}"
    if key not in st.session_state:
        st.session_state[key] = ChatListState()
    ui: ChatListState = st.session_state[key]
    return ui


def _chooser(vertical: Vertical, chats: list[ConversationInfo], current: str | None) -> None:
    key = f"chats-pick-{vertical.id}"
    ids = [chat.id for chat in chats]
    titles = _unique_titles(chats)
    # The page decides which chat is open (a new chat, a deleted one); the list follows.
    st.session_state[key] = current if current in ids else None
    st.radio(
        "Earlier chats",
        ids,
        format_func=lambda chat_id: plain(titles[chat_id]),  # typed text: never live
        captions=[local_day(chat.updated_at) for chat in chats],
        key=key,
        label_visibility="collapsed",
        on_change=_reopen,
        args=(vertical, key),
    )


def _unique_titles(chats: list[ConversationInfo]) -> dict[str, str]:
    """Each chat's label; a repeated title gets a number (the radio tells options by label)."""
    seen: dict[str, int] = {}
    titles: dict[str, str] = {}
    for chat in chats:
        title = chat.title or UNTITLED
        seen[title] = seen.get(title, 0) + 1
        titles[chat.id] = title if seen[title] == 1 else f"{title} ({seen[title]})"
    return titles


def _open_chat_tools(
    runtime: Runtime, vertical: Vertical, chat: ConversationInfo, ui: ChatListState
) -> None:
    if ui.renaming == chat.id:
        _rename_form(runtime, vertical, chat, ui)
    elif ui.confirming == "delete":
        _confirm(
            f"Delete “{plain(chat.title or UNTITLED)}”? Its messages are removed for good.",
            ("Delete chat", lambda: _delete(runtime, vertical, [chat.id])),
            key=f"chats-delete-{vertical.id}",
            ui=ui,
        )
    else:
        rename, delete = st.columns(2)
        rename.button(
            "Rename",
            key=f"chats-rename-{vertical.id}",
            icon=":material/edit:",
            width="stretch",
            on_click=_set_ui,
            args=(ui, chat.id, None),
        )
        delete.button(
            "Delete",
            key=f"chats-delete-{vertical.id}",
            icon=":material/delete:",
            width="stretch",
            on_click=_set_ui,
            args=(ui, None, "delete"),
        )
    _export_buttons(runtime.store, vertical, chat)


def _rename_form(
    runtime: Runtime, vertical: Vertical, chat: ConversationInfo, ui: ChatListState
) -> None:
    key = f"chats-title-{vertical.id}"
    with st.form(f"chats-rename-form-{vertical.id}", border=False):
        st.text_input("Chat name", value=chat.title, max_chars=TITLE_MAX_CHARS, key=key)
        save, cancel = st.columns(2)
        save.form_submit_button(
            "Save name",
            type="primary",
            width="stretch",
            on_click=_rename,
            args=(runtime, chat.id, key, ui),
        )
        cancel.form_submit_button(
            "Cancel", width="stretch", on_click=_set_ui, args=(ui, None, None)
        )


def _export_buttons(store: ChatStore, vertical: Vertical, chat: ConversationInfo) -> None:
    """Markdown and JSON downloads; the file is built only when a button is pressed."""
    name = export_file_name(vertical.display_name, chat.title, chat.updated_at)

    def build(render: Callable[..., str]) -> Callable[[], str]:
        # Runs on the download request (no Streamlit calls): the chat as stored then.
        return lambda: render(build_export(chat, store.load_since(chat.id), vertical.display_name))

    formats = (("Markdown", to_markdown, "md", "text/markdown"),
               ("JSON", to_json, "json", "application/json"))  # fmt: skip
    for column, (label, render, extension, mime) in zip(st.columns(2), formats, strict=True):
        column.download_button(
            label,
            data=build(render),
            file_name=f"{name}.{extension}",
            mime=mime,
            key=f"chats-{extension}-{vertical.id}",
            icon=":material/download:",
            width="stretch",
            on_click="ignore",
        )


def _clear_all(runtime: Runtime, vertical: Vertical, count: int, ui: ChatListState) -> None:
    if ui.confirming == "clear":
        noun = "chat" if count == 1 else f"all {count} chats"
        _confirm(
            f"Delete {noun} with {vertical.display_name}? This cannot be undone.",
            ("Delete all", lambda: _delete(runtime, vertical, None)),
            key=f"chats-clear-{vertical.id}",
            ui=ui,
        )
        return
    st.button(
        "Clear all chats",
        key=f"chats-clear-{vertical.id}",
        icon=":material/delete_sweep:",
        type="tertiary",
        on_click=_set_ui,
        args=(ui, None, "clear"),
    )


def _confirm(
    question: str, action: tuple[str, Callable[[], None]], *, key: str, ui: ChatListState
) -> None:
    """A second, explicit click: the question, the action, and a way back."""
    label, run = action
    st.warning(question, icon=":material/warning:")
    yes, no = st.columns(2)
    yes.button(label, key=f"{key}-yes", type="primary", width="stretch", on_click=run)
    no.button("Keep", key=f"{key}-no", width="stretch", on_click=_set_ui, args=(ui, None, None))


# -- callbacks (run before the page is drawn again) ---------------------------------------
def _set_ui(ui: ChatListState, renaming: str | None, confirming: Confirming | None) -> None:
    ui.renaming, ui.confirming = renaming, confirming


def _show_more(ui: ChatListState) -> None:
    ui.shown += MAX_LISTED


def _reopen(vertical: Vertical, key: str) -> None:
    chosen: str | None = st.session_state.get(key)
    if chosen is not None:
        state.vertical_chat(vertical.id).conversation_id = chosen
        _set_ui(_ui_state(vertical), None, None)


def _new_chat(runtime: Runtime, vertical: Vertical) -> None:
    ui = _ui_state(vertical)
    _set_ui(ui, None, None)
    try:
        chat_id = runtime.app.chats.new(runtime.user_id, vertical.id)
    except StoreError as error:
        ui.flash, ui.flash_code = f"A new chat could not be started: {error.message}", error.code
        return
    state.vertical_chat(vertical.id).conversation_id = chat_id


def _rename(runtime: Runtime, chat_id: str, key: str, ui: ChatListState) -> None:
    title = str(st.session_state.get(key, ""))
    _set_ui(ui, None, None)
    if not title.strip():
        ui.flash = "A chat needs a name: the old one is kept."
        return
    try:
        runtime.app.chats.rename(runtime.user_id, chat_id, title)
    except StoreError as error:
        ui.flash, ui.flash_code = f"The chat could not be renamed: {error.message}", error.code


def _delete(runtime: Runtime, vertical: Vertical, only: list[str] | None) -> None:
    """Delete one chat (`only`) or all of this shop's, keeping busy ones and saying why."""
    ui = _ui_state(vertical)
    _set_ui(ui, None, None)
    page = state.vertical_chat(vertical.id)
    try:
        outcome = runtime.app.chats.delete(runtime.user_id, vertical.id, only)
    except StoreError as error:
        ui.flash, ui.flash_code = f"Nothing was deleted: {error.message}", error.code
        return
    if page.conversation_id in outcome.deleted:
        page.conversation_id = None  # the page opens the newest chat left
    if outcome.kept:
        ui.flash = _kept_message(outcome.kept, outcome.replying, single=only is not None)
    elif outcome.deleted:
        st.toast("Chat deleted" if only else "Chats cleared", icon=":material/delete:")


def _kept_message(kept: tuple[str, ...], replying: tuple[str, ...], *, single: bool) -> str:
    still_replying = any(chat_id in replying for chat_id in kept)
    reason = (
        "a reply is still coming in (press Stop, or wait for it)"
        if still_replying
        else "an order or booking is waiting for your answer (confirm or cancel it first)"
    )
    if single:
        return f"This chat was not deleted: {reason}."
    kept_noun = "1 chat was" if len(kept) == 1 else f"{len(kept)} chats were"
    return f"{kept_noun} kept because {reason}; the others were deleted."
