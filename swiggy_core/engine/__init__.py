"""Engines: stream a turn through the SDK, classify errors, retry."""

from swiggy_core.engine.client import make_client
from swiggy_core.engine.errors import (
    ToolError,
    ToolErrorCategory,
    classify_api_error,
    classify_mcp_tool_error,
    error_info,
)
from swiggy_core.engine.events import (
    RetryScheduled,
    StreamEvent,
    StreamFailed,
    TextDelta,
    ToolFinished,
    ToolStarted,
    TurnDone,
)
from swiggy_core.engine.local import HELD_MESSAGE, MAX_TOOL_ROUNDS, local_params, run_local_turn
from swiggy_core.engine.local_history import to_client_tool_messages, to_stored_blocks
from swiggy_core.engine.retry import RetryPolicy, extract_rate_limit_headers, parse_retry_after
from swiggy_core.engine.setup import Engine, TurnSetup, build_turn_params, choose_engine
from swiggy_core.engine.stream import StopCheck, run_message_stream

__all__ = [
    "HELD_MESSAGE",
    "MAX_TOOL_ROUNDS",
    "Engine",
    "RetryPolicy",
    "RetryScheduled",
    "StopCheck",
    "StreamEvent",
    "StreamFailed",
    "TextDelta",
    "ToolError",
    "ToolErrorCategory",
    "ToolFinished",
    "ToolStarted",
    "TurnDone",
    "TurnSetup",
    "build_turn_params",
    "choose_engine",
    "classify_api_error",
    "classify_mcp_tool_error",
    "error_info",
    "extract_rate_limit_headers",
    "local_params",
    "make_client",
    "parse_retry_after",
    "run_local_turn",
    "run_message_stream",
    "to_client_tool_messages",
    "to_stored_blocks",
]
