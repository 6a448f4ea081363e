"""The Confirm dialog: exactly what a stored approval will do, and Confirm / Cancel.

It opens only for an approval the core stored; the buttons pass its id, never words.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

import streamlit as st

from swiggy_core.approval import ApprovalView, approval_amount
from swiggy_core.approval.limits import SpendingLimitExceeded, budget_for, check_spend
from swiggy_core.approval.payment import offered_here
from swiggy_core.errors import ErrorCode
from swiggy_core.formatting import rupees
from swiggy_core.store import ApprovalRecord, ChatStore, StoreError
from swiggy_core.verticals import Vertical
from swiggy_ui import state
from swiggy_ui.banners import CONNECTIONS_PAGE, support_code
from swiggy_ui.cards.rows import amount_row, bill_rows
from swiggy_ui.safe_text import plain


@dataclass(frozen=True, slots=True)
class LimitsNote:
    """The person's limits as the dialog shows them, read when the bar is drawn."""

    summary: str
    over: bool = False


def render_approval(record: ApprovalRecord, vertical: Vertical, store: ChatStore) -> None:
    """A bar naming what waits for the person; the dialog opens once by itself."""
    view = ApprovalView.model_validate(record.view)
    chat = state.vertical_chat(vertical.id)
    with st.container(border=True, key=f"approval-bar-{vertical.id}"):
        st.markdown(f":material/pending_actions: **Waiting for your confirmation** · {_gist(view)}")
        if (
            st.button(
                "Review and confirm",
                key=f"review-{record.id}",
                type="primary",
                icon=":material/fact_check:",
            )
            or record.id not in chat.dialogs_opened
        ):
            chat.dialogs_opened.add(record.id)
            _dialog(record.id, view, _limits_note(record, view, store))


def _limits_note(record: ApprovalRecord, view: ApprovalView, store: ChatStore) -> LimitsNote:
    """Today's limits (they may have changed since the request) and whether this fits."""
    try:
        budget = budget_for(store, record.user_id, datetime.now(UTC))
    except StoreError:
        return LimitsNote("Your spending limits could not be read just now.")
    try:
        check_spend(budget, approval_amount(view))
    except SpendingLimitExceeded:
        return LimitsNote(budget.summary(), over=True)
    return LimitsNote(budget.summary())


def _gist(view: ApprovalView) -> str:
    """One line of Markdown; the names and times in it come from tools, so are escaped."""
    if view.kind == "action":
        return plain(view.title)
    if view.kind == "booking":
        return " · ".join(
            part
            for part in (
                plain(view.restaurant_name),
                plain(view.date_text),
                plain(view.time_text),
                f"{view.guests} guests" if view.guests else None,
            )
            if part
        )
    total = rupees(view.to_pay) if view.to_pay is not None else ""
    count = sum(line.quantity for line in view.lines)
    address = plain(view.address_label) or "address"
    return f"{count} item{'s' if count != 1 else ''} · {total} · {address}"


@st.dialog("Please confirm", width="medium")
def _dialog(approval_id: str, view: ApprovalView, limits: LimitsNote) -> None:
    st.subheader(plain(view.title))
    if view.kind == "action":
        _action(view)
    elif view.kind == "booking":
        _booking(view)
        _limits(limits)
    else:
        _order(approval_id, view, limits)
    for note in view.notes:
        st.caption(f":material/info: {plain(note)}")
    yes, no = st.columns(2)
    chosen = address_key(approval_id) if view.address_choices else None
    paid_by = payment_key(approval_id) if len(view.payment_choices) > 1 else None
    # The callbacks record the decision before any script runs; the full rerun that
    # follows applies it (a button inside a dialog otherwise reruns only the dialog).
    confirmed = yes.button(
        "Confirm",
        key=f"confirm-{approval_id}",
        type="primary",
        icon=":material/check:",
        width="stretch",
        on_click=state.queue_decision,
        args=("confirm", approval_id, chosen, paid_by),
    )
    declined = no.button(
        "Cancel",
        key=f"cancel-{approval_id}",
        width="stretch",
        on_click=state.queue_decision,
        args=("decline", approval_id),
    )
    if confirmed or declined:
        st.rerun()


