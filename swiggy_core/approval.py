"""The approval gate: when to offer Confirm, and which tool a confirmation unlocks.

Money-spending tools stay disabled in every request (see the request builder) unless the
turn's user message is an explicit `confirm` card action. This module decides when the UI
should offer that button: after the person asked to check out or book and the assistant
answered without placing anything.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from swiggy_core.actions import parse_action, visible_text
from swiggy_core.constants import CONFIRM_TOOL_BY_SERVER
from swiggy_core.models import (
    ChatMessage,
    ContentBlock,
    McpToolResultBlock,
    McpToolUseBlock,
    ToolResultBlock,
    ToolUseBlock,
    result_text,
)
from swiggy_core.parsers import parse_tool_result
from swiggy_core.verticals import get_vertical

_SPEND_INTENT_RE = re.compile(
    r"\b(place|confirm|checkout|check out|book|reserve|order now|pay)\b", re.IGNORECASE
)
_SPEND_ACTIONS = frozenset({"request_checkout", "pick_slot"})
_DONE_TYPES = frozenset({"order_placed", "booking_confirmed"})


def confirm_tool_for(vertical_id: str) -> str:
    """The spending tool a Confirm button unlocks in this vertical."""
    return CONFIRM_TOOL_BY_SERVER[get_vertical(vertical_id).server_key]


def pending_confirmation(messages: Sequence[ChatMessage], vertical_id: str) -> str | None:
    """The tool awaiting the person's yes, or None when nothing is pending."""
    if len(messages) < 2 or messages[-1].role != "assistant":
        return None
    user = messages[-2]
    if user.role != "user":
        return None
    action = parse_action(user)
    if action is not None and action.kind in ("confirm", "cancel"):
        return None
    asked = (action is not None and action.kind in _SPEND_ACTIONS) or bool(
        _SPEND_INTENT_RE.search(visible_text(user))
    )
    if not asked or _completed(messages[-1], vertical_id):
        return None
    return confirm_tool_for(vertical_id)


def _completed(message: ChatMessage, vertical_id: str) -> bool:
    """True when the reply already holds a successful order or booking."""
    names = {
        b.id: b.name for b in message.blocks() if isinstance(b, McpToolUseBlock | ToolUseBlock)
    }
    for block in message.blocks():
        if isinstance(block, McpToolResultBlock | ToolResultBlock):
            name = names.get(block.tool_use_id, "")
            parsed = parse_tool_result(
                name, result_text(block), vertical_id, is_error=block.is_error
            )
            if parsed.type in _DONE_TYPES:
                return True
    return False


def audit_events(
    user_message: ChatMessage, reply: Sequence[ContentBlock], vertical_id: str
) -> list[tuple[str, dict[str, object]]]:
    """What the audit trail keeps of a turn: the person's yes/no and every spending call."""
    events: list[tuple[str, dict[str, object]]] = []
    action = parse_action(user_message)
    if action is not None and action.kind in ("confirm", "cancel"):
        events.append((action.kind, {"vertical": vertical_id, "tool": action.tool_name}))
    policy = get_vertical(vertical_id).tool_policy
    uses = {b.id: b for b in reply if isinstance(b, McpToolUseBlock | ToolUseBlock)}
    for block in reply:
        if not isinstance(block, McpToolResultBlock | ToolResultBlock):
            continue
        use = uses.get(block.tool_use_id)
        if use is None or not policy.is_money_spending(use.name):
            continue
        parsed = parse_tool_result(
            use.name, result_text(block), vertical_id, use.input, is_error=block.is_error
        )
        events.append(
            (
                "spend_call",
                {
                    "vertical": vertical_id,
                    "tool": use.name,
                    "input": use.input,
                    "outcome": parsed.type,
                    "id": getattr(parsed, "order_id", None) or getattr(parsed, "booking_id", None),
                },
            )
        )
    return events
