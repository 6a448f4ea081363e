"""Talk to remote MCP servers from worker threads through the app's MCP manager.

The connector emulation shares the app's client (`swiggy_core.mcp.McpManager`): pooled
sessions on one background loop, the same transports and coded failures. It sends raw
requests, so nothing is revalidated against a listing the connector never asked for.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from mcp import types
from mcp.shared.exceptions import MCPError

from swiggy_core.mcp import McpCallError, McpManager
from swiggy_sandbox.connector.toolsets import ServerSpec

Block = dict[str, Any]

READ_TIMEOUT_SECONDS = 30.0


class McpConnectionError(Exception):
    """The server could not be reached or refused us; `detail` is what the model is shown."""

    def __init__(self, server_name: str, detail: str) -> None:
        super().__init__(detail)
        self.server_name = server_name
        self.detail = detail


@dataclass(frozen=True)
class ToolCallResult:
    """What `tools/call` returned, as `mcp_tool_result` content.

    `content` holds the text only, as Anthropic's connector may pass it on: a result in the
    summary form reaches the model as its prose. `structured` (the result's
    structuredContent) never goes into `mcp_tool_result`; it is there for callers that play
    the app, which runs tools itself and does get it.
    """

    is_error: bool
    content: list[Block]
    structured: dict[str, Any] | None = None

    @property
    def text(self) -> str:
        """The result's text parts joined."""
        return "".join(str(item.get("text", "")) for item in self.content)


class McpBridge:
    """Lists and calls tools for the connector; callers block on the answers."""

    def __init__(self, manager: McpManager | None = None) -> None:
        self._manager = manager or McpManager(call_timeout=READ_TIMEOUT_SECONDS)

    def list_tools(self, server: ServerSpec) -> list[Block]:
        """The server's tools as listing entries (name, description, input_schema)."""
        request = types.ListToolsRequest()
        try:
            result = self._send(server, request, types.ListToolsResult, idempotent=True)
        except MCPError as exc:
            detail = _connection_error(server, exc.error.message)
            raise McpConnectionError(server.name, detail) from exc
        return [_listed(tool) for tool in result.tools]

    def call_tool(self, server: ServerSpec, name: str, arguments: dict[str, Any]) -> ToolCallResult:
        """Call one tool; protocol-level failures come back as an error result."""
        request = types.CallToolRequest(
            params=types.CallToolRequestParams(name=name, arguments=arguments)
        )
        try:
            # Not session.call_tool: it lists tools to revalidate structured output,
            # and a pinned listing means the connector never asks for one.
            result = self._send(server, request, types.CallToolResult)
        except MCPError as exc:
            return ToolCallResult(True, [_text(exc.error.message)])
        structured = result.structured_content
        return ToolCallResult(
            bool(result.is_error),
            [_content(item) for item in result.content],
            dict(structured) if isinstance(structured, dict) else None,
        )

    def close(self) -> None:
        """Close every session (a later call opens new ones)."""
        self._manager.close()

    def _send(
        self,
        server: ServerSpec,
        request: types.ClientRequest,
        result_type: type[Any],
        *,
        idempotent: bool = False,
    ) -> Any:
        try:
            return self._manager.send_request(
                server.url, server.token, request, result_type, idempotent=idempotent
            )
        except McpCallError as exc:
            # The status line when the server answered with an error, else a connection error.
            detail = exc.status_text or _connection_error(server, exc.message)
            raise McpConnectionError(server.name, detail) from exc


def _connection_error(server: ServerSpec, reason: str) -> str:
    return f"Connection error while communicating with MCP server {server.name}: {reason}"


def _listed(tool: Any) -> Block:
    entry: Block = {"name": tool.name, "input_schema": dict(tool.input_schema or {})}
    if tool.description is not None:
        entry["description"] = tool.description
    return entry


def _content(item: Any) -> Block:
    if getattr(item, "type", None) == "text":
        return _text(item.text)
    # mcp_tool_result carries text only: other parts travel as their JSON.
    return _text(json.dumps(item.model_dump(mode="json", exclude_none=True)))


def _text(text: str) -> Block:
    return {"type": "text", "text": text}
