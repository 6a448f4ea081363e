"""Reject malformed requests the way the real Messages API does (400 invalid_request_error)."""

from __future__ import annotations

from typing import Any

from swiggy_core.constants import BETA_CONTEXT_MANAGEMENT, BETA_MCP_CLIENT
from swiggy_sandbox.connector.toolsets import MCP_TOOLSET_TYPE
from swiggy_sandbox.emulator.content_check import tag_problem

# Content block types the API accepts in `messages` (anything else is an unknown tag).
KNOWN_BLOCK_TYPES = frozenset(
    {
        "text",
        "image",
        "document",
        "search_result",
        "thinking",
        "redacted_thinking",
        "tool_use",
        "tool_result",
        "server_tool_use",
        "web_search_tool_result",
        "web_fetch_tool_result",
        "code_execution_tool_result",
        "mcp_tool_use",
        "mcp_tool_result",
        "mcp_tool_listing",
        "container_upload",
        "compaction",
    }
)
ROLES = frozenset({"user", "assistant"})
# The edits `context_management` accepts (the SDK's BetaContextManagementConfigParam);
# the emulator applies clear_tool_uses and lets the others pass unapplied.
CONTEXT_EDIT_TYPES = ("clear_tool_uses_20250919", "clear_thinking_20251015", "compact_20260112")


def request_problem(body: dict[str, Any], betas: list[str]) -> str:
    """What the real API would object to in this body ("" when it is acceptable)."""
    for check in (_system_problem, _messages_problem, _tools_problem):
        if problem := check(body):
            return problem
    return _mcp_problem(body, betas) or _context_problem(body, betas)


def _system_problem(body: dict[str, Any]) -> str:
    system = body.get("system")
    if system is None or isinstance(system, str):
        return ""
    if not isinstance(system, list):
        return "system: Input should be a valid string or a list of text blocks"
    for index, block in enumerate(system):
        if not isinstance(block, dict) or block.get("type") != "text":
            return f"system.{index}.type: Input should be 'text'"
        if not isinstance(block.get("text"), str):
            return f"system.{index}.text: Field required"
    return ""


def _messages_problem(body: dict[str, Any]) -> str:
    messages = body["messages"]
    if not messages:
        return "messages: at least one message is required"
    for position, message in enumerate(messages):
        where = f"messages.{position}"
        if not isinstance(message, dict):
            return f"{where}: Input should be a valid dictionary"
        if message.get("role") not in ROLES:
            return f"{where}.role: Input should be 'user' or 'assistant'"
        content = message.get("content")
        if isinstance(content, str):
            continue
        if not isinstance(content, list):
            return f"{where}.content: Field required"
        if problem := _blocks_problem(where, content):
            return problem
    return ""


def _blocks_problem(where: str, content: list[Any]) -> str:
    """Every block must be of a type the API knows (pairing is tool_pairing's job)."""
    for index, block in enumerate(content):
        kind = block.get("type") if isinstance(block, dict) else None
        if kind not in KNOWN_BLOCK_TYPES:
            return (
                f"{where}.content.{index}: Input tag '{kind}' found using 'type' does not "
                "match any of the expected tags"
            )
    return ""


def _tools_problem(body: dict[str, Any]) -> str:
    tools = body.get("tools")
    if tools is None:
        return ""
    if not isinstance(tools, list):
        return "tools: Input should be a valid list"
    for index, tool in enumerate(tools):
        if not isinstance(tool, dict):
            return f"tools.{index}: Input should be a valid dictionary"
        if tool.get("type") == MCP_TOOLSET_TYPE:
            if not isinstance(tool.get("mcp_server_name"), str):
                return f"tools.{index}.mcp_server_name: Field required"
        elif tool.get("type") in (None, "custom"):
            for key in ("name", "input_schema"):
                if key not in tool:
                    return f"tools.{index}.custom.{key}: Field required"
    return ""


def _mcp_problem(body: dict[str, Any], betas: list[str]) -> str:
    declared = body.get("mcp_servers")
    toolsets = [t for t in body.get("tools") or [] if t.get("type") == MCP_TOOLSET_TYPE]
    if (declared or toolsets) and BETA_MCP_CLIENT not in betas:
        field = "mcp_servers" if declared else "tools"
        return f"{field}: Extra inputs are not permitted (requires the {BETA_MCP_CLIENT} beta)"
    names: list[str] = []
    for index, server in enumerate(declared or []):
        if problem := _server_problem(index, server):
            return problem
        names.append(server["name"])
    if len(set(names)) != len(names):
        return "mcp_servers: MCP server names must be unique"
    referenced: list[str] = []
    for toolset in toolsets:
        name = toolset.get("mcp_server_name")
        if name not in names:
            return f"MCP toolset references unknown MCP server '{name}' (not in mcp_servers)"
        if name in referenced:
            return f"MCP server '{name}' is referenced by more than one mcp_toolset"
        referenced.append(name)
    for name in names:
        if name not in referenced:
            return f"MCP server '{name}' is defined in mcp_servers but no mcp_toolset references it"
    return ""


def _server_problem(index: int, server: Any) -> str:
    if not isinstance(server, dict):
        return f"mcp_servers.{index}: Input should be a valid dictionary"
    if server.get("type") != "url":
        return f"mcp_servers.{index}.type: Input should be 'url'"
    for key in ("url", "name"):
        if not isinstance(server.get(key), str) or not server[key]:
            return f"mcp_servers.{index}.{key}: Field required"
    return ""


def _context_problem(body: dict[str, Any], betas: list[str]) -> str:
    if "context_management" not in body:
        return ""
    if BETA_CONTEXT_MANAGEMENT not in betas:
        return (
            "context_management: Extra inputs are not permitted "
            f"(requires the {BETA_CONTEXT_MANAGEMENT} beta)"
        )
    edits = (body["context_management"] or {}).get("edits") or []
    for index, edit in enumerate(edits):
        if problem := tag_problem(f"context_management.edits.{index}", edit, CONTEXT_EDIT_TYPES):
            return problem
    return ""
