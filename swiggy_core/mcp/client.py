"""The MCP client's error and one-shot call (onboarding); the manager does the work."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, NamedTuple

from swiggy_core.errors import ErrorCode, McpServerError
from swiggy_core.mcp.media import text_parts
from swiggy_core.retry_after import whole_seconds
from swiggy_core.tool_content import MediaPart, TextContent, ToolResultPart


class McpCallError(McpServerError):
    """A tool call that could not be made (dead server, refused token, timeout, junk).

    `status` / `status_text` ("401 Unauthorized") are set when the server answered an HTTP
    error status.
    """

    code = ErrorCode.TOOL_SERVER
    retry_after_seconds: float | None = None  # set on a rate limit (RateLimited)

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


class RateLimited(McpCallError):
    """The server answered 429: nothing is sent to it again before `retry_after_seconds`.

    `message` is for the person; `str()` is what the model reads as the call's result, so it
    also says not to call the server again before the wait is over.
    """

    code = ErrorCode.TOOL_RATE_LIMITED

    def __init__(self, message: str, *, retry_after_seconds: float) -> None:
        super().__init__(message, status=429, status_text="429 Too Many Requests")
        self.retry_after_seconds = retry_after_seconds

    def __str__(self) -> str:
        wait = whole_seconds(self.retry_after_seconds or 0.0)
        return (
            f"[{self.code}] {self.message} Retry after {wait} s: do not call this server's "
            "tools again before then."
        )


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


class ToolOutput(NamedTuple):
    """One tool call's full text, its error flag, its structuredContent (if it had one) and
    its images, documents and files (`swiggy_core.mcp.media`)."""

    text: str
    is_error: bool
    structured: dict[str, Any] | None = None
    media: tuple[MediaPart, ...] = ()

    def texts(self) -> list[str]:
        """The stored result's text blocks: the text, then structuredContent as a JSON object."""
        return stored_texts(self.text, self.structured)

    def parts(self) -> list[ToolResultPart]:
        """The stored result: its text blocks, then its media (no empty text beside media)."""
        texts = self.texts()
        if self.media and texts == [""]:
            texts = []
        return [*(TextContent(text=text) for text in texts), *self.media]

    def envelope_text(self) -> str:
        """The result as the `{success, data, message}` JSON text, whichever form it came in.

        Without structuredContent that is the text itself. structuredContent may be the whole
        envelope or only its `data` (both are seen); the latter is wrapped, the text becoming
        the message.
        """
        if self.structured is None:
            return self.text
        if "success" in self.structured:
            return json.dumps(self.structured, ensure_ascii=False)
        if self.is_error:
            envelope: dict[str, Any] = {"success": False, "error": {"message": self.text}}
        else:
            envelope = {"success": True, "data": self.structured, "message": self.text}
        return json.dumps(envelope, ensure_ascii=False)


ANNOTATIONS_KEY = "annotations"  # the MCP tool annotations; never sent to the model API


def listed_tool(tool: Any) -> dict[str, Any]:
    listed = {
        "name": tool.name,
        "description": tool.description or "",
        "input_schema": dict(tool.input_schema or {"type": "object"}),
    }
    hints = getattr(tool, "annotations", None)
    if hints is not None:
        # By alias: the protocol's own names (readOnlyHint), not the SDK's snake_case.
        dumped = (
            hints.model_dump(by_alias=True, exclude_none=True)
            if hasattr(hints, "model_dump")
            else {}
        )
        listed[ANNOTATIONS_KEY] = {str(k): v for k, v in dict(dumped).items()}
    return listed


def read_only(tool: dict[str, Any]) -> bool:
    """True only when the server annotates the tool `readOnlyHint: true`."""
    hints = tool.get(ANNOTATIONS_KEY)
    return isinstance(hints, dict) and hints.get("readOnlyHint") is True


def for_model(tool: dict[str, Any]) -> dict[str, Any]:
    """The tool as the Messages API takes it (name, description, input_schema only)."""
    return {key: value for key, value in tool.items() if key != ANNOTATIONS_KEY}


def result_text(result: Any, structured: Any) -> str:
    """The result's text, else its `structured` content as JSON (its media are kept apart,
    never dumped into the text)."""
    text = "".join(text_parts(result))
    if not text and structured is not None:
        text = json.dumps(structured)
    return text


def structured_of(result: Any) -> dict[str, Any] | None:
    structured = result.structured_content
    return dict(structured) if isinstance(structured, dict) else None
