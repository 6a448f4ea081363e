"""Under the newest reply: edit and resend your last message, or ask for a fresh reply.

The core decides what may be redone (`ChatSession.redo_options`) and stores the message
that asks again (`swiggy_core.redo`); this draws the two buttons, the editor, and how a
message asked again looks in the chat.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import streamlit as st

from swiggy_core.actions import visible_text
from swiggy_core.errors import SwiggyAssistantError
from swiggy_core.models import ChatMessage, ErrorInfo
from swiggy_core.turn.handle import TurnHandle
from swiggy_core.verticals import Vertical
from swiggy_ui import state
from swiggy_ui.safe_text import markdown_text

if TYPE_CHECKING:  # the session (and the SDKs) load with the first turn, not the first page
    from swiggy_core.turn.session import ChatSession

EDIT_LABEL = "Edit message"
REGENERATE_LABEL = "Regenerate"
EDITOR_LABEL = "Edit your last message"
EDITOR_NOTE = "Your earlier message and its reply stay in the chat."
EDITED_CAPTION = ":material/edit: Edited"
ASKED_AGAIN_CAPTION = ":material/refresh: You asked for a fresh reply."


def render_turn_controls(
    page: state.VerticalChat,
    session: ChatSession,
    messages: list[ChatMessage],
    vertical: Vertical,
) -> TurnHandle | None:
    """Edit and Regenerate under a finished reply; the turn one of them started, if any."""
    last = messages[-1] if messages else None
    options = session.redo_options(messages)
    if last is None or last.meta.error is not None or not options.edit:
        page.editing = False
        return None
    if page.editing:
        return _editor(page, session, options.words, vertical)
    with st.container(horizontal=True, gap="small"):
        st.button(
            EDIT_LABEL,
            key=f"redo-edit-{vertical.id}",
            icon=":material/edit:",
            type="tertiary",
            help="Change your last message and send it again.",
            on_click=_set_editing,
            args=(page, True),
        )
        regenerate = st.button(
            REGENERATE_LABEL,
            key=f"redo-regenerate-{vertical.id}",
            icon=":material/refresh:",
            type="tertiary",
            help="Ask for a fresh reply to your last message.",
        )
    return _start(page, session.regenerate) if regenerate else None


def render_user_message(message: ChatMessage) -> None:
    """The person's words; a message asked again says how (an edit, a fresh reply)."""
    if message.meta.redo == "regenerate":
        st.caption(ASKED_AGAIN_CAPTION)
        return
    with st.chat_message("user"):
        st.markdown(markdown_text(visible_text(message)))
        if message.meta.redo == "edit":
            st.caption(EDITED_CAPTION)


def _editor(
    page: state.VerticalChat, session: ChatSession, words: str, vertical: Vertical
) -> TurnHandle | None:
    with st.form(key=f"redo-form-{vertical.id}", border=True):
        text = st.text_area(EDITOR_LABEL, value=words, key=f"redo-text-{vertical.id}")
        st.caption(EDITOR_NOTE)
        with st.container(horizontal=True, gap="small"):
            send = st.form_submit_button("Send", type="primary", icon=":material/send:")
            st.form_submit_button("Cancel", on_click=_set_editing, args=(page, False))
    return _start(page, lambda: session.edit_last(text)) if send else None


def _start(page: state.VerticalChat, work: Callable[[], TurnHandle]) -> TurnHandle | None:
    """Run the control; a refusal (nothing to redo, a reply already running) is shown as
    the page's notice on a fresh run, and the editor keeps the words."""
    try:
        handle = work()
    except SwiggyAssistantError as error:
        page.notice = ErrorInfo(code=error.code.value, category="input", message=error.message)
        st.rerun()
    page.editing = False
    return handle


def _set_editing(page: state.VerticalChat, editing: bool) -> None:
    page.editing = editing
