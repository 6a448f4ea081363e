"""Read `mcp_servers`, `mcp_toolset` entries and client tools out of a request body."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Block = dict[str, Any]

MCP_TOOLSET_TYPE = "mcp_toolset"


@dataclass(frozen=True)
class ServerSpec:
    """One entry of `mcp_servers`."""

    name: str
    url: str
    token: str | None = field(default=None, repr=False)


@dataclass(frozen=True)
class Toolset:
    """One `mcp_toolset` entry bound to its server."""

    server: ServerSpec
    default_enabled: bool = True
    configs: dict[str, dict[str, Any]] = field(default_factory=dict)
    # A pinned listing: when set, the server is not asked for its tools.
    pinned: list[Block] | None = None

    def enabled(self, tool_name: str) -> bool:
        """Whether `tool_name` is on after `default_config` and `configs` apply."""
        config = self.configs.get(tool_name) or {}
        return bool(config.get("enabled", self.default_enabled))

    def split(self, listing: list[Block]) -> tuple[list[Block], frozenset[str]]:
        """The listing divided into offered tools and the names switched off."""
        offered = [tool for tool in listing if self.enabled(str(tool.get("name")))]
        disabled = frozenset(
            str(t.get("name")) for t in listing if not self.enabled(str(t.get("name")))
        )
        return offered, disabled


def servers(body: dict[str, Any]) -> dict[str, ServerSpec]:
    """`mcp_servers` by name (the request was validated, so entries are well formed)."""
    found: dict[str, ServerSpec] = {}
    for entry in body.get("mcp_servers") or []:
        found[entry["name"]] = ServerSpec(
            name=entry["name"], url=entry["url"], token=entry.get("authorization_token")
        )
    return found


def toolsets(body: dict[str, Any]) -> list[Toolset]:
    """Every `mcp_toolset` in `tools`, in request order."""
    known = servers(body)
    found: list[Toolset] = []
    for tool in body.get("tools") or []:
        if tool.get("type") != MCP_TOOLSET_TYPE:
            continue
        default = tool.get("default_config") or {}
        pinned = tool.get("tools")
        found.append(
            Toolset(
                server=known[tool["mcp_server_name"]],
                default_enabled=bool(default.get("enabled", True)),
                configs=dict(tool.get("configs") or {}),
                pinned=[_listed(entry) for entry in pinned] if pinned is not None else None,
            )
        )
    return found


def client_tools(body: dict[str, Any]) -> list[Block]:
    """Ordinary tools the client executes itself (`{name, description, input_schema}`)."""
    return [
        tool
        for tool in body.get("tools") or []
        if tool.get("type") in (None, "custom") and "input_schema" in tool
    ]


def listing_from_history(messages: list[dict[str, Any]], server_name: str) -> list[Block] | None:
    """The latest `mcp_tool_listing` for a server sent back in the conversation, if any."""
    listing: list[Block] | None = None
    for message in messages:
        content = message.get("content")
        if not isinstance(content, list):
            continue
        for block in content:
            is_listing = block.get("type") == "mcp_tool_listing"
            if is_listing and block.get("mcp_server_name") == server_name:
                listing = [_listed(entry) for entry in block.get("tools") or []]
    return listing


def _listed(entry: Block) -> Block:
    """A listing entry reduced to the fields a listing carries."""
    tool: Block = {"name": entry["name"], "input_schema": entry.get("input_schema") or {}}
    if entry.get("description") is not None:
        tool["description"] = entry["description"]
    return tool
