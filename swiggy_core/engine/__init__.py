"""Engines: take one `TurnRequest`, stream the turn's events; classify errors, retry."""

from swiggy_core.engine.choice import choose_engine, engine_named
from swiggy_core.engine.client import make_client
from swiggy_core.engine.connector import ConnectorEngine
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
from swiggy_core.engine.local import HELD_MESSAGE, MAX_TOOL_ROUNDS, LocalEngine, local_params
from swiggy_core.engine.local_history import to_client_tool_messages, to_stored_blocks
from swiggy_core.engine.protocol import Engine
from swiggy_core.engine.requests import (
    AbortHook,
    StopCheck,
    StreamRequest,
    TurnRequest,
    never_stop,
)
from swiggy_core.engine.retry import RetryPolicy, extract_rate_limit_headers, parse_retry_after
from swiggy_core.engine.setup import EngineName, TurnSetup, build_turn_params
from swiggy_core.engine.stream import run_message_stream

__all__ = [
    "HELD_MESSAGE",
    "MAX_TOOL_ROUNDS",
    "AbortHook",
    "ConnectorEngine",
    "Engine",
    "EngineName",
    "LocalEngine",
    "RetryPolicy",
    "RetryScheduled",
    "StopCheck",
    "StreamEvent",
    "StreamFailed",
    "StreamRequest",
    "TextDelta",
    "ToolError",
    "ToolErrorCategory",
    "ToolFinished",
    "ToolStarted",
    "TurnDone",
    "TurnRequest",
    "TurnSetup",
    "build_turn_params",
    "choose_engine",
    "classify_api_error",
    "classify_mcp_tool_error",
    "engine_named",
    "error_info",
    "extract_rate_limit_headers",
    "local_params",
    "make_client",
    "never_stop",
    "parse_retry_after",
    "run_message_stream",
    "to_client_tool_messages",
    "to_stored_blocks",
]
