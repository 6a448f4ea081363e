"""Call one tool on a remote MCP server over Streamable HTTP (used for onboarding)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import httpx2
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from swiggy_core.constants import CONNECT_TIMEOUT_SECONDS
from swiggy_core.errors import ErrorCode, SwiggyAssistantError
from swiggy_core.logsafe import register_secret
from swiggy_core.mcp.loop import run_sync

TOOL_CALL_TIMEOUT_SECONDS = 20.0


class McpCallError(SwiggyAssistantError):
    """A tool call that could not be made (dead server, refused token)."""

    code = ErrorCode.TOOL_SERVER


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
    """Connect, initialise, call `name`, disconnect; errors become McpCallError."""
    try:
        return run_sync(_call(url, token, name, arguments), TOOL_CALL_TIMEOUT_SECONDS)
    except McpCallError:
        raise
    except TimeoutError as error:
        raise McpCallError(f"The Swiggy server did not answer {name} in time.") from error
    except Exception as error:  # transport errors arrive wrapped in task groups
        raise McpCallError(_describe(error, name)) from None


async def _call(url: str, token: str, name: str, arguments: dict[str, Any]) -> ToolCallResult:
    register_secret(token)  # whatever the SDKs log about this call, masked
    headers = {"Authorization": f"Bearer {token}"}
    timeout = httpx2.Timeout(TOOL_CALL_TIMEOUT_SECONDS, connect=CONNECT_TIMEOUT_SECONDS)
    async with (
        httpx2.AsyncClient(headers=headers, timeout=timeout) as http,
        streamable_http_client(url, http_client=http) as streams,
        ClientSession(streams[0], streams[1]) as session,
    ):
        await session.initialize()
        result = await session.call_tool(name, arguments)
    text = "".join(getattr(part, "text", "") for part in result.content)
    structured = result.structured_content
    if not text and structured is not None:
        text = json.dumps(structured)
    kept = dict(structured) if isinstance(structured, dict) else None
    return ToolCallResult(text=text, is_error=bool(result.is_error), structured=kept)


def _describe(error: BaseException, name: str) -> str:
    """A short reason without echoing headers (which hold the token)."""
    leaves: list[BaseException] = [error]
    while leaves and isinstance(leaves[0], BaseExceptionGroup):
        leaves = list(leaves[0].exceptions)
    leaf = leaves[0] if leaves else error
    if isinstance(leaf, httpx2.HTTPStatusError):
        status = leaf.response.status_code
        if status in (401, 403, 419):
            return f"Swiggy refused the token ({status}) while calling {name}. Reconnect Swiggy."
        return f"The Swiggy server answered {status} while calling {name}."
    if isinstance(leaf, httpx2.ConnectError):
        return f"Could not reach the Swiggy server for {name}."
    return f"Calling {name} failed ({type(leaf).__name__})."
