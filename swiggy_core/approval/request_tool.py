"""The client tool through which the model asks the person to approve a spending action.

Spending tools are never offered to the model. It calls `request_confirmation` with the
exact tool and arguments instead; that ends its turn, the app stores a pending approval,
and the person decides in a dialog. The app answers the call with an `ApprovalAnswer`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, Field

from swiggy_core.constants import APPROVAL_TOOL_NAME
from swiggy_core.errors import ErrorCode
from swiggy_core.models import ErrorInfo
from swiggy_core.shops import shop_for
from swiggy_core.verticals import Vertical

AnswerKind = Literal[
    "confirmed",
    "declined",
    "expired",
    "superseded",
    "refused",
    "failed",
    "unknown",
    "awaiting_payment",
]


class ApprovalRequest(BaseModel):
    """What the model asked for: one spending tool with its exact arguments."""

    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)


class ApprovalAnswer(BaseModel):
    """The app's answer to a `request_confirmation` call, as the model reads it.

    `message` is written for the model and never shown; `shown` is what the person was
    shown of the outcome (its card or notice), in their words, with `code` for support.
    """

    approval: AnswerKind
    tool: str
    message: str
    # The spending tool's own result, present only when the app executed it.
    result: Any = None
    shown: str | None = None
    code: str | None = None

    def as_text(self) -> str:
        return json.dumps(self.model_dump(mode="json", exclude_none=True), ensure_ascii=False)


# A failure the chat already shows on an approval's outcome card (with its code): pages do
# not repeat it as a notice.
OUTCOME_CATEGORY = "outcome"


def outcome_error(code: ErrorCode, message: str) -> ErrorInfo:
    """A refused or unclear confirmation, as its card in the chat says it."""
    return ErrorInfo(code=code.value, category=OUTCOME_CATEGORY, message=message)


def spending_tools_for(vertical: Vertical) -> tuple[str, ...]:
    """The spending tools of this vertical's shop (checkout; place_food_order; book_table)."""
    return shop_for(vertical.server_key).spender_names


# How much of a confirmable tool's description and schema the approval tool repeats.
_CONFIRMABLE_TEXT_CHARS = 600


def approval_tool(
    vertical: Vertical, confirmable: Sequence[Mapping[str, Any]] = ()
) -> dict[str, Any]:
    """The client tool definition offered beside the vertical's MCP tools.

    `confirmable`: tools of the person's own servers that change something (not annotated
    read-only): never offered directly, only through this tool, each with its schema.
    """
    spenders = spending_tools_for(vertical)
    names = [*spenders, *(str(tool["name"]) for tool in confirmable)]
    description = (
        f"Ask the person to approve {_either(spenders)}. You cannot call it yourself: call this "
        "with the exact tool name and arguments; the app shows the person what will "
        "happen and, only if they press Confirm, runs it once and gives you its result. "
        "Use it only when the person has asked to order or book."
    )
    if confirmable:
        description += (
            " The same goes for these tools of the person's own servers, which may change "
            "something there; use one only when the person asked for it:"
            + "".join(f"\n- {_described(tool)}" for tool in confirmable)
        )
    return {
        "name": APPROVAL_TOOL_NAME,
        "description": description,
        "input_schema": {
            "type": "object",
            "properties": {
                "tool": {"type": "string", "enum": names},
                "arguments": {
                    "type": "object",
                    "description": "The exact arguments for that tool.",
                },
            },
            "required": ["tool", "arguments"],
        },
    }


def _either(names: Sequence[str]) -> str:
    """`checkout`, or `a` or `b` for a shop with more than one spending tool."""
    return " or ".join(f"`{name}`" for name in names)


def _described(tool: Mapping[str, Any]) -> str:
    schema = json.dumps(tool.get("input_schema") or {}, ensure_ascii=False)
    text = f"`{tool['name']}`: {tool.get('description') or ''} Arguments schema: {schema}"
    return text[:_CONFIRMABLE_TEXT_CHARS]
