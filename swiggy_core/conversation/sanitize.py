"""Make stored history safe to send: every tool use has its result, roles alternate."""

from __future__ import annotations

import threading
from collections.abc import Sequence

from swiggy_core.constants import COMPACT_AFTER_MESSAGES
from swiggy_core.conversation.prefix import PrefixMemo
from swiggy_core.conversation.truncate import truncate_history
from swiggy_core.models import (
    ChatMessage,
    ContentBlock,
    McpToolResultBlock,
    McpToolUseBlock,
    TextBlock,
    ToolResultBlock,
    ToolUseBlock,
)


def sanitize_messages(messages: Sequence[ChatMessage]) -> list[ChatMessage]:
    """Drop orphan tool blocks and empty messages, then merge same-role neighbours.

    The same history grown by new messages is picked up where the last call left off
    (`prefix`): only its new messages, and the one before them, are worked on again.
    """
    start, cleaned = 0, []
    resumed = _progress.resume(messages)
    if resumed is not None:  # all but the last seen message is final: its follower is new
        start, cleaned = resumed[0] - 1, list(resumed[1])
    for index in range(start, len(messages)):
        if index == len(messages) - 1:
            _progress.remember(messages, len(messages), tuple(cleaned))
        message = messages[index]
        previous = messages[index - 1] if index > 0 else None
        following = messages[index + 1] if index + 1 < len(messages) else None
        kept = _sanitized(message, previous, following)
        if kept is None:
            continue
        if cleaned and cleaned[-1].role == kept.role:
            cleaned[-1] = _merge(cleaned[-1], kept)
        else:
            cleaned.append(kept)
    return cleaned


def sanitize_assistant_blocks(blocks: Sequence[ContentBlock]) -> list[ContentBlock]:
    """Clean one streamed response: MCP uses and results must pair up inside it.

    Client `tool_use` blocks are kept: their results arrive in the next user message.
    """
    return [
        block
        for block in _filter_mcp(blocks)
        if not isinstance(block, ToolResultBlock) and not _is_blank_text(block)
    ]


def compact_old_turns(
    messages: Sequence[ChatMessage], keep_last: int = COMPACT_AFTER_MESSAGES
) -> list[ChatMessage]:
    """Sanitise, then cut the tool results of turns older than the last `keep_last`."""
    return truncate_history(sanitize_messages(messages), keep_last=keep_last)


class _Unchanged:
    """Marker: the message needs no edit (keeps the original object)."""


_UNCHANGED = _Unchanged()
# Sanitised messages remembered by (message, previous, following) identity.
_MEMO_ENTRIES = 8192
_Remembered = tuple[ChatMessage, ChatMessage | None, ChatMessage | None, ChatMessage | None]
_memo: dict[tuple[int, int, int], _Remembered] = {}
_memo_lock = threading.Lock()
# Per history: the sanitised list of all its seen messages but the last.
_progress: PrefixMemo[tuple[ChatMessage, ...]] = PrefixMemo()


def _sanitized(
    message: ChatMessage, previous: ChatMessage | None, following: ChatMessage | None
) -> ChatMessage | None:
    """The message as sent (None: nothing sendable), remembered per neighbourhood.

    The outcome depends only on the message and its two neighbours, and stored messages
    are never edited, so each is worked out once rather than on every turn. An entry keeps
    the three objects alive, so their ids cannot be reused while it is remembered.
    """
    key = (id(message), id(previous), id(following))
    hit = _memo.get(key)  # a plain read: dict lookups are atomic, and every hit is checked
    if hit is not None and hit[0] is message and hit[1] is previous and hit[2] is following:
        return hit[3]
    blocks = _paired_blocks(message, previous, following)
    if blocks is None:
        kept = None
    else:
        kept = message if blocks is _UNCHANGED else message.model_copy(update={"content": blocks})
    with _memo_lock:
        _memo[key] = (message, previous, following, kept)
        while len(_memo) > _MEMO_ENTRIES:  # the oldest entries go first
            _memo.pop(next(iter(_memo)))
    return kept


def _paired_blocks(
    message: ChatMessage, previous: ChatMessage | None, following: ChatMessage | None
) -> list[ContentBlock] | _Unchanged | None:
    """The message's blocks minus orphans; None when nothing sendable is left."""
    if isinstance(message.content, str):
        return _UNCHANGED if message.content.strip() else None
    answered = _client_result_ids(following) if message.role == "assistant" else set()
    asked = _client_use_ids(previous) if message.role == "user" else set()
    blocks = _filter_mcp(message.content) if message.role == "assistant" else message.content
    kept = [block for block in blocks if _keep(block, message.role, answered, asked)]
    if not kept:
        return None
    return _UNCHANGED if len(kept) == len(message.content) else kept


def _keep(block: ContentBlock, role: str, answered: set[str], asked: set[str]) -> bool:
    """Whether a block survives; MCP blocks reaching here were already paired."""
    if _is_blank_text(block):
        return False  # the API rejects empty text blocks
    if isinstance(block, McpToolUseBlock | McpToolResultBlock):
        return role == "assistant"
    if isinstance(block, ToolUseBlock):
        return role == "assistant" and block.id in answered
    if isinstance(block, ToolResultBlock):
        return role == "user" and block.tool_use_id in asked
    return True


def _filter_mcp(blocks: Sequence[ContentBlock]) -> list[ContentBlock]:
    """Drop MCP uses without a later result and results without an earlier use.

    Both live in the same assistant message; only the first use and result of an id count.
    """
    seen_uses: set[str] = set()
    paired: set[str] = set()
    for block in blocks:
        if isinstance(block, McpToolUseBlock):
            seen_uses.add(block.id)
        elif isinstance(block, McpToolResultBlock) and block.tool_use_id in seen_uses:
            paired.add(block.tool_use_id)
    kept: list[ContentBlock] = []
    kept_uses: set[str] = set()
    kept_results: set[str] = set()
    for block in blocks:
        if isinstance(block, McpToolUseBlock):
            if block.id not in paired or block.id in kept_uses:
                continue
            kept_uses.add(block.id)
        elif isinstance(block, McpToolResultBlock):
            if block.tool_use_id not in kept_uses or block.tool_use_id in kept_results:
                continue
            kept_results.add(block.tool_use_id)
        kept.append(block)
    return kept


def _client_use_ids(message: ChatMessage | None) -> set[str]:
    if message is None or message.role != "assistant":
        return set()
    return {b.id for b in message.blocks() if isinstance(b, ToolUseBlock)}


def _client_result_ids(message: ChatMessage | None) -> set[str]:
    if message is None or message.role != "user":
        return set()
    return {b.tool_use_id for b in message.blocks() if isinstance(b, ToolResultBlock)}


def _is_blank_text(block: ContentBlock) -> bool:
    return isinstance(block, TextBlock) and not block.text.strip()


def _merge(first: ChatMessage, second: ChatMessage) -> ChatMessage:
    """Join two same-role messages (left behind when the one between them was dropped)."""
    if isinstance(first.content, str) and isinstance(second.content, str):
        content: str | list[ContentBlock] = f"{first.content}\n\n{second.content}"
    else:
        content = [*first.blocks(), *second.blocks()]
        # Tool results must open a user message, so they move ahead of any text.
        if first.role == "user":
            content.sort(key=lambda b: not isinstance(b, ToolResultBlock))
    return first.model_copy(update={"content": content, "meta": first.meta.merged(second.meta)})
