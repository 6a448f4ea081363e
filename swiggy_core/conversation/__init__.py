"""Conversation: request building, session summary, history sanitising, result reduction."""

from swiggy_core.conversation.reduce import (
    REDUCE_SLACK,
    Reduced,
    expand_back_references,
    reduce_for_model,
)
from swiggy_core.conversation.request import (
    StreamParams,
    ToolMode,
    build_message_stream_params,
    latest_tool_listing,
    prepare_messages,
)
from swiggy_core.conversation.sanitize import (
    compact_old_turns,
    sanitize_assistant_blocks,
    sanitize_messages,
)
from swiggy_core.conversation.summary import build_session_state_summary
from swiggy_core.conversation.truncate import (
    TRUNCATION_SLACK,
    truncate_history,
    truncate_tool_result,
)

__all__ = [
    "REDUCE_SLACK",
    "TRUNCATION_SLACK",
    "Reduced",
    "StreamParams",
    "ToolMode",
    "build_message_stream_params",
    "build_session_state_summary",
    "compact_old_turns",
    "expand_back_references",
    "latest_tool_listing",
    "prepare_messages",
    "reduce_for_model",
    "sanitize_assistant_blocks",
    "sanitize_messages",
    "truncate_history",
    "truncate_tool_result",
]
