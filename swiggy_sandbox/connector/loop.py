"""The MCP connector's agent loop: discover tools, let the brain step, execute its calls."""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from typing import Any

from swiggy_sandbox.connector.mcp_bridge import McpBridge, McpConnectionError, ToolCallResult
from swiggy_sandbox.connector.steps import (
    AgentBrain,
    CallClientTool,
    CallTool,
    Finish,
    Say,
    ToolOutcome,
    TurnContext,
)
from swiggy_sandbox.connector.toolsets import (
    Toolset,
    client_tools,
    listing_from_history,
    toolsets,
)
from swiggy_sandbox.emulator.script import (
    Fault,
    RecordedRequest,
    ScriptedTurn,
    mcp_tool_listing_block,
    mcp_tool_result_block,
    mcp_tool_use_block,
    text_block,
    tool_use_block,
)

logger = logging.getLogger(__name__)

# Server-side tool calls per response before the API pauses the turn (pause_turn).
MAX_TOOL_CALLS = 8
# A guard against a brain that only ever says things and never finishes.
MAX_STEPS = 24
CONNECTION_ERROR = "Connection error while communicating with MCP server {server}"
DISABLED_TOOL = "Tool '{name}' is disabled by the toolset configuration"
UNKNOWN_TOOL = "Tool '{name}' was not found on MCP server '{server}'"
UNKNOWN_SERVER = "MCP server '{server}' is not connected to this request"


@dataclass
class _Server:
    toolset: Toolset
    offered: list[dict[str, Any]]
    disabled: frozenset[str]


class McpConnector:
    """Answers a request like Anthropic's MCP connector, with an AgentBrain as the model."""

    def __init__(self, brain: AgentBrain, bridge: McpBridge | None = None) -> None:
        self.brain = brain
        self.bridge = bridge or McpBridge()

    def respond(
        self, request: RecordedRequest, messages: list[dict[str, Any]]
    ) -> ScriptedTurn | Fault:
        """Run one turn; `messages` is the prompt after context editing."""
        body = request.body
        blocks: list[dict[str, Any]] = []
        try:
            servers = self._discover(body, messages, blocks)
        except McpConnectionError as exc:
            return Fault("bad_request", message=_connection_message(exc))
        ctx = TurnContext(
            system=_system_text(body.get("system")),
            messages=messages,
            tools={name: server.offered for name, server in servers.items()},
            disabled_tools={name: server.disabled for name, server in servers.items()},
            client_tools=client_tools(body),
            model=str(body.get("model", "")),
            blocks=blocks,
        )
        try:
            return self._run(ctx, servers)
        except Exception as exc:  # a brain bug must surface as an API error, not a hang
            logger.exception("agent brain failed")
            return Fault("server_error", message=f"The sandbox brain failed: {exc}")

    def _discover(
        self, body: dict[str, Any], messages: list[dict[str, Any]], blocks: list[dict[str, Any]]
    ) -> dict[str, _Server]:
        """Each toolset's tools: pinned, sent back from an earlier listing, or listed now."""
        found: dict[str, _Server] = {}
        for toolset in toolsets(body):
            name = toolset.server.name
            listing = toolset.pinned
            if listing is None:
                listing = listing_from_history(messages, name)
            if listing is None:
                listing = self.bridge.list_tools(toolset.server)
                blocks.append(mcp_tool_listing_block(name, listing))
            offered, disabled = toolset.split(listing)
            found[name] = _Server(toolset, offered, disabled)
        return found

    def _run(self, ctx: TurnContext, servers: dict[str, _Server]) -> ScriptedTurn:
        calls = 0
        for _ in range(MAX_STEPS):
            step = self.brain.next_step(ctx)
            ctx.steps.append(step)
            if isinstance(step, Say):
                _add_text(ctx.blocks, step.text)
            elif isinstance(step, Finish):
                _add_text(ctx.blocks, step.text)
                return _turn(ctx.blocks, "end_turn")
            elif isinstance(step, CallClientTool) or (
                isinstance(step, CallTool) and _runs_on_client(step, ctx, servers)
            ):
                _add_text(ctx.blocks, step.say_before)
                ctx.blocks.append(tool_use_block(_new_id("toolu_"), step.name, dict(step.input)))
                return _turn(ctx.blocks, "tool_use")
            else:
                _add_text(ctx.blocks, step.say_before)
                self._call(ctx, servers, step)
                calls += 1
                if calls >= MAX_TOOL_CALLS:
                    return _turn(ctx.blocks, "pause_turn")
        return _turn(ctx.blocks, "end_turn")

    def _call(self, ctx: TurnContext, servers: dict[str, _Server], step: CallTool) -> None:
        use_id = _new_id("mcptoolu_")
        ctx.blocks.append(mcp_tool_use_block(use_id, step.name, step.server_name, dict(step.input)))
        result = self._execute(servers.get(step.server_name), step)
        ctx.blocks.append(mcp_tool_result_block(use_id, result.content, is_error=result.is_error))
        ctx.outcomes.append(
            ToolOutcome(
                tool_use_id=use_id,
                server_name=step.server_name,
                name=step.name,
                input=dict(step.input),
                is_error=result.is_error,
                text=result.text,
            )
        )

    def _execute(self, server: _Server | None, step: CallTool) -> ToolCallResult:
        if server is None:
            return _error(UNKNOWN_SERVER.format(server=step.server_name))
        if step.name in server.disabled:
            # Refused here: a switched-off tool never reaches the MCP server.
            return _error(DISABLED_TOOL.format(name=step.name))
        if not any(tool.get("name") == step.name for tool in server.offered):
            return _error(UNKNOWN_TOOL.format(name=step.name, server=step.server_name))
        try:
            return self.bridge.call_tool(server.toolset.server, step.name, dict(step.input))
        except McpConnectionError as exc:
            return _error(exc.detail)


def _runs_on_client(step: CallTool, ctx: TurnContext, servers: dict[str, _Server]) -> bool:
    """A call for a server this request does not connect, but a client tool of that name."""
    if step.server_name in servers:
        return False
    return any(tool.get("name") == step.name for tool in ctx.client_tools)


def _add_text(blocks: list[dict[str, Any]], text: str) -> None:
    if not text:
        return
    if blocks and blocks[-1].get("type") == "text":
        blocks[-1] = text_block(f"{blocks[-1]['text']}\n\n{text}")
    else:
        blocks.append(text_block(text))


def _turn(blocks: list[dict[str, Any]], stop_reason: str) -> ScriptedTurn:
    return ScriptedTurn(content=list(blocks), stop_reason=stop_reason)


def _error(text: str) -> ToolCallResult:
    return ToolCallResult(is_error=True, content=[text_block(text)])


def _new_id(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:24]}"


def _connection_message(exc: McpConnectionError) -> str:
    generic = CONNECTION_ERROR.format(server=exc.server_name)
    return exc.detail if exc.detail.startswith(generic) else f"{generic}: {exc.detail}"


def _system_text(system: Any) -> str:
    if isinstance(system, list):
        return "\n\n".join(
            str(block.get("text", "")) for block in system if isinstance(block, dict)
        )
    return str(system or "")
