"""The sidebar's search over all your chats (every shop): a box, then the chats it finds.

Each result names the chat, its shop, when the matching words were said and the words
around them. Titles and snippets are stored text (typed by you or written by the model),
so they are shown through `plain`, never as live Markdown. Pressing a result opens that
chat on its shop's page.
"""

from __future__ import annotations

from typing import Final

import streamlit as st

from swiggy_core.export import local_day
from swiggy_core.store import StoreError
from swiggy_core.store.chat_search import ChatHit
from swiggy_core.verticals import VERTICALS, Vertical
from swiggy_ui import state
from swiggy_ui.runtime import Runtime
from swiggy_ui.safe_text import plain
from swiggy_ui.shop_links import shop_page_for

SEARCH_HITS: Final = 8
SNIPPET_CHARS: Final = 140
QUERY_CHARS: Final = 200
UNTITLED: Final = "Untitled chat"


def render_chat_search(runtime: Runtime, vertical: Vertical) -> None:
    """The search box and its results (drawn inside the sidebar)."""
    _follow_opened_chat(vertical)
    query = st.text_input(
        "Search your chats",
        key=f"chats-search-{vertical.id}",
        max_chars=QUERY_CHARS,
        placeholder="Search your chats",
        icon=":material/search:",
        label_visibility="collapsed",
    )
    if not query.strip():
        return
    try:
        hits = runtime.store.search_chats(runtime.user_id, query, SEARCH_HITS)
    except StoreError as error:
        st.caption(f":material/database: Your chats could not be searched ({error.code}).")
        return
    if not hits:
        st.caption("None of your chats has those words.")
        return
    for index, hit in enumerate(hits):
        _result(vertical, hit, index)


def _result(vertical: Vertical, hit: ChatHit, index: int) -> None:
    shop = VERTICALS.get(hit.chat.vertical_id)
    shop_name = shop.display_name if shop is not None else hit.chat.vertical_id
    st.button(
        plain(hit.chat.title or UNTITLED),
        key=f"chats-found-{vertical.id}-{index}",
        icon=":material/chat:",
        type="tertiary",
        on_click=_open,
        args=(hit.chat.vertical_id, hit.chat.id),
    )
    words = hit.snippet if len(hit.snippet) <= SNIPPET_CHARS else hit.snippet[:SNIPPET_CHARS] + "…"
    line = " · ".join(part for part in (shop_name, local_day(hit.at), words) if part)
    st.caption(plain(line))


def _go_key() -> str:
    return f"chat-search-go::{state.backend()}"


def _open(vertical_id: str, conversation_id: str) -> None:
    """Open the chat on its shop's page (switched to on this run if it is another)."""
    state.vertical_chat(vertical_id).conversation_id = conversation_id
    st.session_state[_go_key()] = vertical_id


def _follow_opened_chat(vertical: Vertical) -> None:
    target = st.session_state.pop(_go_key(), None)
    shop = VERTICALS.get(target) if isinstance(target, str) else None
    if shop is not None and shop.id != vertical.id:
        st.switch_page(shop_page_for(shop.id))
