"""Build the exact keyword arguments for `client.beta.messages.stream(**params)`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Literal, Required, TypedDict

from swiggy_core.approval_tool import approval_tool
from swiggy_core.constants import (
    BETA_MCP_CLIENT,
    BETAS,
    CACHE_CONTROL_EPHEMERAL,
    CONTEXT_CLEAR_AT_LEAST_TOKENS,
    CONTEXT_EDIT_TYPE,
    CONTEXT_KEEP_TOOL_USES,
    CONTEXT_TRIGGER_INPUT_TOKENS,
    DEFAULT_MODEL,
    MAX_CONTEXT_MESSAGES,
    MAX_TOKENS,
    SESSION_SUMMARY_PREFIX,
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


class StreamParams(TypedDict, total=False):
    """The keyword arguments of `client.beta.messages.stream(**params)`."""

    model: Required[str]
    max_tokens: Required[int]
    system: Required[list[dict[str, Any]]]
    messages: Required[list[dict[str, Any]]]
    betas: Required[list[str]]
    context_management: dict[str, Any]
    mcp_servers: list[dict[str, Any]]
    tools: list[dict[str, Any]]
    tool_choice: dict[str, Any]


# Who runs the MCP tools: Anthropic's connector, or the app (client tools).
ToolMode = Literal["connector", "local"]


def build_message_stream_params(
    *,
    vertical_id: str,
    messages: Sequence[ChatMessage],
    model: str = DEFAULT_MODEL,
    tool_mode: ToolMode = "connector",
    swiggy_token: str | None = None,
    mcp_server_urls: Mapping[str, str] | None = None,
    client_tools: Sequence[Mapping[str, Any]] = (),
    address: Any = None,
    now: datetime | None = None,
    session_summary: str | None = None,
    known_tools: Mapping[str, Sequence[str]] | None = None,
    max_tokens: int = MAX_TOKENS,
) -> StreamParams:
    """The kwargs of one streamed turn; tools only when Swiggy is reachable.

    Spending tools are never offered: the model asks for them through the approval tool.
    `connector`: the MCP server and its toolset (spenders switched off). `local`: the
    app's `client_tools` (the server's non-spending tools, listed by the caller).
    """
    vertical = get_vertical(vertical_id)
    connector = tool_mode == "connector" and bool(swiggy_token)
    params: StreamParams = {
        "model": model,
        "max_tokens": max_tokens,
        "system": _system_blocks(vertical.id, address, now, session_summary),
        "messages": [m.to_param() for m in prepare_messages(messages)],
        "betas": [beta for beta in BETAS if connector or beta != BETA_MCP_CLIENT],
        "context_management": _context_management(),
    }
    tools: list[dict[str, Any]] = []
    if connector:
        server = vertical.server
        url = (mcp_server_urls or {}).get(server.key, server.url)
        params["mcp_servers"] = [
            {"type": "url", "url": url, "name": server.name, "authorization_token": swiggy_token}
        ]
        tools.append(_toolset(vertical, messages, (known_tools or {}).get(server.name, ())))
    elif tool_mode == "local":
        policy = vertical.tool_policy
        tools += [dict(tool) for tool in client_tools if not policy.is_money_spending(tool["name"])]
    if tools:
        tools.append(approval_tool(vertical))
        # The tools open the prompt-cache prefix and rarely change within a session.
        tools[-1]["cache_control"] = dict(CACHE_CONTROL_EPHEMERAL)
        params["tools"] = tools
    return params


def prepare_messages(messages: Sequence[ChatMessage]) -> list[ChatMessage]:
    """Sanitised, compacted history: the last MAX_CONTEXT_MESSAGES, opening with a user."""
    # The partial reply of a failed turn stays on screen but is not sent again.
    sendable = [message for message in messages if not message.meta.excluded]
    window = sanitize_messages(sendable)[-MAX_CONTEXT_MESSAGES:]
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
    vertical: Vertical, messages: Sequence[ChatMessage], known_names: Sequence[str]
) -> dict[str, Any]:
    """The mcp_toolset: every spending tool switched off; the listing pinned when known."""
    server_name = vertical.server.name
    listing = latest_tool_listing(messages, server_name)
    names = [*known_names, *(str(tool.get("name", "")) for tool in listing or ())]
    configs = vertical.tool_policy.disabled_configs(names)
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
