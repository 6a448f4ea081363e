"""Typed chat data: content blocks, messages, usage and turn results.

Blocks mirror the Messages API wire format, so `ChatMessage.to_param()` is exactly what
the API expects back, and one `TypeAdapter` stores and restores a whole conversation
(session_state, the database and test fixtures share this format).

The package holds them by job: `blocks` (the wire format), `usage`, `messages` (a message
and its meta, the card action kinds included), `tool_pairs` and `turn`.
"""

from __future__ import annotations

from swiggy_core.models.blocks import (
    CONTENT_BLOCK_TYPES as CONTENT_BLOCK_TYPES,
)
from swiggy_core.models.blocks import (
    TOOL_RESULT_TYPES as TOOL_RESULT_TYPES,
)
from swiggy_core.models.blocks import (
    TOOL_USE_TYPES as TOOL_USE_TYPES,
)
from swiggy_core.models.blocks import (
    ContentBlock as ContentBlock,
)
from swiggy_core.models.blocks import (
    McpToolListingBlock as McpToolListingBlock,
)
from swiggy_core.models.blocks import (
    McpToolResultBlock as McpToolResultBlock,
)
from swiggy_core.models.blocks import (
    McpToolUseBlock as McpToolUseBlock,
)
from swiggy_core.models.blocks import (
    TextBlock as TextBlock,
)
from swiggy_core.models.blocks import (
    ToolResultBlock as ToolResultBlock,
)
from swiggy_core.models.blocks import (
    ToolUseBlock as ToolUseBlock,
)
from swiggy_core.models.blocks import (
    block_from_dict as block_from_dict,
)
from swiggy_core.models.blocks import (
    result_text as result_text,
)
from swiggy_core.models.messages import (
    ActionKind as ActionKind,
)
from swiggy_core.models.messages import (
    CardAction as CardAction,
)
from swiggy_core.models.messages import (
    ChatMessage as ChatMessage,
)
from swiggy_core.models.messages import (
    ErrorInfo as ErrorInfo,
)
from swiggy_core.models.messages import (
    MessageMeta as MessageMeta,
)
from swiggy_core.models.messages import (
    conversation_adapter as conversation_adapter,
)
from swiggy_core.models.tool_pairs import (
    ToolPair as ToolPair,
)
from swiggy_core.models.tool_pairs import (
    ToolResult as ToolResult,
)
from swiggy_core.models.tool_pairs import (
    ToolUse as ToolUse,
)
from swiggy_core.models.tool_pairs import (
    block_pairs as block_pairs,
)
from swiggy_core.models.tool_pairs import (
    tool_pairs as tool_pairs,
)
from swiggy_core.models.turn import (
    StopReason as StopReason,
)
from swiggy_core.models.turn import (
    TurnResult as TurnResult,
)
from swiggy_core.models.usage import (
    Usage as Usage,
)

# The parts of a tool result live in tool_content; re-exported: they are content too.
from swiggy_core.tool_content import DocumentContent as DocumentContent
from swiggy_core.tool_content import FileContent as FileContent
from swiggy_core.tool_content import ImageContent as ImageContent
from swiggy_core.tool_content import TextContent as TextContent
