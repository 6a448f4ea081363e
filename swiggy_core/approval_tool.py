"""The client tool through which the model asks the person to approve a spending action.

Spending tools are never offered to the model. It calls `request_confirmation` with the
exact tool and arguments instead; that ends its turn, the app stores a pending approval,
and the person decides in a dialog. The app answers the call with an `ApprovalAnswer`.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, Field

from swiggy_core.constants import APPROVAL_TOOL_NAME, CONFIRM_TOOL_BY_SERVER
from swiggy_core.verticals import Vertical

AnswerKind = Literal[
    "confirmed", "declined", "expired", "superseded", "refused", "failed", "unknown"
]


class ApprovalRequest(BaseModel):
    """What the model asked for: one spending tool with its exact arguments."""

    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)


class ApprovalAnswer(BaseModel):
    """The app's answer to a `request_confirmation` call, as the model reads it."""

    approval: AnswerKind
    tool: str
    message: str
    # The spending tool's own result, present only when the app executed it.
    result: Any = None

    def as_text(self) -> str:
        return json.dumps(self.model_dump(mode="json", exclude_none=True), ensure_ascii=False)


def spending_tool_for(vertical: Vertical) -> str:
    """The spending tool of this vertical's server (checkout, place_food_order, book_table)."""
    return CONFIRM_TOOL_BY_SERVER[vertical.server_key]


def approval_tool(vertical: Vertical) -> dict[str, Any]:
    """The client tool definition offered beside the vertical's MCP tools."""
    spender = spending_tool_for(vertical)
    return {
        "name": APPROVAL_TOOL_NAME,
        "description": (
            f"Ask the person to approve `{spender}`. You cannot call it yourself: call this "
            "with the exact tool name and arguments; the app shows the person what will "
            "happen and, only if they press Confirm, runs it once and gives you its result. "
            "Use it only when the person has asked to order or book."
        ),
        "input_schema": {
            "type": "object",
            "properties": {
                "tool": {"type": "string", "enum": [spender]},
                "arguments": {
                    "type": "object",
                    "description": f"The exact arguments for {spender}.",
                },
            },
            "required": ["tool", "arguments"],
        },
    }
