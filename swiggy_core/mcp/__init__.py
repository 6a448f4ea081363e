"""MCP client helpers: one background loop, one-shot tool calls, pooled sessions."""

from swiggy_core.mcp.client import McpCallError, ToolCallResult, call_tool
from swiggy_core.mcp.loop import background_loop, run_sync
from swiggy_core.mcp.manager import (
    McpManager,
    ServerHealth,
    ToolOutput,
    shared_manager,
    shrink_for_model,
)

__all__ = [
    "McpCallError",
    "McpManager",
    "ServerHealth",
    "ToolCallResult",
    "ToolOutput",
    "background_loop",
    "call_tool",
    "run_sync",
    "shared_manager",
    "shrink_for_model",
]
