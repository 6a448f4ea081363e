"""Run one confirmed spending call, once, and say truthfully what happened.

Swiggy's spending tools are not idempotent and cannot be cancelled, so nothing here ever
calls one twice. When the outcome is unclear (a timeout, an unreadable answer) the app
compares the order or booking ids listed before and after the call instead of retrying.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from swiggy_core.approval.view import Reader
from swiggy_core.approval_tool import AnswerKind, ApprovalAnswer
from swiggy_core.errors import ErrorCode
from swiggy_core.mcp.client import McpCallError
from swiggy_core.parsers import (
    BookingConfirmedResult,
    OrderPlacedResult,
    ParsedToolResult,
    StatusResult,
    parse_tool_result,
)
from swiggy_core.parsers.records import iter_nodes
from swiggy_core.verticals import Vertical

# Read tools that list what was placed, by server key, with their arguments.
STATUS_READERS: dict[str, tuple[str, dict[str, Any]]] = {
    "instamart": ("get_orders", {}),
    "food": ("get_food_orders", {}),
    "dineout": ("get_booking_status", {}),
}
# Arguments of the spending call that its status reader needs too (Food lists orders per address).
_READER_KEYS: dict[str, tuple[str, ...]] = {"food": ("addressId",)}
_ID_KEYS = ("orderId", "order_id", "bookingId", "booking_id")
_DONE = (OrderPlacedResult, BookingConfirmedResult)


@dataclass(frozen=True, slots=True)
class Execution:
    """What one confirmed call did: the approval's final status, the answer, the card."""

    status: str  # done | failed | unknown
    answer: ApprovalAnswer
    card: ParsedToolResult
    result_text: str


def placed_ids(
    vertical: Vertical, read: Reader, spend_arguments: dict[str, Any] | None = None
) -> set[str] | None:
    """Order or booking ids the account has now; None when they cannot be read."""
    tool, arguments = STATUS_READERS[vertical.server_key]
    arguments = dict(arguments)
    for key in _READER_KEYS.get(vertical.server_key, ()):
        value = (spend_arguments or {}).get(key)
        if value in (None, ""):
            return None
        arguments[key] = value
    try:
        payload = json.loads(read(tool, arguments))
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
            return _outcome(vertical, tool, "failed", _failure_text(error.message), arguments)
        return reconcile(vertical, tool, arguments, read, before, reason=error.message)
    card = parse_tool_result(tool, text, vertical.id, arguments)
    if isinstance(card, _DONE):
        return _outcome(vertical, tool, "done", text, arguments, card=card)
    if isinstance(card, StatusResult) and not card.success:
        return _outcome(vertical, tool, "failed", text, arguments, card=card)
    return reconcile(vertical, tool, arguments, read, before, reason="Swiggy's answer was unclear")


def reconcile(
    vertical: Vertical,
    tool: str,
    arguments: dict[str, Any],
    read: Reader,
    before: set[str] | None,
    *,
    reason: str,
) -> Execution:
    """Find out from the order or booking list whether the call went through."""
    after = placed_ids(vertical, read, arguments)
    if before is not None and after is not None:
        new = sorted(after - before)
        if new:
            key = "bookingId" if vertical.server_key == "dineout" else "orderId"
            text = json.dumps({"success": True, "data": {key: new[0], "status": "PLACED"}})
            return _outcome(vertical, tool, "done", text, arguments)
        return _outcome(vertical, tool, "failed", _failure_text(reason), arguments)
    message = (
        f"{reason}. The app could not tell whether it went through: check your orders in "
        "Swiggy before trying again."
    )
    return _outcome(vertical, tool, "unknown", _failure_text(message), arguments)


def _outcome(
    vertical: Vertical,
    tool: str,
    status: str,
    text: str,
    arguments: dict[str, Any],
    *,
    card: ParsedToolResult | None = None,
) -> Execution:
    card = card or parse_tool_result(tool, text, vertical.id, arguments)
    kind: AnswerKind = "confirmed" if status == "done" else "failed"
    if status == "unknown":
        kind = "unknown"
    answer = ApprovalAnswer(
        approval=kind,
        tool=tool,
        message=_MESSAGES[status].format(what=_what(vertical)),
        result=_payload(text),
    )
    return Execution(status=status, answer=answer, card=card, result_text=text)


_MESSAGES = {
    "done": "The person confirmed and the app ran it once: {what} went through.",
    "failed": "The person confirmed but Swiggy refused it: {what} did not go through.",
    "unknown": "The person confirmed; the outcome is unknown. Do not retry it.",
}


def _what(vertical: Vertical) -> str:
    return "the booking" if vertical.server_key == "dineout" else "the order"


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
