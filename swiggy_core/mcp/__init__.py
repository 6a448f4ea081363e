"""MCP client helpers: one background loop, pooled sessions over every transport.

The names below load on first use: reading the server config or the health board (the
first page does) must not load the MCP SDK.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from swiggy_core.mcp.client import McpCallError, ToolCallResult
    from swiggy_core.mcp.loop import background_loop, run_sync
    from swiggy_core.mcp.manager import (
        McpManager,
        ServerHealth,
        ToolOutput,
        call_tool,
        shared_manager,
        shrink_for_model,
    )
    from swiggy_core.mcp.transports import MemoryServer, ServerTarget

_HOMES = {
    "McpCallError": "client",
    "ToolCallResult": "client",
    "call_tool": "manager",
    "background_loop": "loop",
    "run_sync": "loop",
    "McpManager": "manager",
    "ServerHealth": "manager",
    "ToolOutput": "manager",
    "shared_manager": "manager",
    "shrink_for_model": "manager",
    "MemoryServer": "transports",
    "ServerTarget": "transports",
}
__all__ = [
    "McpCallError",
    "McpManager",
    "MemoryServer",
    "ServerHealth",
    "ServerTarget",
    "ToolCallResult",
    "ToolOutput",
    "background_loop",
    "call_tool",
    "run_sync",
    "shared_manager",
    "shrink_for_model",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{home}"), name)
