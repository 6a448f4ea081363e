"""A chat whose reply is elsewhere: settled on opening, interrupted, or running in another
window (another tab of another replica). The core decides; this only shows it."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import streamlit as st

from swiggy_core.constants import SWIGGY_ORDERS_URL
from swiggy_core.errors import ErrorCode
from swiggy_core.models import ChatMessage, ErrorInfo
from swiggy_core.turn.lease import ELSEWHERE_MESSAGE
from swiggy_core.verticals import Vertical
from swiggy_ui import state
from swiggy_ui.banners import error_banner

if TYPE_CHECKING:  # the session (and the SDKs) load with the first turn, not the first page
    from swiggy_core.turn.session import ChatSession

# How often a page waiting for another window's reply looks at the chat's lease.
ELSEWHERE_POLL_SECONDS = 2.0
INTERRUPTED_MESSAGE = (
    "The reply to your last message was interrupted (the app restarted or lost its "
    "connection). Nothing you wrote is lost: press Retry for an answer."
)


def settle_once(page: state.VerticalChat, session: ChatSession) -> bool:
    """On opening a chat: settle confirmations a crash cut off (the core reads the orders
    and stores the outcome where the dialog was). Raises StoreError on a database fault.

    True when a live turn held the chat, so nothing could be looked at yet: the page
    looks again once that turn has let go (a dead replica's hold lapses in seconds).
    """
    if session.conversation_id is None or page.settled_for == session.conversation_id:
        return False
    if session.settle_on_sight().deferred:
        return True
    page.settled_for = session.conversation_id
    return False


def interrupted_banner(
    session: ChatSession, messages: list[ChatMessage], vertical: Vertical
) -> bool:
    """ "The reply was interrupted" with Retry, when the newest message has no reply and no
    turn is running for it anywhere; True when Retry was pressed."""
    if not session.interrupted(messages):
        if session.running() is None and session.answered_since(messages):
            st.rerun()  # the reply landed after this run read the chat: draw it
        return False
    error = ErrorInfo(
        code=ErrorCode.TURN_INTERRUPTED.value, category="unknown", message=INTERRUPTED_MESSAGE
    )
    return error_banner(error, key=f"interrupted-{vertical.id}-{len(messages)}")


def wait_for_other_window(page: state.VerticalChat, session: ChatSession) -> None:
    """While another window replies in this chat: say so, and show its reply once stored."""

    @st.fragment(run_every=ELSEWHERE_POLL_SECONDS)
    def waiting() -> None:
        if not session.replying_elsewhere():
            page.settled_for = None  # it may have died mid-confirmation: look again
            st.rerun()
        st.info(ELSEWHERE_MESSAGE, icon=":material/devices:")

    waiting()


def unknown_outcome_link(answer_text: str) -> None:
    """Under a confirmation whose outcome nobody could read: the person's Swiggy orders
    (the real world only: the offline demo's orders are not in the Swiggy app)."""
    try:
        answer = json.loads(answer_text)
    except ValueError:
        return
    if not isinstance(answer, dict) or answer.get("approval") != "unknown":
        return
    if state.backend() == "swiggy":
        st.link_button("Open your Swiggy orders", SWIGGY_ORDERS_URL, icon=":material/receipt_long:")
