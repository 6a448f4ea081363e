"""A UPI order's payment where its confirmation was: the QR code (or the UPI app's link),
a countdown, and the outcome once Swiggy has it.

While the payment is under way a fragment reruns at Swiggy's polling interval and asks
the core for one step (`ChatSession.advance_payment`: a poll, or the confirm once paid);
the ledger decides everything, so a second tab watching the same payment only draws
what the first one recorded. When the payment ends the whole page reruns once, and the
outcome's card (the order placed, or "not paid, nothing ordered") replaces the panel.
"""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta

import segno
import streamlit as st

from swiggy_core.approval.upi import PaymentProgress, progress_of
from swiggy_core.formatting import rupees
from swiggy_core.parsers import StatusResult, parse_tool_result
from swiggy_core.store import StoreError
from swiggy_core.turn.session import ChatSession
from swiggy_ui.banners import support_code
from swiggy_ui.cards import CardContext, render_result
from swiggy_ui.chat import PaymentDrawer

_QR_PIXELS = 220


def payment_drawer(session: ChatSession) -> PaymentDrawer:
    """Draws the payment of one of this chat's approvals, as its card."""

    def draw(approval_id: str, ctx: CardContext) -> None:
        record = session.store.get_approval(approval_id)
        if record is None or record.user_id != session.user_id:
            return
        progress = progress_of(record, datetime.now(UTC))
        if progress.waiting:
            _live(session, approval_id, progress, ctx.key)
        else:
            _outcome(record.tool, record.vertical_id, progress, ctx)

    return draw


def _live(session: ChatSession, approval_id: str, first: PaymentProgress, key: str) -> None:
    seconds = first.payment.poll_seconds if first.payment else 5.0

    @st.fragment(run_every=timedelta(seconds=seconds))
    def panel() -> None:
        try:
            progress = session.advance_payment(approval_id)
        except StoreError as error:
            st.caption(f":material/sync_problem: {error.message}")
            support_code(error.code)
            return
        if not progress.waiting:
            st.rerun()  # the whole page: the outcome replaces the panel
        _waiting(progress, key)

    with st.container(border=True, key=f"payment-{key}"):
        panel()


def _waiting(progress: PaymentProgress, key: str) -> None:
    payment = progress.payment
    if payment is None:
        return
    amount = f" {rupees(payment.amount)}" if payment.amount else ""
    if progress.status.value == "paid_confirming":
        st.markdown(":material/hourglass_top: **Paid.** Confirming your order with Swiggy…")
        return
    st.markdown(f":material/qr_code_2: **Pay{amount} by UPI** to place your order")
    if payment.is_qr and payment.intent_url:
        st.image(_qr_png(payment.intent_url), width=_QR_PIXELS)
        st.caption("Scan this code with any UPI app on your phone.")
    elif payment.intent_url:
        st.link_button(
            "Open your UPI app to pay", payment.intent_url, icon=":material/open_in_new:"
        )
    if payment.bridge_url:
        st.link_button("Open the payment page", payment.bridge_url, type="tertiary")
    minutes, seconds = divmod(int(progress.seconds_left), 60)
    st.caption(
        f":material/timer: Waiting for your payment · {minutes}:{seconds:02d} left. "
        "Nothing is ordered until you have paid."
    )


def _outcome(tool: str, vertical_id: str, progress: PaymentProgress, ctx: CardContext) -> None:
    """The order placed, or why it was not: from the ledger, as the order's own card."""
    text = progress.outcome_text
    card = parse_tool_result(tool, text, vertical_id) if text else None
    if card is None:
        card = StatusResult(success=False, message="Not paid, so nothing was ordered.")
    render_result(card, ctx)
    if progress.code is not None:
        support_code(progress.code.value)


def _qr_png(link: str) -> bytes:
    """The payment link as a QR code, drawn here (the link never leaves the app)."""
    buffer = io.BytesIO()
    segno.make(link, error="m").save(buffer, kind="png", scale=6, border=2)
    return buffer.getvalue()
