"""Emulation of Anthropic's MCP connector: an agent brain steps, real MCP servers act."""

from swiggy_sandbox.connector import wire
from swiggy_sandbox.connector.accounting import (
    PreparedPrompt,
    PromptCache,
    breakpoint_problem,
    prepare_prompt,
)
from swiggy_sandbox.connector.brains import FunctionAgentBrain, ScriptedAgentBrain
from swiggy_sandbox.connector.loop import MAX_TOOL_CALLS, McpConnector
from swiggy_sandbox.connector.mcp_bridge import McpBridge, McpConnectionError, ToolCallResult
from swiggy_sandbox.connector.steps import (
    AgentBrain,
    CallClientTool,
    CallTool,
    Finish,
    Say,
    Step,
    ToolOutcome,
    TurnContext,
)
from swiggy_sandbox.connector.validate import request_problem

__all__ = [
    "MAX_TOOL_CALLS",
    "AgentBrain",
    "CallClientTool",
    "CallTool",
    "Finish",
    "FunctionAgentBrain",
    "McpBridge",
    "McpConnectionError",
    "McpConnector",
    "PreparedPrompt",
    "PromptCache",
    "Say",
    "ScriptedAgentBrain",
    "Step",
    "ToolCallResult",
    "ToolOutcome",
    "TurnContext",
    "breakpoint_problem",
    "prepare_prompt",
    "request_problem",
    "wire",
]
