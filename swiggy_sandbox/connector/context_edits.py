"""`context_management` edits: clear old tool results before the model sees the prompt."""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from typing import Any

from swiggy_sandbox.emulator.sse import CHARS_PER_TOKEN

CLEAR_TOOL_USES = "clear_tool_uses_20250919"
# The API's documented defaults for clear_tool_uses.
DEFAULT_TRIGGER: dict[str, Any] = {"type": "input_tokens", "value": 100_000}
DEFAULT_KEEP: dict[str, Any] = {"type": "tool_uses", "value": 3}
CLEARED_PLACEHOLDER = "[Tool result cleared to save context]"

USE_TYPES = frozenset({"tool_use", "mcp_tool_use"})
RESULT_TYPES = frozenset({"tool_result", "mcp_tool_result"})


@dataclass(frozen=True)
class _Use:
    tool_use_id: str
    name: str
    block: dict[str, Any]


def apply_context_edits(
    body: dict[str, Any], input_tokens: int
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The messages after every applicable edit, and what each applied edit reports."""
    messages: list[dict[str, Any]] = body.get("messages") or []
    edits = (body.get("context_management") or {}).get("edits") or []
    applied: list[dict[str, Any]] = []
    for edit in edits:
        if edit.get("type") != CLEAR_TOOL_USES:
            continue
        edited, report = _clear_tool_uses(messages, edit, input_tokens)
        if report is not None:
            messages = edited
            applied.append(report)
    return messages, applied


def _clear_tool_uses(
    messages: list[dict[str, Any]], edit: dict[str, Any], input_tokens: int
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    edited = copy.deepcopy(messages)
    uses = _uses(edited, frozenset(edit.get("exclude_tools") or ()))
    if not _triggered(edit.get("trigger") or DEFAULT_TRIGGER, input_tokens, len(uses)):
        return messages, None
    keep = int((edit.get("keep") or DEFAULT_KEEP).get("value", 0))
    results = _results_by_id(edited)
    clear_inputs = edit.get("clear_tool_inputs") or False
    before = _size(edited)
    cleared = 0
    for use in uses[: max(0, len(uses) - keep)]:
        result = results.get(use.tool_use_id)
        if result is None or _is_cleared(result):
            continue
        result["content"] = _placeholder(result.get("content"))
        if clear_inputs is True or (isinstance(clear_inputs, list) and use.name in clear_inputs):
            use.block["input"] = {}
        cleared += 1
    cleared_tokens = (before - _size(edited)) // CHARS_PER_TOKEN
    at_least = (edit.get("clear_at_least") or {}).get("value", 0)
    if cleared == 0 or cleared_tokens < at_least:
        return messages, None
    report = {
        "type": CLEAR_TOOL_USES,
        "cleared_tool_uses": cleared,
        "cleared_input_tokens": cleared_tokens,
    }
    return edited, report


def _triggered(trigger: dict[str, Any], input_tokens: int, use_count: int) -> bool:
    value = int(trigger.get("value", 0))
    if trigger.get("type") == "tool_uses":
        return use_count > value
    return input_tokens > value


def _uses(messages: list[dict[str, Any]], excluded: frozenset[str]) -> list[_Use]:
    found: list[_Use] = []
    for block in _blocks(messages):
        if block.get("type") in USE_TYPES and block.get("name") not in excluded:
            found.append(_Use(str(block.get("id")), str(block.get("name")), block))
    return found


def _results_by_id(messages: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {
        str(block.get("tool_use_id")): block
        for block in _blocks(messages)
        if block.get("type") in RESULT_TYPES
    }


def _blocks(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        block
        for message in messages
        if isinstance(message.get("content"), list)
        for block in message["content"]
        if isinstance(block, dict)
    ]


def _placeholder(content: Any) -> Any:
    if isinstance(content, list):
        return [{"type": "text", "text": CLEARED_PLACEHOLDER}]
    return CLEARED_PLACEHOLDER


def _is_cleared(result: dict[str, Any]) -> bool:
    return _placeholder(result.get("content")) == result.get("content")


def _size(messages: list[dict[str, Any]]) -> int:
    return len(json.dumps(messages, ensure_ascii=False))
