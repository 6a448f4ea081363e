"""Build the exact keyword arguments for `client.beta.messages.stream(**params)`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Literal, Required, TypedDict

from swiggy_core.approval.request_tool import approval_tool
from swiggy_core.constants import (
    BETA_MCP_CLIENT,
    BETAS,
    CACHE_WINDOW_STEP_MESSAGES,
    CACHE_WINDOW_TRUNCATED_MESSAGES,
    CONTEXT_CLEAR_AT_LEAST_TOKENS,
    CONTEXT_EDIT_TYPE,
    CONTEXT_KEEP_TOOL_USES,
    CONTEXT_TRIGGER_INPUT_TOKENS,
    DEFAULT_MODEL,
    MAX_CONTEXT_MESSAGES,
    MAX_TOKENS,
    SESSION_SUMMARY_PREFIX,
    TURN_CONTEXT_HEADER,
)
from swiggy_core.conversation._context import (
    address_context,
    address_view,
    datetime_context,
    local_now,
)
from swiggy_core.conversation.cache_points import mark_cache_breakpoints
from swiggy_core.conversation.prefix import PrefixMemo
from swiggy_core.conversation.sanitize import sanitize_messages
from swiggy_core.conversation.truncate import truncate_history
from swiggy_core.models import ChatMessage, McpToolListingBlock
from swiggy_core.tool_content import mcp_results_as_text
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
    confirmable: Sequence[Mapping[str, Any]] = (),
    diet_note: str | None = None,
) -> StreamParams:
    """The kwargs of one streamed turn; tools only when Swiggy is reachable.

    Spending tools are never offered: the model asks for them through the approval tool.
    `connector`: the MCP server and its toolset (spenders switched off). `local`: the
    app's `client_tools` (the server's non-spending tools, listed by the caller).
    The clock and the session summary change every turn, so they ride at the end of the
    newest user message, after the cached prefix (see `cache_points`); so does the
    person's standing diet (`diet_note`), which may change between any two turns.
    """
    vertical = get_vertical(vertical_id)
    connector = tool_mode == "connector" and bool(swiggy_token)
    system = _system_blocks(vertical.id, address)
    wire = [m.to_param() for m in prepare_messages(messages)]
    if tool_mode != "local":  # the connector's result block carries text only
        wire = [mcp_results_as_text(message) for message in wire]
    params: StreamParams = {
        "model": model,
        "max_tokens": max_tokens,
        "system": system,
        "messages": wire,
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
        toolset = _toolset(vertical, messages, (known_tools or {}).get(server.name, ()))
        tools.append(toolset)
        if "tools" in toolset:
            # The model reads the listing pinned in the tools; the history's copies of it,
            # each as long, are not sent again (the local engine leaves them out too).
            wire[:] = [_without_listing(message, server.name) for message in wire]
    elif tool_mode == "local":
        policy = vertical.tool_policy
        tools += [dict(tool) for tool in client_tools if not policy.is_money_spending(tool["name"])]
    if tools:
        tools.append(approval_tool(vertical, confirmable))
        params["tools"] = tools
    _add_turn_context(wire, turn_context(now, session_summary, diet_note))
    mark_cache_breakpoints(model, tools, system, wire)
    return params


def prepare_messages(messages: Sequence[ChatMessage]) -> list[ChatMessage]:
    """Sanitised history in a window of at most MAX_CONTEXT_MESSAGES, opening with a user.

    The window opens at a multiple of CACHE_WINDOW_STEP_MESSAGES, so between its steps each
    request only appends to the previous one (a cached prefix). Once the history no longer
    fits, the tool results in the window's oldest CACHE_WINDOW_TRUNCATED_MESSAGES are
    truncated: that changes only when the window steps, when the whole cached history is
    written again anyway.
    """
    # The partial reply of a failed turn stays on screen but is not sent again.
    sendable = sanitize_messages([message for message in messages if not message.meta.excluded])
    anchor = _window_anchor(len(sendable))
    window = sendable[max(anchor, 0) :]
    # The cut can leave an assistant first, or a tool_result whose tool_use was cut off;
    # dropping that orphan can expose another assistant message, so repeat until stable.
    while True:
        trimmed = sanitize_messages(_drop_leading_assistants(window))
        if _same(trimmed, window):
            break
        window = trimmed
    if anchor <= 0:
        return window  # nothing cut yet: the whole history fits, untruncated
    truncated = CACHE_WINDOW_TRUNCATED_MESSAGES - (len(sendable) - len(window) - anchor)
    if truncated <= 0:
        return window
    return truncate_history(window, keep_last=max(len(window) - truncated, 0))


def _window_anchor(count: int) -> int:
    """The smallest multiple of the step that leaves at most MAX_CONTEXT_MESSAGES after it
    (zero or less while the whole history fits)."""
    step = CACHE_WINDOW_STEP_MESSAGES
    return -(-(count - MAX_CONTEXT_MESSAGES) // step) * step


def turn_context(
    now: datetime | None, session_summary: str | None, diet_note: str | None = None
) -> str:
    """The per-turn context text: the clock, the diet profile and the session summary
    (each of the last two when there is one)."""
    parts = [TURN_CONTEXT_HEADER, datetime_context(local_now(now))]
    if diet_note:
        parts.append(diet_note)
    if session_summary and session_summary.strip():
        parts.append(SESSION_SUMMARY_PREFIX + session_summary.strip())
    return "\n\n".join(parts)


def _add_turn_context(wire: list[dict[str, Any]], text: str) -> None:
    """Append the context to the newest user message, after everything it keeps next turn."""
    for message in reversed(wire):
        if message["role"] == "user":
            content = message["content"]
            blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
            message["content"] = [*blocks, {"type": "text", "text": text}]
            return


def _same(first: list[ChatMessage], second: list[ChatMessage]) -> bool:
    # sanitize_messages returns the very same objects for messages it did not touch.
    return len(first) == len(second) and all(a is b for a, b in zip(first, second, strict=True))


def _drop_leading_assistants(messages: list[ChatMessage]) -> list[ChatMessage]:
    start = 0
    while start < len(messages) and messages[start].role != "user":
        start += 1
    return messages[start:]


def _system_blocks(vertical_id: str, address: Any) -> list[dict[str, Any]]:
    """The static system prompt: the profile, then the active address (the location lock)."""
    blocks: list[dict[str, Any]] = [{"type": "text", "text": build_system_prompt(vertical_id)}]
    view = address_view(address)
    if view is not None:
        blocks.append({"type": "text", "text": address_context(view)})
    return blocks


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
    return _newest_listings(messages).get(server_name)


# Per history: the newest listing of each server among its seen messages.
_listings: PrefixMemo[dict[str, list[dict[str, Any]]]] = PrefixMemo()


def _newest_listings(messages: Sequence[ChatMessage]) -> dict[str, list[dict[str, Any]]]:
    """Server name → the tools of its newest listing (only new messages are read)."""
    start, newest = 0, {}
    resumed = _listings.resume(messages)
    if resumed is not None:
        start, newest = resumed[0], dict(resumed[1])
    for message in messages[start:]:
        for block in message.content if isinstance(message.content, list) else ():
            if isinstance(block, McpToolListingBlock):
                newest[block.mcp_server_name] = block.tools
    _listings.remember(messages, len(messages), newest)
    return newest


def _without_listing(message: dict[str, Any], server_name: str) -> dict[str, Any]:
    """A wire message without `server_name`'s tool listings (kept if nothing else is left)."""
    content = message["content"]
    if isinstance(content, str):
        return message
    kept = [
        block
        for block in content
        if block.get("type") != "mcp_tool_listing" or block.get("mcp_server_name") != server_name
    ]
    return {**message, "content": kept} if kept and len(kept) < len(content) else message


def _pinned(tool: Mapping[str, Any]) -> dict[str, Any]:
    schema = tool.get("input_schema")
    entry: dict[str, Any] = {
        "name": tool["name"],
        "input_schema": schema if isinstance(schema, dict) else {"type": "object"},
    }
    if tool.get("description") is not None:
        entry["description"] = tool["description"]
    return entry
