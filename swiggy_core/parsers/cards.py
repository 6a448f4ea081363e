"""A reply's tool results parsed into cards, once, by tool_use_id (stored with the reply).

Search cards are ranked here, against the call's own query and the person's request, so
the stored order is the order shown: a rerun never ranks again.
"""

from __future__ import annotations

from collections.abc import Sequence

from swiggy_core.actions import visible_text
from swiggy_core.models import ChatMessage, ContentBlock, ToolResultBlock, block_pairs
from swiggy_core.parsers.orchestrator import parse_tool_result
from swiggy_core.parsers.results import ParsedToolResult
from swiggy_core.ranking import fit_cards


def parse_cards(
    blocks: Sequence[ContentBlock], vertical_id: str, *, request: str | None = None
) -> dict[str, ParsedToolResult]:
    """Each tool result of a reply parsed once, by tool_use_id; searches ranked.

    `request` is what the person last typed (see `latest_request`): it adds the diet,
    budget and quantity a model's search query may leave out.
    """
    pairs = [pair for pair in block_pairs(blocks) if pair.result is not None]
    cards = {
        pair.use.id: parse_tool_result(
            pair.use.name,
            pair.result.content,  # block by block: a JSON block wins over a summary
            vertical_id,
            pair.use.input,
            is_error=pair.result.is_error,
        )
        for pair in pairs
        if pair.result is not None
    }
    inputs = {pair.use.id: pair.use.input for pair in pairs}
    return fit_cards(cards, inputs, vertical_id, request)


def latest_request(history: Sequence[ChatMessage]) -> str | None:
    """The person's latest typed words (a pressed card button is not a request)."""
    for message in reversed(history):
        if message.role != "user" or message.meta.action is not None:
            continue
        blocks = message.blocks()
        if blocks and all(isinstance(block, ToolResultBlock) for block in blocks):
            continue  # the app's answer to a tool call, not something the person said
        text = visible_text(message).strip()
        if text:
            return text
    return None
