"""Stored replies made of real tool results (the payload fixtures), as the app keeps them,
and the exported chat file of a conversation: shared by the chat import tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from swiggy_core.export import build_export, to_json
from swiggy_core.models import (
    ChatMessage,
    McpToolResultBlock,
    McpToolUseBlock,
    MessageMeta,
    TextBlock,
)
from swiggy_core.parsers import ParsedToolResult, parse_tool_result
from swiggy_core.store import ChatStore
from swiggy_core.verticals import VERTICALS

PAYLOADS = Path(__file__).parents[1] / "fixtures" / "payloads"


def payload(name: str) -> dict[str, Any]:
    """A recorded tool call: {"tool", "input", "is_error", "result"} (result as JSON)."""
    data: dict[str, Any] = json.loads((PAYLOADS / f"{name}.json").read_text(encoding="utf-8"))
    return data


def stored_reply(tool_id: str, vertical_id: str, call: dict[str, Any], words: str) -> ChatMessage:
    """An assistant reply holding one MCP call, its stored result and the card parsed from
    it when it arrived (as the session stores it), then its words."""
    content = json.dumps(call["result"])
    card = parse_tool_result(call["tool"], content, vertical_id, call["input"])
    server = VERTICALS[vertical_id].server.name
    blocks = [
        McpToolUseBlock(id=tool_id, name=call["tool"], server_name=server, input=call["input"]),
        McpToolResultBlock(tool_use_id=tool_id, content=content),
        TextBlock(text=words),
    ]
    return ChatMessage(role="assistant", content=blocks, meta=MessageMeta(cards={tool_id: card}))


def exported(store: ChatStore, user_id: str, vertical_id: str, conversation_id: str) -> bytes:
    """The conversation as its JSON file."""
    info = next(
        chat for chat in store.list_chats(user_id, vertical_id) if chat.id == conversation_id
    )
    shop = VERTICALS[vertical_id].display_name
    return to_json(build_export(info, store.load_since(conversation_id), shop)).encode()


def cards_of(messages: list[ChatMessage]) -> list[ParsedToolResult]:
    """The cards a chat's replies draw, in order (one per stored MCP result)."""
    return [
        message.meta.cards[block.tool_use_id]
        for message in messages
        for block in message.blocks()
        if isinstance(block, McpToolResultBlock)
    ]
