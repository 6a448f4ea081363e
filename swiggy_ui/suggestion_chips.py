"""Chips: the shop's starter prompts in an empty chat, and under the newest reply the
requests it offers (the nearest things after a miss).

A chip sends its words exactly as if they had been typed: no ids, no action data, so a
suggestion (whoever wrote it) can ask for nothing the person could not type themselves.
"""

from __future__ import annotations

import streamlit as st

from swiggy_core.actions import suggestions, typed_message
from swiggy_core.models import ChatMessage, TextBlock
from swiggy_core.verticals import Vertical
from swiggy_ui.safe_text import plain


def starter_chips(vertical: Vertical) -> ChatMessage | None:
    """The shop's starter prompts (an empty chat) as buttons; the pressed one's message."""
    # One container: the next run's first message takes its place at once, so stale
    # chips never linger under a reply that is streaming.
    chosen: ChatMessage | None = None
    with st.container():
        st.markdown("**Try one of these:**")
        for index, column in enumerate(st.columns(len(vertical.starter_prompts))):
            prompt = vertical.starter_prompts[index]
            if column.button(prompt, key=f"starter-{vertical.id}-{index}", width="stretch"):
                chosen = typed_message(prompt)
    return chosen


def suggestion_chips(vertical: Vertical, messages: list[ChatMessage]) -> ChatMessage | None:
    """The newest reply's suggestions as buttons; the pressed one's message, if any."""
    newest = messages[-1] if messages else None
    if newest is None or newest.role != "assistant":
        return None
    words = "\n".join(b.text for b in newest.blocks() if isinstance(b, TextBlock))
    offered = suggestions(words)
    if not offered:
        return None
    chosen: ChatMessage | None = None
    for index, column in enumerate(st.columns(len(offered))):
        request = offered[index]
        # Keyed by the reply's position: a later reply's chips are new buttons.
        key = f"suggest-{vertical.id}-{len(messages)}-{index}"
        if column.button(plain(request), key=key, icon=":material/north_east:", width="stretch"):
            chosen = typed_message(request)
    return chosen
