"""Tool calls paired with their results, wherever in a conversation each one sits."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from swiggy_core.models.blocks import (
    ContentBlock,
    McpToolResultBlock,
    McpToolUseBlock,
    ToolResultBlock,
    ToolUseBlock,
)
from swiggy_core.models.messages import ChatMessage

ToolUse = McpToolUseBlock | ToolUseBlock
ToolResult = McpToolResultBlock | ToolResultBlock


@dataclass(frozen=True, slots=True)
class ToolPair:
    """A tool call and its result (None while unanswered), wherever each one sits."""

    use: ToolUse
    result: ToolResult | None
    # Position of the result: (message index, block index); (-1, -1) while unanswered.
    message_index: int = -1
    block_index: int = -1


def tool_pairs(messages: Sequence[ChatMessage]) -> list[ToolPair]:
    """Every tool use paired with its result by id (same message or a later one), in order.

    The one way to walk tool calls: MCP results sit beside their use; client results
    arrive in the next user message.
    """
    uses: dict[str, ToolUse] = {}
    answered: dict[str, ToolPair] = {}
    order: list[str] = []
    for message_index, message in enumerate(messages):
        for block_index, block in enumerate(message.blocks()):
            if isinstance(block, McpToolUseBlock | ToolUseBlock):
                if block.id not in uses:
                    uses[block.id] = block
                    order.append(block.id)
            elif isinstance(block, McpToolResultBlock | ToolResultBlock):
                use = uses.get(block.tool_use_id)
                if use is not None and block.tool_use_id not in answered:
                    answered[block.tool_use_id] = ToolPair(use, block, message_index, block_index)
    return [answered.get(use_id) or ToolPair(uses[use_id], None) for use_id in order]


def block_pairs(blocks: Sequence[ContentBlock]) -> list[ToolPair]:
    """`tool_pairs` of one message's blocks."""
    return tool_pairs([ChatMessage(role="assistant", content=list(blocks))])
