"""One vertical's page: header, starter chips, history with cards, input, confirm bar."""

from __future__ import annotations

import streamlit as st

from swiggy_core.actions import typed_message
from swiggy_core.models import ChatMessage
from swiggy_core.verticals import Vertical, get_vertical
from swiggy_ui import chat, state
from swiggy_ui.banners import error_banner
from swiggy_ui.runtime import Runtime, get_runtime, swiggy_token_is_stale

OFFLINE_BADGE = "Offline demo"
PIN = ":material/location_on:"


def render_vertical(vertical_id: str) -> None:
    """The whole page for `vertical_id` (pages call only this)."""
    vertical = get_vertical(vertical_id)
    runtime = get_runtime()
    conversation = _conversation(runtime, vertical)
    _header(runtime, vertical)
    chat.render_history(conversation, vertical)
    message = chat.read_input(vertical)
    retry = (
        conversation.error is not None
        and message is None
        and error_banner(conversation.error, key=f"err-{vertical.id}")
    )
    if retry:
        message = _take_failed(conversation)
    if message is None and not conversation.messages:
        message = _starter_chips(vertical)
    if message is not None:
        chat.send(runtime, conversation, vertical, message)
        st.rerun()
    chat.render_confirm_bar(conversation, vertical)


def _conversation(runtime: Runtime, vertical: Vertical) -> state.VerticalChat:
    conversation = state.vertical_chat(vertical.id)
    if conversation.conversation_id is None and not conversation.messages:
        stored = runtime.store.list_conversations(runtime.user_id, vertical.id)
        if stored:
            conversation.conversation_id = stored[0].id
            conversation.messages = runtime.store.load_messages(stored[0].id)
    return conversation


def _header(runtime: Runtime, vertical: Vertical) -> None:
    title, side = st.columns([3, 2], vertical_alignment="bottom")
    title.title(f"{vertical.display_name}")
    title.caption(vertical.tagline)
    address = state.active_address()
    with side:
        if runtime.mode == "offline_demo":
            st.badge(OFFLINE_BADGE, icon=":material/science:", color="orange")
        else:
            st.badge(runtime.mode_label, icon=":material/bolt:", color="green")
        if address is not None:
            st.caption(
                f":material/location_on: {address.label or 'Address'} · {address.address[:60]}"
            )
        else:
            st.caption(
                ":material/location_on: No address chosen yet: ask for your saved addresses."
            )
    if runtime.sandbox is None and swiggy_token_is_stale():
        st.warning(
            "Your Swiggy token is more than 4 days old and may expire soon. Reconnect on "
            "Connections.",
            icon=":material/schedule:",
        )


def _starter_chips(vertical: Vertical) -> ChatMessage | None:
    st.markdown("**Try one of these:**")
    for index, column in enumerate(st.columns(len(vertical.starter_prompts))):
        prompt = vertical.starter_prompts[index]
        if column.button(prompt, key=f"starter-{vertical.id}-{index}", width="stretch"):
            return typed_message(prompt)
    return None


def _take_failed(conversation: state.VerticalChat) -> ChatMessage | None:
    """Retry: drop the failed exchange and resend exactly the same message."""
    failed = conversation.failed_message
    if failed is None:
        return None
    while conversation.messages and conversation.messages[-1] is not failed:
        conversation.messages.pop()
    if conversation.messages:
        conversation.messages.pop()
    conversation.error = None
    return failed
