"""Tools of a person's own MCP server that may change something: asked for, shown, run once.

They are never offered to the model directly (`engine.local_tools.needs_confirmation`);
the model asks through the approval tool with the tool's prefixed name and exact arguments,
and the dialog shows exactly that call. The ledger is the same as for orders: pending →
executing by compare-and-set, one call, the outcome stored and told.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Final

from swiggy_core.approval.view import ApprovalView, Prepared
from swiggy_core.engine.local_tools import needs_confirmation, prefixed_name
from swiggy_core.errors import ErrorCode
from swiggy_core.mcp.client import McpCallError
from swiggy_core.mcp.config import ResolvedServer
from swiggy_core.mcp.manager import McpManager
from swiggy_core.verticals.policy import ToolPolicy

ACTION_KIND: Final = "action"
# Refusals that happen before a request leaves the app: the tool surely did not run.
NOT_SENT: Final = frozenset(
    {
        ErrorCode.SERVER_HOST_REFUSED,
        ErrorCode.SERVER_UNREACHABLE,
        ErrorCode.SERVER_DISABLED,
        ErrorCode.SERVER_CONFIG,
        ErrorCode.TOOL_AUTH,
        ErrorCode.HOOK_DENIED,
    }
)
_ARGUMENTS_SHOWN_CHARS: Final = 4_000
_NOTES: Final = (
    "This runs on a server you added yourself, not on Swiggy. The app cannot undo it.",
)


@dataclass(frozen=True, slots=True)
class OwnTool:
    """A gated tool: its server (with the person's credential) and its own name."""

    server: ResolvedServer
    name: str
    prefixed: str


def find_own_tool(
    servers: tuple[ResolvedServer, ...],
    manager: McpManager,
    policy: ToolPolicy,
    prefixed: str,
    *,
    user: str,
) -> OwnTool | None:
    """The gated tool the model named, from the servers' (cached) listings; None if none."""
    for server in servers:
        if server.config.origin != "user" or not server.config.enabled:
            continue
        try:
            listed = manager.list_tools(server, user=user)
        except McpCallError:
            continue
        for tool in listed:
            name = str(tool.get("name", ""))
            if prefixed_name(server.config.key, name) != prefixed:
                continue
            return (
                OwnTool(server, name, prefixed)
                if needs_confirmation(server, tool, policy)
                else None
            )
    return None


def prepare_action(tool: OwnTool, arguments: dict[str, Any]) -> Prepared:
    """The approval of one exact call: what the dialog shows and its digest."""
    shown = json.dumps(arguments, indent=2, ensure_ascii=False, sort_keys=True)
    view = ApprovalView(
        kind=ACTION_KIND,
        tool=tool.prefixed,
        title=f"Run “{tool.name}” on your server “{tool.server.config.key}”",
        server_label=tool.server.config.key,
        arguments_text=shown[:_ARGUMENTS_SHOWN_CHARS],
        notes=list(_NOTES),
    )
    return Prepared(arguments=dict(arguments), digest=action_digest(tool, arguments), view=view)


def action_digest(tool: OwnTool, arguments: dict[str, Any]) -> str:
    facts = [tool.server.config.key, tool.name, arguments]
    return hashlib.sha256(json.dumps(facts, sort_keys=True, default=str).encode()).hexdigest()
