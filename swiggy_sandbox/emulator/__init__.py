"""A scripted Anthropic Messages API emulator that the real SDK talks to over loopback."""

from swiggy_sandbox.emulator.app import create_app
from swiggy_sandbox.emulator.brains import FunctionBrain, ScriptedBrain
from swiggy_sandbox.emulator.script import (
    Brain,
    Fault,
    FaultKind,
    RecordedRequest,
    ScriptedTurn,
    mcp_tool_listing_block,
    mcp_tool_result_block,
    mcp_tool_use_block,
    text_block,
    text_turn,
    tool_use_block,
)
from swiggy_sandbox.emulator.server import EmulatorServer

__all__ = [
    "Brain",
    "EmulatorServer",
    "Fault",
    "FaultKind",
    "FunctionBrain",
    "RecordedRequest",
    "ScriptedBrain",
    "ScriptedTurn",
    "create_app",
    "mcp_tool_listing_block",
    "mcp_tool_result_block",
    "mcp_tool_use_block",
    "text_block",
    "text_turn",
    "tool_use_block",
]
