"""Swiggy's response envelope and the MCPServer subclass that never lets a bad call crash.

Domain failures (ShopError) come back as a normal result whose payload says
`success: false`, exactly as the real servers do. Protocol misuse (unknown tool,
arguments of the wrong type or missing) and internal errors also carry the
envelope, but are flagged `is_error` as MCP expects for failed executions.

Tools return the envelope as text; in the "summary" result form `call_tool` turns a
successful one into prose plus `structuredContent` (see `summary`). Failures stay the
envelope text in both forms, so every reader sees `success: false`.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, Icon, InputRequiredResult, TextContent, ToolAnnotations
from pydantic import ValidationError

from swiggy_sandbox.servers.summary import ResultForm, render_summary
from swiggy_sandbox.servers.tool_templates import from_template, keep_template, template_key
from swiggy_sandbox.shop import ShopError

logger = logging.getLogger(__name__)

# The HTTP gate stores the authenticated user here in the ASGI scope.
USER_SCOPE_KEY = "swiggy_sandbox.user"


class AuthRequired(Exception):
    """No usable bearer token for this call (stdio with a bad SWIGGY_SANDBOX_TOKEN)."""


def ok(data: Any, message: str = "") -> str:
    """`{"success": true, "data": ..., "message": ...}` as JSON text."""
    return json.dumps({"success": True, "data": data, "message": message}, ensure_ascii=False)


def fail(message: str) -> str:
    """`{"success": false, "error": {"message": ...}}` as JSON text."""
    return json.dumps({"success": False, "error": {"message": message}}, ensure_ascii=False)


def _result(text: str, is_error: bool) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=is_error)


def summarised(name: str, result: CallToolResult) -> CallToolResult:
    """A successful envelope as summary text plus `structuredContent` (its `data` object).

    Anything else (an error, a failure envelope, text that is no envelope) is kept as it is.
    """
    text = "".join(part.text for part in result.content if isinstance(part, TextContent))
    try:
        envelope = json.loads(text)
    except ValueError:
        return result
    if result.is_error or not isinstance(envelope, dict) or envelope.get("success") is not True:
        return result
    data = envelope.get("data")
    # structuredContent must be an object: the data when it is one, else the whole envelope.
    structured = data if isinstance(data, dict) else envelope
    summary = render_summary(name, data, str(envelope.get("message") or ""))
    return CallToolResult(
        content=[TextContent(type="text", text=summary)], structured_content=structured
    )


def _field(loc: tuple[Any, ...]) -> str:
    return ".".join(str(part) for part in loc) or "arguments"


def describe_validation(error: ValidationError) -> str:
    """Pydantic errors as 'Missing x' / 'Invalid y: ...' sentences (Swiggy's bad-input wording)."""
    parts = []
    for err in error.errors():
        field = _field(err["loc"])
        if err["type"] == "missing":
            parts.append(f"Missing {field}")
        else:
            parts.append(f"Invalid {field}: {err['msg']} (got {err.get('input')!r})")
    return "; ".join(parts) + "."


def _cause(exc: BaseException, kind: type[BaseException]) -> BaseException | None:
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, kind):
            return seen
        seen = seen.__cause__
    return None


class SandboxServer(MCPServer):
    """An MCPServer whose every tool call ends in a Swiggy envelope, never a protocol crash."""

    def __init__(
        self,
        name: str,
        default_user: str | None,
        *,
        result_form: ResultForm = "envelope",
        **kwargs: Any,
    ) -> None:
        # MCPServer configures root logging on first use; INFO would log every HTTP request.
        kwargs.setdefault("log_level", "WARNING")
        super().__init__(name, **kwargs)
        self.default_user = default_user
        self.result_form: ResultForm = result_form

    def add_tool(
        self,
        fn: Callable[..., Any],
        name: str | None = None,
        title: str | None = None,
        description: str | None = None,
        annotations: ToolAnnotations | None = None,
        icons: list[Icon] | None = None,
        meta: dict[str, Any] | None = None,
        structured_output: bool | None = None,
    ) -> None:
        """Register `fn`, reusing the description built for the same function before."""
        options = (name, title, description, annotations, icons, meta, structured_output)
        key = template_key(fn, options)
        tool = from_template(key, fn)
        tools = getattr(self._tool_manager, "_tools", None)
        if tool is None or not isinstance(tools, dict):
            super().add_tool(fn, *options)
            keep_template(key, self._tool_manager.get_tool(name or fn.__name__))
            return
        tools.setdefault(tool.name, tool)  # the SDK keeps the first of a name, as here

    def user_of(self, ctx: Context) -> str:
        """The caller: set by the HTTP gate, else the server's default (stdio) user."""
        try:
            request = ctx.request_context.request
        except ValueError:  # called outside a request (direct in-process use)
            request = None
        scope = getattr(request, "scope", None) or {}
        user = scope.get(USER_SCOPE_KEY) or self.default_user
        if not user:
            raise AuthRequired
        return user

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context | None = None
    ) -> CallToolResult | InputRequiredResult:
        """Run a tool; turn every failure into an envelope."""
        if self._tool_manager.get_tool(name) is None:
            known = ", ".join(sorted(t.name for t in self._tool_manager.list_tools()))
            return _result(fail(f"Invalid tool '{name}'. Available tools: {known}."), True)
        try:
            result = await super().call_tool(name, arguments, context)
        except ToolError as exc:
            return self._failure(name, exc)
        if self.result_form == "summary" and isinstance(result, CallToolResult):
            return summarised(name, result)
        return result

    def _failure(self, name: str, exc: ToolError) -> CallToolResult:
        shop_error = _cause(exc, ShopError)
        if isinstance(shop_error, ShopError):
            return _result(fail(shop_error.message), False)
        if _cause(exc, AuthRequired) is not None:
            message = "Unauthorized (401): missing or invalid token; reconnect to Swiggy."
            return _result(fail(message), True)
        invalid = _cause(exc, ValidationError)
        if isinstance(invalid, ValidationError):
            return _result(fail(f"{describe_validation(invalid)} (tool {name})"), True)
        logger.error("Tool %s crashed", name, exc_info=exc)
        return _result(fail(f"Internal error in {name}; please try again later."), True)
