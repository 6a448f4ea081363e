"""Stored history ⇄ the client-tool shape the local engine sends (pure functions).

Both engines store one assistant message per turn in the connector's format:
`mcp_tool_use` / `mcp_tool_result` pairs inline. With client tools the API wants each
tool round split instead: assistant[text, tool_use…] → user[tool_result…] → assistant[…].
A result that came with structuredContent is kept as two text blocks (the summary text,
then the JSON object), stored and sent back block by block, never joined. Images and PDFs
follow as the API's image and document blocks, sent back whole (only text is shrunk); a
file part goes back as the one line naming it.

Prompt-cache breakpoints the request builder put on user messages survive the conversion
(user blocks are carried over as they are); `with_round_breakpoint` moves the newest one
to the end of each further tool round of a turn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from swiggy_core.conversation.cache_points import (
    conversation_mark,
    estimated_tokens,
    min_cacheable_tokens,
)
from swiggy_core.mcp.manager import ToolOutput, shrink_for_model
from swiggy_core.models import (
    ContentBlock,
    McpToolResultBlock,
    McpToolUseBlock,
    ToolUseBlock,
)

Message = dict[str, Any]
Block = dict[str, Any]


def to_client_tool_messages(messages: Sequence[Mapping[str, Any]]) -> list[Message]:
    """Wire messages with every MCP tool round split into tool_use → tool_result messages.

    `mcp_tool_listing` blocks are dropped, results over the model limit are shrunk, and
    same-role neighbours are merged so roles alternate.
    """
    converted: list[Message] = []
    for message in messages:
        content = message["content"]
        if message["role"] == "assistant" and isinstance(content, list):
            pieces = _split_rounds(content)
        else:
            pieces = [{"role": message["role"], "content": content}]
        for piece in pieces:
            _append(converted, piece)
    return converted


def to_stored_blocks(
    blocks: Sequence[ContentBlock],
    outputs: Mapping[str, ToolOutput | tuple[str, bool]],
    server_name: str,
    *,
    keep: Sequence[ToolUseBlock] = (),
) -> list[ContentBlock]:
    """One response in the connector's format: answered tool_use → mcp_tool_use + result.

    `outputs` maps a tool_use id to its ToolOutput (or (full text, is_error)); `keep` are
    client tool uses that stay as they are (the approval request, answered later by the
    person). Other unanswered tool_use blocks are dropped: a use without its result cannot
    be sent back.
    """
    kept_ids = {use.id for use in keep}
    stored: list[ContentBlock] = []
    for block in blocks:
        if not isinstance(block, ToolUseBlock) or block.id in kept_ids:
            stored.append(block)
            continue
        if block.id not in outputs:
            continue
        output = ToolOutput(*outputs[block.id])
        stored.append(
            McpToolUseBlock(
                id=block.id, name=block.name, server_name=server_name, input=dict(block.input)
            )
        )
        stored.append(
            McpToolResultBlock(
                tool_use_id=block.id, is_error=output.is_error, content=output.parts()
            )
        )
    return stored


def tool_result_block(
    tool_use_id: str,
    parts: Sequence[str | Mapping[str, Any]],
    is_error: bool,
    tool_input: Mapping[str, Any],
) -> Block:
    """A client `tool_result` block as the model gets it: each text block shrunk on its own,
    an image or document block (a wire dict) passed through whole."""
    return {
        "type": "tool_result",
        "tool_use_id": tool_use_id,
        "is_error": is_error,
        "content": [_for_model(part, tool_input) for part in parts],
    }


def _for_model(part: str | Mapping[str, Any], tool_input: Mapping[str, Any]) -> Block:
    if isinstance(part, str):
        return {"type": "text", "text": shrink_for_model(part, tool_input)}
    if part.get("type") == "text":
        return {"type": "text", "text": shrink_for_model(str(part.get("text", "")), tool_input)}
    return dict(part)  # base64 is never cut: the part goes as it is or not at all


def with_round_breakpoint(
    messages: Sequence[Message],
    *,
    model: str,
    tools: Sequence[Block] = (),
    system: Sequence[Block] = (),
) -> list[Message]:
    """A tool round's messages with the moving breakpoint on their last block.

    The newest breakpoint already there stays (the request before wrote its prefix, so
    this one reads it back); older message breakpoints give way, so the request keeps at
    most two in its messages. Nothing is marked under the model's minimum cacheable length.
    The given messages are not changed.
    """
    marked = [
        (index, position)
        for index, message in enumerate(messages)
        for position, block in enumerate(_listed(message["content"]))
        if "cache_control" in block
    ]
    keep = set(marked[-1:])
    # A breakpoint already marked means its (shorter) prefix was long enough: no need to
    # serialise the whole prompt to size it again.
    mark_last = bool(messages) and (
        bool(marked)
        or estimated_tokens([*tools, *system, *messages]) >= min_cacheable_tokens(model)
    )
    last = len(messages) - 1
    result: list[Message] = []
    for index, message in enumerate(messages):
        blocks = _listed(message["content"])
        wanted = [(index, position) in keep for position in range(len(blocks))]
        if index == last and mark_last and blocks:
            wanted[-1] = True
        changed = [_marked(block, on) for block, on in zip(blocks, wanted, strict=True)]
        same = all(new is old for new, old in zip(changed, blocks, strict=True))
        result.append(message if same else {**message, "content": changed})
    return result


def _listed(content: str | list[Block]) -> list[Block]:
    return content if isinstance(content, list) else []


def _marked(block: Block, on: bool) -> Block:
    if on == ("cache_control" in block):
        return block
    if on:
        return {**block, "cache_control": conversation_mark()}
    return {key: value for key, value in block.items() if key != "cache_control"}


def _split_rounds(content: Sequence[Any]) -> list[Message]:
    """One stored assistant message as alternating assistant / user(tool_result) messages."""
    pieces: list[Message] = []
    said: list[Block] = []  # assistant blocks of the current round
    answers: list[Block] = []  # the tool results that close it
    inputs: dict[str, Mapping[str, Any]] = {}
    for block in content:
        kind = block.get("type")
        if kind == "mcp_tool_listing":
            continue
        if kind == "mcp_tool_result":
            answers.append(_client_result(block, inputs.get(block["tool_use_id"], {})))
            continue
        # Text after results starts the next round; another use joins this one (parallel).
        if answers and kind != "mcp_tool_use":
            pieces += [_message("assistant", said), _message("user", answers)]
            said, answers = [], []
        if kind == "mcp_tool_use":
            inputs[block["id"]] = block.get("input") or {}
            block = {
                "type": "tool_use",
                "id": block["id"],
                "name": block["name"],
                "input": dict(block.get("input") or {}),
            }
        said.append(dict(block))
    if said:
        pieces.append(_message("assistant", said))
    if answers:
        pieces.append(_message("user", answers))
    return pieces


def _client_result(block: Mapping[str, Any], tool_input: Mapping[str, Any]) -> Block:
    content = block.get("content")
    parts: list[str | Mapping[str, Any]] = [str(content or "")]
    if isinstance(content, list):
        parts = list(content) or [""]
    return tool_result_block(block["tool_use_id"], parts, bool(block.get("is_error")), tool_input)


def _message(role: str, blocks: list[Block]) -> Message:
    return {"role": role, "content": list(blocks)}


def _append(messages: list[Message], message: Message) -> None:
    """Append, merging into a same-role predecessor (tool results stay first in a user turn)."""
    if isinstance(message["content"], list) and not message["content"]:
        return
    if not messages or messages[-1]["role"] != message["role"]:
        messages.append(message)
        return
    previous = messages[-1]
    previous["content"] = [*_as_blocks(previous["content"]), *_as_blocks(message["content"])]


def _as_blocks(content: str | list[Block]) -> list[Block]:
    return [{"type": "text", "text": content}] if isinstance(content, str) else list(content)
