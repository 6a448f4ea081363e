"""The agent-brain protocol: one step at a time, with the whole turn so far in view."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

Block = dict[str, Any]


@dataclass(frozen=True)
class Say:
    """Write text and keep going (the connector asks for the next step)."""

    text: str


@dataclass(frozen=True)
class CallTool:
    """Call an MCP tool on `server_name`; the connector executes it and reports back."""

    server_name: str
    name: str
    input: dict[str, Any] = field(default_factory=dict)
    say_before: str = ""


@dataclass(frozen=True)
class CallClientTool:
    """Ask the client to run one of its own tools: the turn ends with `tool_use`."""

    name: str
    input: dict[str, Any] = field(default_factory=dict)
    say_before: str = ""


@dataclass(frozen=True)
class Finish:
    """End the turn, optionally with closing text."""

    text: str = ""


Step = Say | CallTool | CallClientTool | Finish


@dataclass(frozen=True)
class ToolOutcome:
    """An MCP call made earlier in this turn, with what it returned."""

    tool_use_id: str
    server_name: str
    name: str
    input: dict[str, Any]
    is_error: bool
    text: str


@dataclass
class TurnContext:
    """What the brain may look at before choosing its next step."""

    system: str
    # Wire-format messages as sent (after context editing), oldest first.
    messages: list[dict[str, Any]]
    # Tools the brain may call, per MCP server (disabled ones are left out).
    tools: dict[str, list[Block]]
    # Tools switched off by the toolset configuration, per server.
    disabled_tools: dict[str, frozenset[str]]
    client_tools: list[Block]
    model: str = ""
    # The assistant blocks produced so far in this turn (text, mcp_tool_use, mcp_tool_result…).
    blocks: list[Block] = field(default_factory=list)
    outcomes: list[ToolOutcome] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)

    def transcript(self) -> list[dict[str, Any]]:
        """The conversation including this turn's blocks as a trailing assistant message."""
        if not self.blocks:
            return list(self.messages)
        return [*self.messages, {"role": "assistant", "content": list(self.blocks)}]

    def server_for(self, tool_name: str) -> str | None:
        """The MCP server offering `tool_name` (enabled or not), if any."""
        for server, tools in self.tools.items():
            if any(tool.get("name") == tool_name for tool in tools):
                return server
        for server, names in self.disabled_tools.items():
            if tool_name in names:
                return server
        return None

    def is_enabled(self, tool_name: str) -> bool:
        """True when a server or the client offers `tool_name` and it is switched on."""
        offered = [tool for tools in self.tools.values() for tool in tools] + self.client_tools
        return any(tool.get("name") == tool_name for tool in offered)


@runtime_checkable
class AgentBrain(Protocol):
    """A brain that plans one step at a time while the connector runs the tools."""

    def next_step(self, ctx: TurnContext) -> Step: ...
