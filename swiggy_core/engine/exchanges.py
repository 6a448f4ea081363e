"""Every answered tool call of a conversation, as the local engine's hooks check against
it, read once per message: a turn of a long chat reads only what was stored since the
last turn (see `swiggy_core.conversation.prefix`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from swiggy_core.conversation.prefix import PrefixMemo
from swiggy_core.hooks import ToolExchange, exchange_of
from swiggy_core.models import (
    ChatMessage,
    McpToolResultBlock,
    McpToolUseBlock,
    ToolResultBlock,
    ToolUse,
    ToolUseBlock,
)


@dataclass(frozen=True, slots=True)
class _Calls:
    """Each tool use by id, in the order the uses came (the first of an id counts), with
    its exchange once a result after it answered it."""

    by_id: dict[str, tuple[ToolUse, ToolExchange | None]]


_calls: PrefixMemo[_Calls] = PrefixMemo()


def conversation_exchanges(messages: Sequence[ChatMessage]) -> tuple[ToolExchange, ...]:
    """`hooks.exchanges_of(messages)`, reading only the messages new since the last call."""
    start, by_id = 0, {}
    resumed = _calls.resume(messages)
    if resumed is not None:
        start, by_id = resumed[0], dict(resumed[1].by_id)
    for message in messages[start:]:
        for block in message.content if isinstance(message.content, list) else ():
            if isinstance(block, McpToolUseBlock | ToolUseBlock):
                by_id.setdefault(block.id, (block, None))
            elif isinstance(block, McpToolResultBlock | ToolResultBlock):
                use, answered = by_id.get(block.tool_use_id, (None, None))
                if use is not None and answered is None:
                    by_id[block.tool_use_id] = (use, exchange_of(use, block))
    _calls.remember(messages, len(messages), _Calls(by_id))
    return tuple(answered for _, answered in by_id.values() if answered is not None)
