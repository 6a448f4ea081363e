"""One vertical's page: header, history with cards, the live turn, approvals, input."""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from swiggy_core.actions import typed_message
from swiggy_core.approval import ApprovalView
from swiggy_core.engine import StreamFailed
from swiggy_core.errors import SwiggyAssistantError
from swiggy_core.hooks import CallScope
from swiggy_core.mcp.manager import shared_manager
from swiggy_core.models import ChatMessage, ErrorInfo
from swiggy_core.parsers import AddressItem
from swiggy_core.report import report_tool_failure
from swiggy_core.store import StoreError
from swiggy_core.turn.handle import TurnHandle
from swiggy_core.turn.session import ChatSession
from swiggy_core.verticals import Vertical, get_vertical
from swiggy_ui import (
    basket_review,
    chat,
    chat_input,
    follow_reply,
    starting_page,
    state,
    turn_states,
)
from swiggy_ui.approval_dialog import render_approval
from swiggy_ui.banners import error_banner, report_offer
from swiggy_ui.cart_panel import render_cart_panel
from swiggy_ui.chat_list import render_chat_list
from swiggy_ui.diet_settings import use_diet
from swiggy_ui.first_paint import ShopFirstPaint
from swiggy_ui.live_turn import ELSEWHERE_PLACEHOLDER, note_late_stop
from swiggy_ui.page_header import render_header
from swiggy_ui.payment_panel import payment_drawer
from swiggy_ui.runtime import Runtime, wait_for_sandbox
from swiggy_ui.safe_text import markdown_text
from swiggy_ui.suggestion_chips import starter_chips
from swiggy_ui.tracking_card import render_active_orders
from swiggy_ui.turn_controls import render_turn_controls


def render_vertical(runtime: Runtime, vertical_id: str, first: ShopFirstPaint) -> None:
    """The whole page for `vertical_id` (pages call only this), once the sandbox runs."""
    vertical = get_vertical(vertical_id)
    wait_for_sandbox(runtime)
    page = state.vertical_chat(vertical.id)
    if first.input_drawn:  # drawn before the app loaded, which then found the shop running:
        st.rerun()  # the next run draws the whole page (and reads what was typed there)
    with first.header.container():
        render_header(runtime, vertical)
    render_active_orders(runtime, vertical)  # orders on their way, live (and the cards' reads)
    session = _guard(page, lambda: runtime.session(vertical.id))
    deferred = False  # a turn held the chat, so a crash it may hide is not settled yet
    if session is not None:  # settled before the history is read: its outcome shows below
        deferred = bool(_guard(page, lambda: turn_states.settle_once(page, session)))
    transcript = _guard(page, session.transcript) if session else None
    messages = list(transcript.messages) if transcript else None
    use_diet(runtime)  # the cards below flag what may not suit the person's diet
    chat.render_history(
        messages or [],
        vertical,
        image_origin=runtime.app.image_origin,
        turns_shown=page.show_turns_of(page.conversation_id),
        turn_starts=transcript.turn_starts if transcript else (),
        payment=payment_drawer(session) if session else None,
        basket=basket_review.drawer(runtime, vertical),
    )
    render_cart_panel(runtime, vertical, messages or [])
    render_chat_list(runtime, vertical)
    if session is None:
        _show_notice(page, vertical)
        return
    handle = session.running()
    if handle is not None:  # a turn started by an earlier run (or another tab): watch it
        _keep_typed(page, chat.busy_input(vertical))
        if page.watching is not None and page.watching.id == handle.id:
            follow_reply.scroll_to_newest(handle.id)  # this page sent it: bring the reply into view
            page.follow_drawn = handle.id
        _watch(page, handle, vertical)
        page.watching = None
        st.rerun()
    if page.watching is not None:  # it ended before a run could watch it: keep its news
        page.follow_drawn = page.watching.id
        _absorb(page, page.watching)
        page.watching = None
    if page.follow_drawn is not None:  # the reply this page sent, drawn in full now
        follow_reply.scroll_to_newest(page.follow_drawn, drawn=True)
        page.follow_drawn = None
    chat_input.show_toast()  # on the settled run: a run that watches a turn ends in a rerun
    if _guard(page, session.replying_elsewhere):
        _keep_typed(page, chat.busy_input(vertical, ELSEWHERE_PLACEHOLDER))
        _show_notice(page, vertical)
        turn_states.wait_for_other_window(page, session)
        return
    handle = _decide(page, session)
    _show_notice(page, vertical, keep=deferred)  # kept for the run that settles
    if handle is None:
        handle = _retry_or_approval(runtime, page, session, messages or [], vertical)
    if handle is None:
        handle = _guard(page, lambda: render_turn_controls(page, session, messages or [], vertical))
    if handle is None:
        handle = _send_input(runtime, page, session, vertical, messages or [])
    if handle is not None:
        # A fresh run shows the stored message, a busy input and the live reply.
        page.conversation_id = session.conversation_id
        page.watching = handle
        st.rerun()
    if deferred:  # what held the chat let go while this run drew it: settle it now
        st.rerun()


def _guard(page: state.VerticalChat, work):  # type: ignore[no-untyped-def]
    """Run one core call; a coded failure becomes the page's notice instead of a crash."""
    try:
        return work()
    except SwiggyAssistantError as error:
        page.notice = _notice(error)
        return None


def _notice(error: SwiggyAssistantError) -> ErrorInfo:
    category = "store" if isinstance(error, StoreError) else "approval"
    return ErrorInfo(code=error.code.value, category=category, message=error.message)


def _watch(page: state.VerticalChat, handle: TurnHandle, vertical: Vertical) -> None:
    _keep_news(page, handle, chat.watch(handle, vertical))


