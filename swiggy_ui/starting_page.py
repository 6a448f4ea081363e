"""A shop page while the sandbox starts: drawn at once and usable, then the full page.

Loading the sandbox (its MCP servers, the Messages emulator and its planner) takes a few
seconds in a new process, longer than drawing the page. Until it runs, a shop page shows
what needs no sandbox: its header (the address chooser says it is loading), the chat so
far from the store, the starter prompts and the chat input. A message sent meanwhile is
shown at once and kept; the full page sends it as soon as the shop runs (and, as always,
settles anything a crash cut off before the model hears it). This page never calls the
model or the shop, so nothing here can half-happen.
"""

from __future__ import annotations

from datetime import timedelta

import streamlit as st

from swiggy_core.models import ChatMessage
from swiggy_core.store import StoreError
from swiggy_core.store.history_cache import EMPTY_HISTORY, History
from swiggy_core.verticals import Vertical, get_vertical
from swiggy_ui import chat_input, state
from swiggy_ui.cart_panel import render_cart_panel
from swiggy_ui.chat_list import render_chat_list
from swiggy_ui.first_paint import ShopFirstPaint, take_early_input
from swiggy_ui.page_header import render_header
from swiggy_ui.runtime import Runtime, start_background_work
from swiggy_ui.suggestion_chips import starter_chips, suggestion_chips

STARTING_NOTE = "Starting the sandbox shop… the page is ready for you in a moment."
QUEUED_NOTE = "Starting the sandbox shop… your message goes out as soon as it is up."
QUEUED_PLACEHOLDER = "Your message goes out as soon as the shop is up…"
# How often the wait looks at the sandbox, and lets a click or a message interrupt it.
POLL_SECONDS = 0.1
# The full page is drawn with the waiting message, then sends it this long after.
SEND_QUEUED_AFTER = timedelta(milliseconds=100)
_KEY_DRAWN = "queued-page-drawn"  # the run that drew that page has called the timer


def render_while_starting(runtime: Runtime, vertical_id: str, first: ShopFirstPaint) -> bool:
    """Draw `vertical_id`'s page while the sandbox starts, wait for it, then run the full
    page. False (drawing nothing more than `first`) when the sandbox runs, or its start
    failed (the full page then shows why)."""
    if not runtime.app.sandbox_starting:
        return False
    vertical = get_vertical(vertical_id)
    page = state.vertical_chat(vertical.id)
    with first.header.container():
        render_header(runtime, vertical)
    history = st.container()
    stored = _stored_history(runtime, vertical)
    messages = list(stored.messages)
    render_cart_panel(runtime, vertical, messages)
    render_chat_list(runtime, vertical)
    take_message(page, vertical, messages, first)
    with history:  # filled after the input: the page is usable before the cards are drawn
        _draw_history(page, vertical, stored)
    start_background_work(runtime)  # only now: the start would slow this page's drawing
    _wait_then_rerun(runtime, page)
    return True


def _stored_history(runtime: Runtime, vertical: Vertical) -> History:
    """The stored chat (a database fault shows on the full page, as it always does)."""
    try:
        conversation_id = runtime.conversation_id(vertical.id)
        return runtime.store.load_history(conversation_id) if conversation_id else EMPTY_HISTORY
    except StoreError:
        return EMPTY_HISTORY


def take_message(
    page: state.VerticalChat,
    vertical: Vertical,
    messages: list[ChatMessage],
    first: ShopFirstPaint,
) -> None:
    """The chat input (unless `first` drew it) and the chips; a message sent is kept for
    the full page to send."""
    if page.queued is not None:  # one is waiting already: the input is busy, as in a reply
        if first.input_drawn:
            typed = chat_input.typed_text(take_early_input(vertical))
        else:
            typed = chat_input.busy_input(vertical, QUEUED_PLACEHOLDER)
        if typed:
            page.keep_unsent(typed)
        return
    message = chat_input.read_or_keep(page, vertical, first)
    if message is None and not messages:
        message = starter_chips(vertical)
    if message is None and messages:
        message = suggestion_chips(vertical, messages)
    page.queued = message


def _draw_history(page: state.VerticalChat, vertical: Vertical, stored: History) -> None:
    if stored.messages:
        # The cards' renderers load here, with a stored chat only (an empty one needs none).
        from swiggy_ui.chat import render_history

        shown = page.show_turns_of(page.conversation_id)
        # No image origin yet: the sandbox serves its images once it runs.
        render_history(
            stored.messages,
            vertical,
            image_origin=None,
            turns_shown=shown,
            turn_starts=stored.turn_starts,
        )
    if page.queued is not None:
        chat_input.show_user(page.queued)


def _wait_then_rerun(runtime: Runtime, page: state.VerticalChat) -> None:
    """Wait for the sandbox with a note on the page, then draw the full page.

    The wait reads this session's state every tick: that is where Streamlit takes a click
    or a message sent meanwhile (it reruns this page, which keeps the message).
    """
    sandbox = runtime.app.sandbox
    assert sandbox is not None  # only the sandbox world has a start to wait for
    with st.spinner(QUEUED_NOTE if page.queued is not None else STARTING_NOTE):
        while not sandbox.wait(POLL_SECONDS):
            state.vertical_chat(page.vertical_id)
    st.rerun()


def draw_queued(page: state.VerticalChat, vertical: Vertical) -> str | None:
    """The first whole page after the sandbox started, drawn to its end with the waiting
    message, which the next run sends; the words typed meanwhile, for the page to keep.

    A run that ends early (as one that sends does) leaves this page's copy of the chat on
    screen beside the new one until a run ends, which a reply's run only does with the
    reply: the chat would show twice meanwhile.
    """
    typed = chat_input.busy_input(vertical, QUEUED_PLACEHOLDER)
    if page.queued is not None:
        chat_input.show_user(page.queued)
    page.queued_drawn = True
    _send_when_drawn()
    return typed


def take_queued(page: state.VerticalChat) -> ChatMessage | None:
    """The waiting message, to send now (its page has been drawn)."""
    queued, page.queued, page.queued_drawn = page.queued, None, False
    st.session_state.pop(_KEY_DRAWN, None)
    return queued


@st.fragment(run_every=SEND_QUEUED_AFTER)
def _send_when_drawn() -> None:
    """Run the whole page again once this run has ended: called in this run, it only notes
    that; its first timed run (Streamlit times it from the run's end) asks for the page."""
    if st.session_state.pop(_KEY_DRAWN, False):
        st.rerun(scope="app")
    st.session_state[_KEY_DRAWN] = True
