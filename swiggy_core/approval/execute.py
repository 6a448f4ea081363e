"""Run one confirmed spending call, once, and say truthfully what happened.

Swiggy's spending tools are not idempotent and cannot be cancelled, so nothing here ever
calls one twice. When the outcome is unclear (a timeout, an unreadable answer) the app
compares the order ids the shop lists before and after the call instead of retrying. A
shop with no such list (Dineout) is asked the status of the id the answer carried; the
outcome stays "unknown" when it carried none.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from swiggy_core.approval.payment import UPI
from swiggy_core.approval.request_tool import AnswerKind, ApprovalAnswer
from swiggy_core.approval.view import Reader
from swiggy_core.errors import ErrorCode
from swiggy_core.mcp.client import McpCallError
from swiggy_core.parsers import (
    BookingConfirmedResult,
    OrderPlacedResult,
    ParsedToolResult,
    StatusResult,
    parse_tool_result,
)
from swiggy_core.parsers.confirmations import PENDING_PAYMENT
from swiggy_core.parsers.records import iter_nodes
from swiggy_core.shops import StatusRead, shop_for
from swiggy_core.verticals import Vertical

# Statuses of a placed id that say the spend went through.
_BOOKED_STATUSES = frozenset({"CONFIRMED", "COMPLETED", "BOOKED", "SUCCESS"})
_SUMMARY_ID_RE = re.compile(r"\(ID:\s*([A-Za-z0-9_-]+)")
_ID_KEYS = ("orderId", "order_id", "bookingId", "booking_id")
_DONE = (OrderPlacedResult, BookingConfirmedResult)


@dataclass(frozen=True, slots=True)
class Execution:
    """What one confirmed call did: the approval's final status, the answer, the card."""

    status: str  # done | failed | unknown | awaiting_payment (a UPI order not paid yet)
    answer: ApprovalAnswer
    card: ParsedToolResult
    result_text: str


def placed_ids(
    vertical: Vertical, read: Reader, spend_arguments: dict[str, Any] | None = None
) -> set[str] | None:
    """Order ids the account has now; None when they cannot be read (or there is no list)."""
    reader = shop_for(vertical.server_key).placed
    arguments = None if reader is None else reader.arguments(spend_arguments or {})
    if reader is None or arguments is None:
        return None
    try:
        payload = json.loads(read(reader.tool, arguments))
    except (McpCallError, ValueError):
        return None
    if isinstance(payload, dict) and payload.get("success") is False:
        return None  # a refused read is not an empty list
    return {str(value) for value in _id_values(payload)}


def execute(
    vertical: Vertical,
    tool: str,
    arguments: dict[str, Any],
    call: Reader,
    read: Reader,
    before: set[str] | None,
) -> Execution:
    """Call `tool` once with `arguments`; classify the outcome without ever calling again."""
    try:
        text = call(tool, dict(arguments))
    except McpCallError as error:
        if error.code is ErrorCode.TOOL_AUTH:  # refused before anything ran
            return outcome_of(vertical, tool, "failed", _failure_text(error.message), arguments)
        return reconcile(vertical, tool, arguments, read, before, reason=error.message)
    card = parse_tool_result(tool, text, vertical.id, arguments)
    if _awaits_payment(card, arguments):
        return outcome_of(vertical, tool, "awaiting_payment", text, arguments, card=card)
    if isinstance(card, _DONE):
        return outcome_of(vertical, tool, "done", text, arguments, card=card)
    if isinstance(card, StatusResult) and not card.success:
        return outcome_of(vertical, tool, "failed", text, arguments, card=card)
    reason = "Swiggy's answer was unclear"
    return reconcile(vertical, tool, arguments, read, before, reason=reason, answer=text)


def _awaits_payment(card: ParsedToolResult, arguments: dict[str, Any]) -> bool:
    """A UPI order Swiggy made and holds until the person pays (only when UPI was asked:
    a cash order answered so was not placed, and says why)."""
    pending = isinstance(card, StatusResult) and card.code == PENDING_PAYMENT
    return pending and arguments.get("paymentMethod") == UPI


