"""A UPI order after Confirm: poll its payment, confirm it once paid, settle it on sight.

The confirmed spending call ran once and Swiggy answered `PENDING_PAYMENT`: the order
exists but is not placed until it is paid. The payment panel calls `advance_payment`
at Swiggy's polling interval; each call does at most one step:

- awaiting_payment: one `check_payment_status` when the interval has passed. A terminal
  failure, or no success by the deadline Swiggy gave, ends it as failed: not paid,
  nothing ordered, never confirmed. A success Swiggy already confirmed (`confirmed=true`)
  is done without another call. Any other success moves it to paid_confirming in a
  compare-and-set, so exactly one process goes on to confirm it.
- paid_confirming: `confirm_order`, counted on the approval before it is sent. An
  unclear answer (or a process that died around the call) is settled by asking the
  payment's status first; only a success still unconfirmed is confirmed again, which
  Swiggy documents as idempotent for the same ids.

Every status change is a checked move of the approval ledger, and each outcome writes
the spend's settling entry (today's spending stops counting a payment never made).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from swiggy_core.approval.limits import SETTLED_AUDIT
from swiggy_core.approval.payment import (
    PAYMENT_KEY,
    PendingPayment,
    confirm_result,
    payment_check,
)
from swiggy_core.approval.settle import TEXT_KEY, TOLD_KEY
from swiggy_core.approval.steps import SessionSteps
from swiggy_core.errors import ErrorCode
from swiggy_core.mcp.client import McpCallError
from swiggy_core.store import ApprovalRecord, ApprovalStatus
from swiggy_core.store.approval_states import PAYING

S = ApprovalStatus
STATUS_TOOL: Final = "check_payment_status"
CONFIRM_TOOL: Final = "confirm_order"
# The support code of a payment that did not place the order.
_CODES: Final = {S.FAILED: ErrorCode.PAYMENT_NOT_MADE, S.UNKNOWN: ErrorCode.APPROVAL_UNKNOWN}
# An unclear confirm is asked about and sent again at most this many times in all.
MAX_CONFIRM_CALLS: Final = 3

NOT_PAID: Final = "Not paid, so nothing was ordered."
NOT_PAID_IN_TIME: Final = "Not paid in time, so nothing was ordered."
NOT_CHECKED: Final = (
    "We could not find out whether you paid: check your orders in the Swiggy app before "
    "paying again."
)
PAID_NOT_CONFIRMED: Final = (
    "Your payment went through but Swiggy did not confirm the order: check your orders in "
    "the Swiggy app before paying again."
)
_TOLD_FOR_MODEL: Final = {
    S.DONE: "The person paid by UPI and the app confirmed the order once: it is placed.",
    S.FAILED: "The UPI payment was not made; nothing was ordered. Do not retry by itself.",
    S.UNKNOWN: (
        "The UPI payment's outcome is unclear. Do not retry: ask the person to check their "
        "orders in the Swiggy app."
    ),
}


@dataclass(frozen=True, slots=True)
class PaymentProgress:
    """Where a UPI payment stands, as the payment panel shows it."""

    status: ApprovalStatus
    payment: PendingPayment | None
    seconds_left: float  # until Swiggy stops waiting for the payment
    outcome_text: str | None  # the order (done) or the reason (failed, unknown) as JSON
    code: ErrorCode | None = None  # why it was not placed, for support

    @property
    def waiting(self) -> bool:
        return self.status in PAYING


def payment_of(record: ApprovalRecord) -> PendingPayment | None:
    """The pending payment stored on a UPI approval (None on any other)."""
    stored = (record.result or {}).get(PAYMENT_KEY)
    return PendingPayment.model_validate(stored) if isinstance(stored, dict) else None


def progress_of(record: ApprovalRecord, now: datetime) -> PaymentProgress:
    """What the ledger says about this payment now (no call)."""
    payment = payment_of(record)
    left = max(0.0, (payment.deadline - now).total_seconds()) if payment else 0.0
    facts = record.result or {}
    text = facts.get(TEXT_KEY)
    outcome = None if record.status in PAYING or not isinstance(text, str) else text
    code = _CODES.get(record.status) if outcome is not None else None
    return PaymentProgress(record.status, payment, left, outcome, code)


def advance_payment(steps: SessionSteps, record: ApprovalRecord) -> PaymentProgress:
    """At most one step of this payment (see the module's docstring), then where it stands."""
    now = steps.now()
    payment = payment_of(record)
    if record.status not in PAYING or payment is None:
        return progress_of(record, now)
    if record.status == S.AWAITING_PAYMENT:
        if not payment.due(now) and now < payment.deadline:
            return progress_of(record, now)
        _poll(steps, record, payment, now)
    else:
        _confirm(steps, record, payment)
    fresh = steps.store.get_approval(record.id)
    return progress_of(fresh or record, now)


def _poll(
    steps: SessionSteps, record: ApprovalRecord, payment: PendingPayment, now: datetime
) -> None:
    check = payment_check(_read(steps, STATUS_TOOL, payment.status_arguments()))
    payment = payment.model_copy(update={"polls": payment.polls + 1, "last_poll": now})
    if check is not None and check.failed:
        _finish(steps, record, payment, S.FAILED, _failure(NOT_PAID))
    elif check is not None and check.succeeded and check.confirmed:
        _finish(steps, record, payment, S.DONE, _placed(payment))
    elif check is not None and check.succeeded:
        facts = _facts(record, payment)
        if steps.move(record, S.CONFIRMING_PAYMENT, facts=facts, start=S.AWAITING_PAYMENT):
            moved = steps.store.get_approval(record.id)
            if moved is not None:
                _confirm(steps, moved, payment)
    elif now >= payment.deadline:
        target, reason = (S.FAILED, NOT_PAID_IN_TIME) if check else (S.UNKNOWN, NOT_CHECKED)
        _finish(steps, record, payment, target, _failure(reason))
    else:  # still waiting: remember the poll (only while it is still awaiting payment)
        steps.store.record_approval_facts(record.id, S.AWAITING_PAYMENT, _facts(record, payment))


def _confirm(steps: SessionSteps, record: ApprovalRecord, payment: PendingPayment) -> None:
    """Confirm a paid order; after an earlier unclear confirm, ask the payment first."""
    if payment.confirm_calls:
        check = payment_check(_read(steps, STATUS_TOOL, payment.status_arguments()))
        if check is not None and check.confirmed:
            _finish(steps, record, payment, S.DONE, _placed(payment))
            return
        if check is None or not check.succeeded or payment.confirm_calls >= MAX_CONFIRM_CALLS:
            _finish(steps, record, payment, S.UNKNOWN, _failure(PAID_NOT_CONFIRMED))
            return
    payment = payment.model_copy(update={"confirm_calls": payment.confirm_calls + 1})
    # Counted before it is sent: a crash from here on asks before confirming again.
    if not steps.store.record_approval_facts(
        record.id, S.CONFIRMING_PAYMENT, _facts(record, payment)
    ):
        return
    result = confirm_result(_read(steps, CONFIRM_TOOL, payment.confirm_arguments()))
    if result == "success":
        _finish(steps, record, payment, S.DONE, _placed(payment))
    elif result in ("failed", "pending") or payment.confirm_calls >= MAX_CONFIRM_CALLS:
        _finish(steps, record, payment, S.UNKNOWN, _failure(PAID_NOT_CONFIRMED))
    # else: unclear; the next step asks the payment's status before confirming again


def _finish(
    steps: SessionSteps,
    record: ApprovalRecord,
    payment: PendingPayment,
    target: ApprovalStatus,
    text: str,
) -> None:
    """Move the payment to its outcome and settle the spend (once: the move is checked)."""
    facts = {**_facts(record, payment), TEXT_KEY: text, TOLD_KEY: _TOLD_FOR_MODEL[target]}
    if not steps.move(record, target, facts=facts, start=record.status):
        return
    outcome = "done" if target == S.DONE else target.value
    detail = {"vertical": steps.vertical.id, "approval": record.id, "outcome": outcome}
    detail["id"] = payment.order_id
    steps.store.record_audit(
        steps.user_id, SETTLED_AUDIT, detail, conversation_id=record.conversation_id
    )


def _read(steps: SessionSteps, tool: str, arguments: dict[str, Any]) -> str:
    """One call of the shop's server, audited; an unreachable server reads as no answer."""
    try:
        return steps.calls.call(tool, arguments)
    except McpCallError:
        return ""


def _facts(record: ApprovalRecord, payment: PendingPayment) -> dict[str, Any]:
    return {**(record.result or {}), PAYMENT_KEY: payment.model_dump(mode="json")}


def _placed(payment: PendingPayment) -> str:
    """The order as placed, in the shape a spending call answers it."""
    data: dict[str, Any] = {"orderId": payment.order_id, "status": "CONFIRMED"}
    data |= {"paymentMethod": "UPI", "cartTotal": payment.amount}
    return json.dumps({"success": True, "data": data})


def _failure(message: str) -> str:
    return json.dumps({"success": False, "error": {"message": message}})
