"""A reply's tool results parsed into cards, once, by tool_use_id (stored with the reply)."""

from __future__ import annotations

from collections.abc import Sequence

from swiggy_core.models import ContentBlock, block_pairs
from swiggy_core.parsers.orchestrator import parse_tool_result
from swiggy_core.parsers.results import ParsedToolResult


def parse_cards(blocks: Sequence[ContentBlock], vertical_id: str) -> dict[str, ParsedToolResult]:
    """Each tool result of a reply parsed once, by tool_use_id."""
    return {
        pair.use.id: parse_tool_result(
            pair.use.name,
            pair.result.content,  # block by block: a JSON block wins over a summary
            vertical_id,
            pair.use.input,
            is_error=pair.result.is_error,
        )
        for pair in block_pairs(blocks)
        if pair.result is not None
    }