def reconcile(
    vertical: Vertical,
    tool: str,
    arguments: dict[str, Any],
    read: Reader,
    before: set[str] | None,
    *,
    reason: str,
    answer: str = "",
) -> Execution:
    """Find out from the order list (or the placed id's status) whether the call went through."""
    shop = shop_for(vertical.server_key)
    if shop.placed is None:
        return _reconcile_by_status(vertical, shop.status, tool, arguments, read, reason, answer)
    after = placed_ids(vertical, read, arguments)
    if before is not None and after is not None:
        new = sorted(after - before)
        if new:
            text = json.dumps({"success": True, "data": {"orderId": new[0], "status": "PLACED"}})
            return outcome_of(vertical, tool, "done", text, arguments)
        return outcome_of(vertical, tool, "failed", _failure_text(reason), arguments)
    return unknown_outcome(vertical, tool, arguments, reason)


def _reconcile_by_status(
    vertical: Vertical,
    status_read: StatusRead | None,
    tool: str,
    arguments: dict[str, Any],
    read: Reader,
    reason: str,
    answer: str,
) -> Execution:
    """An unclear spend with no list to compare: the status of the id its answer carried."""
    order_id = _answer_order_id(answer)
    if order_id is None or status_read is None:
        return unknown_outcome(vertical, tool, arguments, reason)
    try:
        payload = json.loads(read(status_read.tool, {status_read.id_argument: order_id}))
    except (McpCallError, ValueError):
        return unknown_outcome(vertical, tool, arguments, reason)
    if isinstance(payload, dict) and payload.get("success") is False:
        # Swiggy does not know this id: nothing was made.
        return outcome_of(vertical, tool, "failed", _failure_text(reason), arguments)
    status = next((str(n["status"]) for n in iter_nodes(payload) if "status" in n), "")
    if status.upper() in _BOOKED_STATUSES:
        text = json.dumps({"success": True, "data": {"orderId": order_id, "status": status}})
        return outcome_of(vertical, tool, "done", text, arguments)
    return unknown_outcome(vertical, tool, arguments, reason)


def unknown_outcome(
    vertical: Vertical, tool: str, arguments: dict[str, Any], reason: str
) -> Execution:
    where = f"{shop_for(vertical.server_key).noun}s"
    message = (
        f"{reason}. We couldn't tell whether it went through: check your {where} in the "
        "Swiggy app before trying again."
    )
    return outcome_of(vertical, tool, "unknown", _failure_text(message), arguments)


def _answer_order_id(answer: str) -> str | None:
    """The orderId in an unclear answer: JSON anywhere in it, else a summary's `(ID: …)`."""
    try:
        ids = [str(value) for value in _id_values(json.loads(answer))]
    except ValueError:
        match = _SUMMARY_ID_RE.search(answer)
        return match.group(1) if match else None
    return ids[0] if ids else None


def outcome_of(
    vertical: Vertical,
    tool: str,
    status: str,
    text: str,
    arguments: dict[str, Any],
    *,
    card: ParsedToolResult | None = None,
    message: str | None = None,
) -> Execution:
    """The outcome a status stands for, with its card (parsed from `text` unless given)
    and the model's answer."""
    card = card or parse_tool_result(tool, text, vertical.id, arguments)
    kind: AnswerKind = "confirmed" if status == "done" else "failed"
    if status == "unknown":
        kind = "unknown"
    elif status == "awaiting_payment":
        kind = "awaiting_payment"
    answer = ApprovalAnswer(
        approval=kind,
        tool=tool,
        message=message or _MESSAGES_FOR_MODEL[status].format(what=_what(vertical)),
        result=_payload(text),
    )
    return Execution(status=status, answer=answer, card=card, result_text=text)


# What the model hears; the person sees the outcome's own card (the order, or the reason).
_MESSAGES_FOR_MODEL = {
    "done": "The person confirmed and the app ran it once: {what} went through.",
    "failed": "The person confirmed but Swiggy refused it: {what} did not go through.",
    "unknown": (
        "The person confirmed; the outcome is unknown. Do not retry it: ask them to check "
        "their orders in the Swiggy app."
    ),
    "awaiting_payment": (
        "The person confirmed and chose to pay by UPI: {what} waits for their payment. The "
        "app shows them how to pay and completes it once paid; do not ask again or retry."
    ),
}


def _what(vertical: Vertical) -> str:
    return f"the {shop_for(vertical.server_key).noun}"


def _failure_text(message: str) -> str:
    return json.dumps({"success": False, "error": {"message": message}})


def _payload(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def _id_values(payload: Any) -> Iterator[Any]:
    for node in iter_nodes(payload):
        for key in _ID_KEYS:
            value = node.get(key)
            if isinstance(value, str | int) and not isinstance(value, bool):
                yield value
