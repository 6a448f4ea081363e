"""The person's decision on a stored approval, as the database records it.

Confirm moves it pending → executing in one transaction with the limit check (one person's
confirmations one at a time), stamped with the amount and day it counts against. Cancel
moves it to declined; a Confirm over a limit moves it to refused. Each move is checked:
a lost race raises the coded reason, and nothing runs.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any, Final

from swiggy_core.approval import ApprovalView, prepare
from swiggy_core.approval.limits import (
    Budget,
    SpendingLimitExceeded,
    check_spend,
    india_day,
    load_limits,
)
from swiggy_core.approval.on_sight import append_answer
from swiggy_core.approval.payment import PaymentChoice, with_payment
from swiggy_core.approval.request_tool import ApprovalAnswer, ApprovalRequest, outcome_error
from swiggy_core.approval.settle import decided_answer
from swiggy_core.approval.view import same_order, spend_amount, spend_facts
from swiggy_core.errors import ActionRefused, ErrorCode
from swiggy_core.models import ErrorInfo
from swiggy_core.parsers import AddressItem
from swiggy_core.store import ApprovalRecord, ApprovalStatus, ChatStore, NewApproval
from swiggy_core.turn.approval_requests import not_pending_error
from swiggy_core.verticals import get_vertical

if TYPE_CHECKING:
    from swiggy_core.approval.steps import SessionSteps

ADDRESS_CHANGED: Final = "Another of your saved addresses was chosen."
PAYMENT_CHANGED: Final = "Another way to pay was chosen."
LIMIT_FOR_MODEL: Final = "The app refused it at Confirm (the person's spending limit):"


def begin_spend(store: ChatStore, user_id: str, record: ApprovalRecord, now: datetime) -> bool:
    """pending → executing if the limits allow it (raises SpendingLimitExceeded); False when
    it is no longer pending or has expired."""
    amount = spend_amount(record)
    limits = load_limits(store, user_id)

    def check(spent_today: int) -> None:
        check_spend(Budget(limits, spent_today), amount)

    started = store.begin_spend(
        record.id, user_id, spend_facts(record, now), check, day=india_day(now), now=now
    )
    if started:
        detail = {"approval": record.id, "tool": record.tool, "arguments": record.arguments}
        store.record_audit(user_id, "confirm", detail, conversation_id=record.conversation_id)
    return started


def begin_confirm(
    store: ChatStore, user_id: str, record: ApprovalRecord, now: datetime
) -> ErrorInfo | None:
    """Start a confirmed spend: None when it may run, or the notice when a limit refused it
    (recorded as refused). Raises the coded reason when it is no longer pending."""
    try:
        started = begin_spend(store, user_id, record, now)
    except SpendingLimitExceeded as error:
        refuse_over_limit(store, user_id, record, error)
        return refused_notice(error)
    if not started:
        raise not_pending_error(store, record.id)
    return None


def refuse_over_limit(
    store: ChatStore, user_id: str, record: ApprovalRecord, error: SpendingLimitExceeded
) -> None:
    """pending → refused with the limit's reason (raises when it was no longer pending)."""
    moved = store.transition_approval(
        record.id, [ApprovalStatus.PENDING], ApprovalStatus.REFUSED, note=error.message
    )
    if not moved:
        raise not_pending_error(store, record.id)
    detail = {"approval": record.id, "reason": error.message}
    store.record_audit(
        user_id, "approval_over_limit", detail, conversation_id=record.conversation_id
    )
    answer = ApprovalAnswer(
        approval="refused",
        tool=record.tool,
        message=f"{LIMIT_FOR_MODEL} {error.message}",
        shown=error.message,
        code=error.code.value,
    )
    append_answer(store, record, answer)


def refused_notice(error: SpendingLimitExceeded) -> ErrorInfo:
    """A Confirm refused over a limit, as the refused approval's card shows it."""
    return outcome_error(error.code, error.message)


def decline(store: ChatStore, user_id: str, record: ApprovalRecord) -> None:
    """pending → declined, and the model's answer: the person pressed Cancel."""
    moved = store.transition_approval(record.id, [ApprovalStatus.PENDING], ApprovalStatus.DECLINED)
    if not moved:
        raise not_pending_error(store, record.id)
    detail = {"approval": record.id, "tool": record.tool}
    store.record_audit(user_id, "decline", detail, conversation_id=record.conversation_id)
    vertical = get_vertical(record.vertical_id)
    append_answer(store, record, decided_answer(vertical, record, ApprovalStatus.DECLINED))


def rechoose(
    steps: SessionSteps,
    record: ApprovalRecord,
    address: AddressItem | None = None,
    payment: str | None = None,
) -> ApprovalRecord:
    """The same order to another saved address, or paid another way, chosen in the dialog.

    The cart is read again (for that address) and stored as a new pending approval with
    the exact arguments it will run with (the old one is superseded). When the lines or
    the total differ from what the person saw, the new one waits for them to look again
    (E-1103) instead of going ahead.
    """
    view = ApprovalView.model_validate(record.view)
    arguments = dict(record.arguments)
    if address is not None:
        offered = {choice.address_id for choice in view.address_choices}
        if address.address_id not in offered:
            raise ActionRefused(
                "That is not one of your saved addresses.", code=ErrorCode.APPROVAL_INVALID
            )
        arguments["addressId"] = address.address_id
    else:
        address = AddressItem(
            address_id=str(arguments.get("addressId") or ""),
            label=view.address_label or "",
            address=view.address_text or "",
        )
    if payment is not None:
        arguments = with_payment(arguments, _offered_payment(view, payment))
    store = steps.store
    note = (
        ADDRESS_CHANGED
        if arguments.get("addressId") != record.arguments.get("addressId")
        else PAYMENT_CHANGED
    )
    moved = store.transition_approval(
        record.id, [ApprovalStatus.PENDING], ApprovalStatus.SUPERSEDED, note=note
    )
    if not moved:
        raise not_pending_error(store, record.id)
    request = ApprovalRequest(tool=record.tool, arguments=arguments)
    prepared = prepare(steps.vertical, request, address, steps.read)
    kept: dict[str, Any] = {"address_choices": view.address_choices}
    if not prepared.view.payment_choices:  # offered when first asked; kept as shown
        kept["payment_choices"] = view.payment_choices
    shown = prepared.view.model_copy(update=kept)
    new = store.create_approval(
        NewApproval(
            user_id=record.user_id,
            conversation_id=record.conversation_id,
            vertical_id=record.vertical_id,
            server_key=record.server_key,
            tool=record.tool,
            arguments=prepared.arguments,
            digest=prepared.digest,
            view=shown.model_dump(mode="json"),
            tool_use_id=record.tool_use_id,
            expires_at=steps.expires_at(),
        )
    )
    if not same_order(view, prepared.view):
        raise ActionRefused(
            "Your cart comes to something different for that address: look at it again "
            "and confirm.",
            code=ErrorCode.APPROVAL_CHANGED,
        )
    return new


def _offered_payment(view: ApprovalView, payment: str) -> PaymentChoice:
    """The way to pay the dialog offered under this id (never one it did not offer)."""
    choice = next((c for c in view.payment_choices if c.id == payment), None)
    if choice is None:
        raise ActionRefused(
            "That way of paying is not offered for this order.", code=ErrorCode.APPROVAL_INVALID
        )
    return choice
