"""MCP client helpers: one background loop, pooled sessions over every transport."""

from swiggy_core.mcp.client import McpCallError, ToolCallResult, call_tool
from swiggy_core.mcp.loop import background_loop, run_sync
from swiggy_core.mcp.manager import (
    McpManager,
    ServerHealth,
    ToolOutput,
    shared_manager,
    shrink_for_model,
)
from swiggy_core.mcp.transports import MemoryServer, ServerTarget

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
