"""Send Swiggy a `report_error` about a tool that kept failing (the person decides).

Swiggy's servers offer `report_error{tool, errorMessage, domain, flowDescription}` so
integrators can flag broken tools; it is offered only after the turn gave up on a tool,
never called behind the person's back. Nothing secret goes into the report: the message
is the tool's own failure text, already shown to the person.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from swiggy_core.hooks import CallScope
from swiggy_core.hooks.audited import run_audited
from swiggy_core.logsafe import redact
from swiggy_core.mcp import McpCallError, McpManager
from swiggy_core.models import ErrorInfo
from swiggy_core.store.tool_audit import ToolCallEntry

REPORT_TOOL = "report_error"
_DOMAINS = {"instamart": "im", "food": "food", "dineout": "dineout"}
_MAX_MESSAGE_CHARS = 500


def report_tool_failure(
    manager: McpManager,
    server_url: str,
    server_key: str,
    token: str | None,
    error: ErrorInfo,
    *,
    scope: CallScope | None = None,
    record: Callable[[ToolCallEntry], None] | None = None,
) -> str:
    """Call report_error for `error`; returns what Swiggy answered (or why it failed).

    With `record`, the call is audited for the person and page `scope` names.
    """
    if not error.report_tool:
        return "There is nothing to report for this error."
    arguments: dict[str, Any] = {
        "tool": error.report_tool,
        "errorMessage": redact(error.report_detail or error.message)[:_MAX_MESSAGE_CHARS],
        "domain": _DOMAINS.get(server_key, server_key),
        "flowDescription": f"{error.code}: the assistant stopped after repeated failures.",
    }
    info = (scope or CallScope()).info(server_key, REPORT_TOOL, arguments)
    user = scope.user_id if scope is not None else ""
    try:
        output = run_audited(
            info,
            lambda: manager.call_tool(server_url, token, REPORT_TOOL, arguments, user=user),
            record,
        )
    except McpCallError as failure:
        return f"The report could not be sent: {failure.message}"
    return _answer(output.text, output.is_error)


def _answer(text: str, is_error: bool) -> str:
    try:
        value = json.loads(text)
    except ValueError:
        value = None
    if isinstance(value, dict):
        if value.get("success") is False or is_error:
            error = value.get("error")
            message = error.get("message") if isinstance(error, dict) else None
            return f"The report could not be sent: {message or 'Swiggy refused it'}."
        message = value.get("message")
        if isinstance(message, str) and message:
            return message
    if is_error:
        return "The report could not be sent."
    return text.strip()[:_MAX_MESSAGE_CHARS] or "Report sent to Swiggy."