def _absorb(page: state.VerticalChat, handle: TurnHandle) -> None:
    """A finished turn nobody watched: its coded failures and tokens, without replaying it."""
    _keep_news(page, handle, [e for e in handle.events() if isinstance(e, StreamFailed)])


def _keep_news(page: state.VerticalChat, handle: TurnHandle, failures: list[StreamFailed]) -> None:
    """Tokens once per turn, faults the stored reply cannot carry (a refused confirm), and
    a Stop that came after the reply had come in whole."""
    if handle.finished and handle.id not in page.counted_turns:
        page.counted_turns.add(handle.id)
        state.add_usage(handle.usage)
        if handle.stop_came_late:
            note_late_stop()
    kept = [f.error for f in failures if f.error.category in ("approval", "store", "internal")]
    if kept:
        page.notice = kept[-1]


def _decide(page: state.VerticalChat, session: ChatSession) -> TurnHandle | None:
    """A Confirm or Cancel pressed in the dialog, applied to that stored approval only
    (with the address chosen there, which is then remembered as the one to deliver to)."""
    decision = state.pop_decision()
    if decision is None:
        return None
    kind, approval_id, address_id, payment_id = decision
    if kind == "decline":
        declined: TurnHandle | None = _guard(page, lambda: session.decline(approval_id))
        return declined
    address = _offered_address(session, approval_id, address_id)
    if address is not None:
        state.set_active_address(address)
    confirm = lambda: session.confirm(approval_id, address, payment_id)  # noqa: E731
    handle: TurnHandle | None = _guard(page, confirm)
    return handle


def _offered_address(
    session: ChatSession, approval_id: str, address_id: str | None
) -> AddressItem | None:
    """The saved address the dialog offered under this id (None: keep the asked one)."""
    record = session.pending_approval()
    if address_id is None or record is None or record.id != approval_id:
        return None
    for choice in ApprovalView.model_validate(record.view).address_choices:
        if choice.address_id == address_id:
            return AddressItem(address_id=address_id, label=choice.label, address=choice.text)
    return None


def _retry_or_approval(
    runtime: Runtime,
    page: state.VerticalChat,
    session: ChatSession,
    messages: list[ChatMessage],
    vertical: Vertical,
) -> TurnHandle | None:
    last = messages[-1] if messages else None
    error = last.meta.error if last is not None and last.role == "assistant" else None
    if error is None and _guard(
        page, lambda: turn_states.interrupted_banner(session, messages, vertical)
    ):
        handle: TurnHandle | None = _guard(page, session.retry)
        return handle
    if error is not None:
        key = f"err-{vertical.id}-{len(messages)}"
        if error_banner(error, key=key):
            retried: TurnHandle | None = _guard(page, session.retry)
            return retried
        if report_offer(error, key=key):
            _send_report(runtime, vertical, error)
    pending = _guard(page, session.pending_approval)
    if pending is not None:
        render_approval(pending, vertical, runtime.store)
    return None


def _send_input(
    runtime: Runtime,
    page: state.VerticalChat,
    session: ChatSession,
    vertical: Vertical,
    history: list[ChatMessage],
) -> TurnHandle | None:
    if page.queued is not None and not page.queued_drawn:
        _keep_typed(page, starting_page.draw_queued(page, vertical))
        return None
    message = chat_input.read_or_keep(page, vertical)
    if page.queued is not None:  # sent while the sandbox started: it goes out first
        message, page.queued = starting_page.take_queued(page), message
    if message is None and page.unsent:
        message = _unsent_retry(page, vertical)
    if message is None and not history:
        message = starter_chips(vertical)
    if message is None and history:
        message = chat.suggestion_chips(vertical, history)
    if message is None:
        return None
    chat_input.show_user(message)
    shop_list = chat_input.take_list(vertical, message)  # a list: its basket review answers
    handle: TurnHandle | None = _guard(
        page,
        lambda: (
            basket_review.send_list(runtime, vertical, session, shop_list)
            if shop_list
            else session.send(message)
        ),
    )
    if handle is None:
        page.unsent = message.text()  # the store failed: keep the words on screen
        st.rerun()
    page.unsent = None
    return handle


def _keep_typed(page: state.VerticalChat, typed: str | None) -> None:
    """Words sent while a reply ran: kept under "Not sent yet" to send when it is done."""
    if typed:
        page.keep_unsent(typed)
    if page.unsent:  # in view while the reply runs; Send again comes once it is done
        _kept_box(page)


def _unsent_retry(page: state.VerticalChat, vertical: Vertical) -> ChatMessage | None:
    with _kept_box(page):
        if st.button("Send again", key=f"resend-{vertical.id}", icon=":material/send:"):
            return typed_message(page.unsent or "")
    return None


def _kept_box(page: state.VerticalChat) -> DeltaGenerator:
    box = st.container(border=True)
    with box:
        st.caption("Not sent yet (kept for you):")
        st.markdown(markdown_text(page.unsent or ""))
    return box


def _send_report(runtime: Runtime, vertical: Vertical, error: ErrorInfo) -> None:
    setup = runtime.setup(vertical.id)
    url = setup.server_url(vertical.server_key, vertical.server.url)
    answer = report_tool_failure(
        shared_manager(),
        url,
        vertical.server_key,
        runtime.mcp_token(),
        error,
        scope=CallScope(runtime.user_id, vertical.id),
        record=runtime.store.record_tool_call,
    )
    st.info(markdown_text(answer), icon=":material/bug_report:")


def _show_notice(page: state.VerticalChat, vertical: Vertical, *, keep: bool = False) -> None:
    """The page's notice, once (`keep`: this run will be redrawn at once: show it again)."""
    if page.notice is not None:
        notice = page.notice
        if not keep:
            page.notice = None
        error_banner(notice, key=f"notice-{vertical.id}")
