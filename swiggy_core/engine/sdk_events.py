"""The SDK's stream events as the app's UI events (and connector results through the hooks).

Anthropic's connector runs the MCP tools inside the stream: each `mcp_tool_result` is
shown, passed to the post hooks and counted against the turn's tool error budget.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from swiggy_core.engine.connector_hooks import ConnectorCalls
from swiggy_core.engine.errors import classify_mcp_tool_error
from swiggy_core.engine.events import StreamEvent, TextDelta, ToolFinished, ToolStarted
from swiggy_core.engine.tool_error_budget import ToolErrorBudget
from swiggy_core.models import ErrorInfo
from swiggy_core.tool_errors import tool_error_info


def handle_event(
    event: Any, stream: Any, budget: ToolErrorBudget, calls: ConnectorCalls
) -> Generator[StreamEvent, None, ErrorInfo | None]:
    """Yield UI events for one SDK event; return an ErrorInfo when the turn must abort."""
    if event.type == "text":
        yield TextDelta(text=event.text)
    elif event.type == "content_block_stop":
        block = stream.current_message_snapshot.content[event.index]
        if block.type in ("mcp_tool_use", "tool_use"):
            calls.started(block.id)
            # The input is complete only once the block stops (it arrives as JSON deltas).
            yield ToolStarted(
                tool_use_id=block.id,
                name=block.name,
                server_name=getattr(block, "server_name", None),
                input=dict(block.input or {}),
            )
    elif event.type == "content_block_start" and event.content_block.type == "mcp_tool_result":
        return (yield from _tool_result(event.content_block, stream, budget, calls))
    return None


def _tool_result(
    block: Any, stream: Any, budget: ToolErrorBudget, calls: ConnectorCalls
) -> Generator[StreamEvent, None, ErrorInfo | None]:
    text = block.content if isinstance(block.content, str) else _joined_text(block.content)
    use = _tool_use(stream, block.tool_use_id)
    name = str(getattr(use, "name", ""))
    tool_error = classify_mcp_tool_error(text) if block.is_error else None
    arguments = dict(getattr(use, "input", None) or {})
    server = getattr(use, "server_name", None)
    calls.finished(block.tool_use_id, name, server, arguments, text, bool(block.is_error))
    yield ToolFinished(
        tool_use_id=block.tool_use_id,
        name=name,
        is_error=bool(block.is_error),
        content_text=text,
        error=tool_error,
    )
    if tool_error is not None and budget.record(tool_error):
        return tool_error_info(tool_error, name)
    return None


def _joined_text(parts: Any) -> str:
    return "".join(getattr(part, "text", "") for part in parts or [])


def _tool_use(stream: Any, tool_use_id: str) -> Any:
    """The use block a result answers (None when it is not in the snapshot)."""
    for block in stream.current_message_snapshot.content:
        if getattr(block, "id", None) == tool_use_id:
            return block
    return None
