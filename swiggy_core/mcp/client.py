"""The MCP client's error and one-shot call (onboarding); the manager does the work."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from swiggy_core.errors import ErrorCode, SwiggyAssistantError


class McpCallError(SwiggyAssistantError):
    """A tool call that could not be made (dead server, refused token, timeout, junk).

    `status` / `status_text` ("401 Unauthorized") are set when the server answered an HTTP
    error status.
    """

    code = ErrorCode.TOOL_SERVER

    def __init__(
        self,
        message: str,
        *,
        code: ErrorCode | None = None,
        status: int | None = None,
        status_text: str = "",
    ) -> None:
        super().__init__(message, code=code)
        self.status = status
        self.status_text = status_text


@dataclass(frozen=True, slots=True)
class ToolCallResult:
    """The result's text, its error flag and its structuredContent (None when it had none)."""

    text: str
    is_error: bool
    structured: dict[str, Any] | None = None

    @property
    def content(self) -> list[dict[str, str]]:
        """Text blocks as a stored result holds them: the text, then structuredContent's JSON."""
        return [{"type": "text", "text": text} for text in stored_texts(self.text, self.structured)]


def stored_texts(text: str, structured: dict[str, Any] | None) -> list[str]:
    """A result's text blocks: the (summary) text, then structuredContent as a JSON object.

    The JSON object is always the last block; readers prefer it over prose.
    """
    if structured is None:
        return [text]
    document = json.dumps(structured, ensure_ascii=False)
    return [document] if text.strip() in ("", document) else [text, document]


def call_tool(url: str, token: str, name: str, arguments: dict[str, Any]) -> ToolCallResult:
    """Call one tool through the shared manager (pooled session); errors are McpCallError."""
    from swiggy_core.mcp.manager import shared_manager  # the manager imports this module

    output = shared_manager().call_tool(url, token, name, arguments)
    return ToolCallResult(text=output.text, is_error=output.is_error, structured=output.structured)
