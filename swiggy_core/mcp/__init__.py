"""MCP client helpers: one background loop, one-shot tool calls."""

from swiggy_core.mcp.client import McpCallError, ToolCallResult, call_tool
from swiggy_core.mcp.loop import background_loop, run_sync

__all__ = ["McpCallError", "ToolCallResult", "background_loop", "call_tool", "run_sync"]