def _limits(note: LimitsNote) -> None:
    """The limits next to the total; above them, a warning that Confirm will refuse."""
    st.caption(f":material/savings: {note.summary}")
    if note.over:
        st.warning(
            "This is above your spending limits, so Confirm will refuse it. Change the limits "
            "on Connections, or change the order.",
            icon=":material/savings:",
        )
        support_code(ErrorCode.SPENDING_LIMIT)
        st.page_link(CONNECTIONS_PAGE, label="Spending limits", icon=":material/settings:")


def address_key(approval_id: str) -> str:
    """Where the address chosen in this approval's dialog is kept (not a widget key: a
    widget's state ends when the dialog closes, the choice must not)."""
    return f"deliver-to::{approval_id}"


def _address_choice(approval_id: str, view: ApprovalView) -> None:
    """Where it goes, changeable here: the saved addresses, the asked one first."""
    labels = {
        choice.address_id: " · ".join(part for part in (choice.label, choice.text) if part)
        for choice in view.address_choices
    }
    kept = address_key(approval_id)
    current = st.session_state.get(kept, view.address_id)
    _kept_radio(":material/location_on: Deliver to", kept, labels, current)


def payment_key(approval_id: str) -> str:
    """Where the way to pay chosen in this approval's dialog is kept (as the address)."""
    return f"pay-by::{approval_id}"


def _payment_choice(approval_id: str, view: ApprovalView) -> None:
    """How to pay: cash, or UPI the way this device pays (a QR on a computer, an app on a
    phone); never a UPI id."""
    offered = offered_here(view.payment_choices, phone=on_phone())
    labels = {choice.id: choice.label for choice in offered}
    asked = next((c.id for c in offered if c.label == view.payment), offered[0].id)
    kept = payment_key(approval_id)
    if st.session_state.get(kept) not in labels:  # Confirm pays the way shown, untouched
        st.session_state[kept] = asked
    _kept_radio(":material/payments: Pay by", kept, labels, st.session_state[kept])


def _kept_radio(label: str, kept: str, labels: dict[str, str], current: object) -> None:
    """A choice in the dialog, its value kept under `kept` past the dialog's end."""
    ids = list(labels)
    widget = f"{kept}::widget"

    def keep() -> None:
        st.session_state[kept] = st.session_state[widget]

    st.radio(
        label,
        options=ids,
        index=ids.index(current) if current in ids else 0,
        format_func=lambda choice_id: labels[choice_id],
        key=widget,
        on_change=keep,
    )


def on_phone() -> bool:
    """Whether this browser is a phone's (it pays through a UPI app, not a QR)."""
    agent = st.context.headers.get("User-Agent", "") or ""
    return any(word in agent for word in ("Mobi", "Android", "iPhone"))


def _order(approval_id: str, view: ApprovalView, limits: LimitsNote) -> None:
    if view.restaurant_name:
        st.markdown(f"**{plain(view.restaurant_name)}**")
    for line in view.lines:
        size = f" · {plain(line.quantity_description)}" if line.quantity_description else ""
        total = rupees(line.line_total) if line.line_total is not None else ""
        amount_row(f"{line.quantity} × {plain(line.name)}{size}", total)
    st.divider()
    bill_rows(view.bill, view.to_pay)
    _limits(limits)
    where = " · ".join(plain(part) for part in (view.address_label, view.address_text) if part)
    if view.address_choices:
        _address_choice(approval_id, view)
    else:
        st.markdown(f":material/location_on: Deliver to **{where or 'your chosen address'}**")
    if len(view.payment_choices) > 1:
        _payment_choice(approval_id, view)
    else:
        st.markdown(f":material/payments: {plain(view.payment) or 'Cash on delivery'}")
    if view.note_to_restaurant:
        st.caption(f"Note to the restaurant: {plain(view.note_to_restaurant)}")


def _booking(view: ApprovalView) -> None:
    st.markdown(f"**{plain(view.restaurant_name) or 'The restaurant'}**")
    st.markdown(f":material/event: {plain(view.date_text)} at **{plain(view.time_text)}**")
    st.markdown(f":material/group: {view.guests} guest{'s' if view.guests != 1 else ''}")


def _action(view: ApprovalView) -> None:
    """One call of a tool on a server the person added: the exact arguments it gets."""
    st.markdown(f":material/dns: Your server **{plain(view.server_label)}**")
    st.caption("It will be called once, with exactly these arguments:")
    st.code(view.arguments_text or "{}", language="json")
