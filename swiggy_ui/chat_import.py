"""Import a chat you exported as JSON: an uploader and one button, on the Activity page.

The file is read only when you press "Import this chat"; a file that cannot be imported
is refused with its code and nothing is kept. The new chat holds the words and, from the
stored results in the file, its searches and menus as cards (nothing in the file runs or
waits for a confirmation); it opens on its shop's page from the link.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import streamlit as st

from swiggy_core.errors import SwiggyAssistantError
from swiggy_core.export.chat_import import ChatImportError, check_size, import_chat
from swiggy_core.store import StoreError
from swiggy_core.verticals import VERTICALS
from swiggy_ui import state
from swiggy_ui.banners import coded_error
from swiggy_ui.home import shop_page
from swiggy_ui.runtime import Runtime
from swiggy_ui.safe_text import plain

UPLOAD_KEY: Final = "chat-import-file"


@dataclass(frozen=True, slots=True)
class ImportOutcome:
    """What the last press did: the new chat's shop and title, or a coded refusal."""

    vertical_id: str | None = None
    title: str = ""
    left_out: int = 0
    tools_left_out: int = 0
    error: str = ""
    code: str = ""


def render_chat_import(runtime: Runtime) -> None:
    st.subheader("Import a chat")
    st.caption(
        "Bring back a chat you saved as JSON from this app, as a new chat of yours: its "
        "words, and its searches and menus as cards read afresh from the results saved in "
        "the file. Carts, orders and bookings come back as words only: nothing in the file "
        "is run, ordered or confirmed."
    )
    upload = st.file_uploader("Chat file (JSON)", type=["json"], key=UPLOAD_KEY)
    st.button(
        "Import this chat",
        key="chat-import-go",
        icon=":material/upload_file:",
        disabled=upload is None,
        on_click=_import,
        args=(runtime,),
    )
    outcome = st.session_state.get(_outcome_key())
    if isinstance(outcome, ImportOutcome):
        _show(outcome)


def _outcome_key() -> str:
    return f"chat-import-outcome::{state.backend()}"


def _show(outcome: ImportOutcome) -> None:
    if outcome.error:
        coded_error(outcome.error, outcome.code, icon=":material/block:")
        return
    shop = VERTICALS.get(outcome.vertical_id or "")
    if shop is None:
        return
    st.success(
        plain(f"“{outcome.title}” is now one of your chats with {shop.display_name}."),
        icon=":material/check_circle:",
    )
    if outcome.left_out:
        st.caption(f"{outcome.left_out} card(s) in the file could not be read and were left out.")
    if outcome.tools_left_out:
        st.caption(
            f"{outcome.tools_left_out} tool result(s) in the file are not from "
            f"{shop.display_name}'s tools and were left out."
        )
    st.page_link(shop_page(shop), label=f"Open it in {shop.display_name}", icon=":material/chat:")


def _import(runtime: Runtime) -> None:
    upload = st.session_state.get(UPLOAD_KEY)
    if upload is None:
        return
    try:
        check_size(upload.size)  # refused before the file is read
        imported = import_chat(runtime.store, runtime.user_id, upload.getvalue())
    except (ChatImportError, StoreError) as error:
        outcome = _refusal(error)
    else:
        state.vertical_chat(imported.vertical_id).conversation_id = imported.conversation_id
        outcome = ImportOutcome(
            imported.vertical_id,
            imported.title,
            imported.cards_left_out,
            imported.tools_left_out,
        )
    st.session_state[_outcome_key()] = outcome


def _refusal(error: SwiggyAssistantError) -> ImportOutcome:
    return ImportOutcome(error=f"This chat was not imported: {error.message}", code=error.code)
