"""Build the exact keyword arguments for `client.beta.messages.stream(**params)`."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from datetime import datetime
from typing import Any

from swiggy_core.constants import (
    BETAS,
    CACHE_CONTROL_EPHEMERAL,
    CONTEXT_CLEAR_AT_LEAST_TOKENS,
    CONTEXT_EDIT_TYPE,
    CONTEXT_KEEP_TOOL_USES,
    CONTEXT_TRIGGER_INPUT_TOKENS,
    DEFAULT_MODEL,
    MAX_CONTEXT_MESSAGES,
    MAX_TOKENS,
)
from swiggy_core.conversation._context import (
    address_context,
    address_view,
    datetime_context,
    local_now,
)
from swiggy_core.conversation.sanitize import compact_old_turns, sanitize_messages
from swiggy_core.models import ChatMessage, McpToolListingBlock
from swiggy_core.verticals import Vertical, build_system_prompt, get_vertical

SESSION_SUMMARY_PREFIX = (
    "Session state (derived by the app from this conversation; when it disagrees with "
    "the latest tool result, trust the tool result):\n"
)


def build_message_stream_params(
    *,
    vertical_id: str,
    messages: Sequence[ChatMessage],
    model: str = DEFAULT_MODEL,
    swiggy_token: str | None = None,
    mcp_server_urls: Mapping[str, str] | None = None,
    address: Any = None,
    now: datetime | None = None,
    session_summary: str | None = None,
    confirmed_tools: Collection[str] = (),
    known_tools: Mapping[str, Sequence[str]] | None = None,
    max_tokens: int = MAX_TOKENS,
) -> dict[str, Any]:
    """The kwargs of one streamed turn; MCP servers and tools only with a Swiggy token."""
    vertical = get_vertical(vertical_id)
    params: dict[str, Any] = {
        "model": model,
        "max_tokens": max_tokens,
        "system": _system_blocks(vertical.id, address, now, session_summary),
        "messages": [m.to_param() for m in prepare_messages(messages)],
        "betas": list(BETAS),
        "context_management": _context_management(),
    }
    if swiggy_token:
        server = vertical.server
        url = (mcp_server_urls or {}).get(server.key, server.url)
        params["mcp_servers"] = [
            {"type": "url", "url": url, "name": server.name, "authorization_token": swiggy_token}
        ]
        params["tools"] = [
            _toolset(vertical, messages, confirmed_tools, (known_tools or {}).get(server.name, ()))
        ]
    return params


def prepare_messages(messages: Sequence[ChatMessage]) -> list[ChatMessage]:
    """Sanitised, compacted history: the last MAX_CONTEXT_MESSAGES, opening with a user."""
    window = sanitize_messages(messages)[-MAX_CONTEXT_MESSAGES:]
    # The cut can leave an assistant first, or a tool_result whose tool_use was cut off;
    # dropping that orphan can expose another assistant message, so repeat until stable.
    while True:
        trimmed = sanitize_messages(_drop_leading_assistants(window))
        if _same(trimmed, window):
            return compact_old_turns(trimmed)
        window = trimmed


def _same(first: list[ChatMessage], second: list[ChatMessage]) -> bool:
    # sanitize_messages returns the very same objects for messages it did not touch.
    return len(first) == len(second) and all(a is b for a, b in zip(first, second, strict=True))


def _drop_leading_assistants(messages: list[ChatMessage]) -> list[ChatMessage]:
    start = 0
    while start < len(messages) and messages[start].role != "user":
        start += 1
    return messages[start:]


def _system_blocks(
    vertical_id: str, address: Any, now: datetime | None, session_summary: str | None
) -> list[dict[str, Any]]:
    # Stable blocks first and cached; the clock and the summary change every turn.
    blocks: list[dict[str, Any]] = [_text(build_system_prompt(vertical_id), cached=True)]
    view = address_view(address)
    if view is not None:
        blocks.append(_text(address_context(view), cached=True))
    blocks.append(_text(datetime_context(local_now(now))))
    if session_summary and session_summary.strip():
        blocks.append(_text(SESSION_SUMMARY_PREFIX + session_summary.strip()))
    return blocks


def _text(text: str, *, cached: bool = False) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "text", "text": text}
    if cached:
        block["cache_control"] = dict(CACHE_CONTROL_EPHEMERAL)
    return block


def _context_management() -> dict[str, Any]:
    return {
        "edits": [
            {
                "type": CONTEXT_EDIT_TYPE,
                "trigger": {"type": "input_tokens", "value": CONTEXT_TRIGGER_INPUT_TOKENS},
                "keep": {"type": "tool_uses", "value": CONTEXT_KEEP_TOOL_USES},
                "clear_at_least": {
                    "type": "input_tokens",
                    "value": CONTEXT_CLEAR_AT_LEAST_TOKENS,
                },
            }
        ]
    }


def _toolset(
    vertical: Vertical,
    messages: Sequence[ChatMessage],
    confirmed_tools: Collection[str],
    known_names: Sequence[str],
) -> dict[str, Any]:
    """The mcp_toolset: spending tools off unless confirmed this turn; listing pinned."""
    server_name = vertical.server.name
    listing = latest_tool_listing(messages, server_name)
    names = [*known_names, *(str(tool.get("name", "")) for tool in listing or ())]
    # A bare string would make `in` a substring test ("check" in "checkout").
    confirmed = {confirmed_tools} if isinstance(confirmed_tools, str) else set(confirmed_tools)
    configs = {
        name: config
        for name, config in vertical.tool_policy.disabled_configs(names).items()
        if name not in confirmed
    }
    toolset: dict[str, Any] = {"type": "mcp_toolset", "mcp_server_name": server_name}
    if configs:
        toolset["configs"] = configs
    if listing is not None:
        toolset["tools"] = [_pinned(tool) for tool in listing if tool.get("name")]
    return toolset


def latest_tool_listing(
    messages: Sequence[ChatMessage], server_name: str
) -> list[dict[str, Any]] | None:
    """The tools of the newest `mcp_tool_listing` for `server_name` in the history."""
    for message in reversed(messages):
        for block in reversed(message.blocks()):
            if isinstance(block, McpToolListingBlock) and block.mcp_server_name == server_name:
                return block.tools
    return None


def _pinned(tool: Mapping[str, Any]) -> dict[str, Any]:
    schema = tool.get("input_schema")
    entry: dict[str, Any] = {
        "name": tool["name"],
        "input_schema": schema if isinstance(schema, dict) else {"type": "object"},
    }
    if tool.get("description") is not None:
        entry["description"] = tool["description"]
    return entry
