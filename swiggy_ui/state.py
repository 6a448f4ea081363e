"""Typed access to st.session_state: one place names every key the UI keeps."""

from __future__ import annotations

from dataclasses import dataclass, field

import streamlit as st

from swiggy_core.actions import CardAction
from swiggy_core.models import ChatMessage, ErrorInfo, Usage
from swiggy_core.parsers import AddressItem

PENDING_ACTION = "pending_action"


@dataclass
class VerticalChat:
    """The chat of one vertical in this browser session."""

    vertical_id: str
    messages: list[ChatMessage] = field(default_factory=list)
    conversation_id: str | None = None
    error: ErrorInfo | None = None
    failed_message: ChatMessage | None = None


def vertical_chat(vertical_id: str) -> VerticalChat:
    """This session's chat for a vertical (created on first use)."""
    key = f"chat::{vertical_id}"
    if key not in st.session_state:
        st.session_state[key] = VerticalChat(vertical_id=vertical_id)
    chat: VerticalChat = st.session_state[key]
    return chat


def queue_action(action: CardAction) -> None:
    """Remember a card button's action; the chat loop sends it on this rerun."""
    st.session_state[PENDING_ACTION] = action


def pop_action() -> CardAction | None:
    action: CardAction | None = st.session_state.pop(PENDING_ACTION, None)
    return action


def active_address() -> AddressItem | None:
    address: AddressItem | None = st.session_state.get("active_address")
    return address


def set_active_address(address: AddressItem) -> None:
    st.session_state["active_address"] = address


def session_usage() -> Usage:
    usage: Usage = st.session_state.setdefault("session_usage", Usage())
    return usage


def add_usage(usage: Usage) -> None:
    st.session_state["session_usage"] = session_usage() + usage
