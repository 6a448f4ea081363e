"""Run one confirmed call of a person's own server's tool, once, and say what happened.

Unlike Swiggy, such a server has no order list to read afterwards: an answer is `done`
(or `failed` when the tool says it failed); a call refused before it left the app surely
did not run (`failed`); a call that died on the way may or may not have run (`unknown`),
and it is never sent again.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Final

from swiggy_core.approval.execute import Execution, outcome_of
from swiggy_core.approval.own_tools import NOT_SENT, OwnTool
from swiggy_core.mcp.client import McpCallError
from swiggy_core.mcp.manager import ToolOutput
from swiggy_core.verticals import Vertical

# What the model hears; the person sees the call's own answer on its card.
_MESSAGES_FOR_MODEL: Final = {
    "done": "The person confirmed and the app ran it once; its result is here.",
    "failed": "The person confirmed, but the tool did not do it; its answer is here.",
    "unknown": (
        "The person confirmed; the call broke off and nobody can tell whether it ran. "
        "Do not run it again: tell the person."
    ),
}
UNKNOWN_ACTION: Final = (
    "The connection to your server broke off during the call, so we cannot tell whether it "
    "ran. It will not be sent again: check on the server itself."
)

Call = Callable[[OwnTool, dict[str, Any]], ToolOutput]


def run_action(
    vertical: Vertical, tool: OwnTool, arguments: dict[str, Any], call: Call
) -> Execution:
    try:
        output = call(tool, dict(arguments))
    except McpCallError as error:
        status = "failed" if error.code in NOT_SENT else "unknown"
        message = error.message if status == "failed" else UNKNOWN_ACTION
        text = json.dumps({"success": False, "error": {"message": message}})
        return _outcome(vertical, tool, status, text, arguments)
    status = "failed" if output.is_error else "done"
    return _outcome(vertical, tool, status, output.text, arguments)


def unknown_action(vertical: Vertical, tool: str, arguments: dict[str, Any]) -> Execution:
    """A confirmed call of a person's tool cut off by a crash after it was sent."""
    text = json.dumps({"success": False, "error": {"message": UNKNOWN_ACTION}})
    return outcome_of(
        vertical, tool, "unknown", text, arguments, message=_MESSAGES_FOR_MODEL["unknown"]
    )


def _outcome(
    vertical: Vertical, tool: OwnTool, status: str, text: str, arguments: dict[str, Any]
) -> Execution:
    return outcome_of(
        vertical, tool.prefixed, status, text, arguments, message=_MESSAGES_FOR_MODEL[status]
    )
