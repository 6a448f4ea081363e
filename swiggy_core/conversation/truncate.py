"""Tool results cut for the model: old ones in the history reduced by importance, and
the query-aware cut (`truncate_tool_result`) for callers that want a plain size bound.
Both keep JSON valid JSON; text gets a marker.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterable, Sequence
from typing import Any, Final

from swiggy_core.constants import COMPACT_AFTER_MESSAGES, TOOL_RESULT_TRUNCATE_CHARS
from swiggy_core.conversation._json_fit import (
    ELLIPSIS,
    MARKER_KEY,
    TRUNCATION_SLACK,
    shrink_document,
)
from swiggy_core.conversation.reduce import reduce_for_model
from swiggy_core.models import (
    ChatMessage,
    ContentBlock,
    McpToolResultBlock,
    TextContent,
    ToolResultBlock,
    tool_pairs,
)

__all__ = ["MARKER_KEY", "TRUNCATION_SLACK", "truncate_history", "truncate_tool_result"]

_WORD: Final = re.compile(r"\w{2,}")
ToolResult = McpToolResultBlock | ToolResultBlock


def truncate_tool_result(
    text: str, *, query: str = "", limit: int = TOOL_RESULT_TRUNCATE_CHARS
) -> str:
    """Shrink `text` to about `limit` chars; valid JSON stays valid JSON."""
    limit = max(limit, 0)
    if len(text) <= limit:
        return text
    try:
        value = json.loads(text)
        return shrink_document(value, len(text), limit, _query_words(query))
    except ValueError:
        return _cut_text(text, limit)
    except RecursionError:  # JSON nested deeper than Python parses: stay valid JSON
        return json.dumps(f"[{MARKER_KEY}: {len(text)} chars of deeply nested JSON]")


def truncate_history(
    messages: Sequence[ChatMessage],
    *,
    keep_last: int = COMPACT_AFTER_MESSAGES,
    limit: int = TOOL_RESULT_TRUNCATE_CHARS,
) -> list[ChatMessage]:
    """Reduce tool results in all but the last `keep_last` messages by importance.

    Results within `limit` stay as they are; inputs are never modified.
    """
    cut = max(len(messages) - max(keep_last, 0), 0)
    if cut == 0:
        return list(messages)
    queries = _queries_by_tool_use_id(messages)
    return [
        _truncate_message(message, queries, limit) if index < cut else message
        for index, message in enumerate(messages)
    ]


def _cut_text(text: str, limit: int) -> str:
    return f"{text[:limit]}\n{ELLIPSIS}[{MARKER_KEY}: {len(text) - limit} of {len(text)} chars]"


def _query_words(query: str) -> frozenset[str]:
    return frozenset(w.lower() for w in _WORD.findall(query))


def _queries_by_tool_use_id(messages: Iterable[ChatMessage]) -> dict[str, str]:
    return {pair.use.id: _query_of(pair.use.input) for pair in tool_pairs(list(messages))}


def _query_of(tool_input: dict[str, Any]) -> str:
    query = tool_input.get("query")
    if isinstance(query, str):
        return query
    return " ".join(v for v in tool_input.values() if isinstance(v, str))


def _truncate_message(message: ChatMessage, queries: dict[str, str], limit: int) -> ChatMessage:
    """The message with its results cut, worked out once per message, limit and queries:
    the same old results are cut again on every turn until the window moves on."""
    if isinstance(message.content, str):
        return message
    asked = tuple(
        queries.get(block.tool_use_id, "")
        for block in message.content
        if isinstance(block, McpToolResultBlock | ToolResultBlock)
    )
    key = (id(message), limit, asked)
    hit = _cut.get(key)  # a plain read: dict lookups are atomic, and every hit is checked
    if hit is not None and hit[0] is message:
        return hit[1]
    cut = _cut_message(message, message.content, queries, limit)
    with _cut_lock:
        _cut[key] = (message, cut)
        while len(_cut) > _CUT_ENTRIES:  # the oldest entries go first
            _cut.pop(next(iter(_cut)))
    return cut


# Cut messages by (message id, limit, the queries of its results); an entry keeps its
# message alive, so the id is not reused while remembered.
_CUT_ENTRIES: Final = 1024
_cut: dict[tuple[int, int, tuple[str, ...]], tuple[ChatMessage, ChatMessage]] = {}
_cut_lock = threading.Lock()


def _cut_message(
    message: ChatMessage, content: list[ContentBlock], queries: dict[str, str], limit: int
) -> ChatMessage:
    blocks = [
        _truncate_block(block, queries.get(block.tool_use_id, ""), limit)
        if isinstance(block, McpToolResultBlock | ToolResultBlock)
        else block
        for block in content
    ]
    if all(new is old for new, old in zip(blocks, content, strict=True)):
        return message
    return message.model_copy(update={"content": blocks})


def _truncate_block(block: ToolResult, query: str, limit: int) -> ToolResult:
    if isinstance(block.content, str):
        if len(block.content) <= limit:
            return block
        reduced = reduce_for_model(block.content, limit=limit, query=query)
        return block.model_copy(update={"content": reduced.text})
    # Images, documents and files are never cut (base64 cut is garbage): they stay whole.
    texts = [part for part in block.content if isinstance(part, TextContent)]
    if sum(len(part.text) for part in texts) <= limit:
        return block
    # Each part is its own document (a summary, then structuredContent as JSON): a short
    # one stays whole and the long ones share what is left.
    shares = iter(_fair_shares([len(part.text) for part in texts], limit))
    cut = [
        TextContent(text=reduce_for_model(part.text, limit=next(shares), query=query).text)
        if isinstance(part, TextContent)
        else part
        for part in block.content
    ]
    return block.model_copy(update={"content": cut})


def _fair_shares(sizes: list[int], limit: int) -> list[int]:
    """Max-min fair split of `limit`: parts under their share keep their size."""
    shares = [0] * len(sizes)
    remaining, left = limit, len(sizes)
    for index in sorted(range(len(sizes)), key=sizes.__getitem__):
        share = remaining // left if left else 0
        shares[index] = min(sizes[index], share)
        remaining -= shares[index]
        left -= 1
    return shares
