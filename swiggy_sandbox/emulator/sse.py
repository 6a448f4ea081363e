"""Turn a ScriptedTurn into the Messages API's exact SSE events (or its non-streaming JSON)."""

from __future__ import annotations

import json
import math
import re
import uuid
from collections.abc import Iterator
from typing import Any

from swiggy_sandbox.emulator.script import Block, ScriptedTurn

# Words per text_delta: small enough that every realistic sentence streams in pieces.
WORDS_PER_TEXT_DELTA = 3
# Characters per input_json_delta; tool inputs are always split into at least two pieces.
JSON_DELTA_CHARS = 24
# The usual rule of thumb for English text: about four characters per token.
CHARS_PER_TOKEN = 4

# Blocks whose input the model writes token by token, so it arrives as input_json_delta.
STREAMED_INPUT_TYPES = frozenset({"tool_use", "mcp_tool_use"})
# Blocks produced by the server side (the MCP connector): they arrive whole in the start event.
WHOLE_BLOCK_TYPES = frozenset({"mcp_tool_result", "mcp_tool_listing"})

_WORD_BOUNDARY = re.compile(r"(?<=\s)(?=\S)")


def new_message_id() -> str:
    """An id shaped like the real API's `msg_…` ids."""
    return f"msg_{uuid.uuid4().hex[:24]}"


def new_request_id() -> str:
    """An id shaped like the real API's `req_…` request ids."""
    return f"req_{uuid.uuid4().hex[:24]}"


def encode_event(event_type: str, payload: dict[str, Any]) -> bytes:
    """One SSE event: an `event:` line (the SDK skips events lacking one) and a JSON data line."""
    data = json.dumps({"type": event_type, **payload}, ensure_ascii=False, separators=(",", ":"))
    return f"event: {event_type}\ndata: {data}\n\n".encode()


def encode_raw_event(event_type: str, data: str) -> bytes:
    """An SSE event whose data is sent verbatim (used to inject malformed JSON)."""
    return f"event: {event_type}\ndata: {data}\n\n".encode()


def estimate_input_tokens(body: dict[str, Any]) -> int:
    """Approximate prompt size from the JSON of system + messages + tools."""
    prompt = {key: body.get(key) for key in ("system", "messages", "tools")}
    return max(1, len(json.dumps(prompt, ensure_ascii=False)) // CHARS_PER_TOKEN)


def estimate_output_tokens(content: list[Block]) -> int:
    """Approximate what the model wrote: its text and the tool inputs it composed."""
    written = 0
    for block in content:
        if block.get("type") == "text":
            written += len(block.get("text", ""))
        elif block.get("type") in STREAMED_INPUT_TYPES:
            written += len(_compact_json(block.get("input", {})))
    return max(1, written // CHARS_PER_TOKEN)


def start_usage(turn: ScriptedTurn | None, body: dict[str, Any]) -> dict[str, Any]:
    """Usage as `message_start` reports it (output_tokens is 1 until the turn ends)."""
    usage: dict[str, Any] = {
        "input_tokens": estimate_input_tokens(body),
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
        # The cache writes split by lifetime, as the API reports them (1-hour ones bill higher).
        "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 0},
        "output_tokens": 1,
    }
    overrides = dict(turn.usage or {}) if turn else {}
    overrides.pop("output_tokens", None)  # the final count belongs to message_delta
    return {**usage, **overrides}


def final_output_tokens(turn: ScriptedTurn) -> int:
    """Output tokens for `message_delta`: the scripted figure if given, else an estimate."""
    if turn.usage and "output_tokens" in turn.usage:
        return int(turn.usage["output_tokens"])
    return estimate_output_tokens(turn.content)


def message_start(turn: ScriptedTurn | None, body: dict[str, Any], message_id: str) -> bytes:
    """The `message_start` event: an empty assistant message with the prompt's usage."""
    message: dict[str, Any] = {
        "id": message_id,
        "type": "message",
        "role": "assistant",
        "model": _model(turn, body),
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": start_usage(turn, body),
    }
    return encode_event("message_start", {"message": message})


def ping() -> bytes:
    """The keep-alive event the real API sends after message_start (the SDK skips it)."""
    return encode_event("ping", {})


def block_events(index: int, block: Block) -> Iterator[bytes]:
    """content_block_start, the deltas that rebuild the block, then content_block_stop."""
    kind = block.get("type")
    if kind == "text":
        yield _block_start(index, {**block, "text": ""})
        for piece in split_text(block.get("text", "")):
            yield _block_delta(index, {"type": "text_delta", "text": piece})
    elif kind in STREAMED_INPUT_TYPES:
        yield _block_start(index, {**block, "input": {}})
        for piece in split_json(block.get("input", {})):
            yield _block_delta(index, {"type": "input_json_delta", "partial_json": piece})
    else:
        # mcp_tool_result / mcp_tool_listing (and anything unknown) arrive complete.
        yield _block_start(index, block)
    yield encode_event("content_block_stop", {"index": index})


def message_end(turn: ScriptedTurn) -> Iterator[bytes]:
    """message_delta (stop reason + final output tokens) then message_stop."""
    delta = {"stop_reason": turn.stop_reason, "stop_sequence": None}
    usage = {"output_tokens": final_output_tokens(turn)}
    yield encode_event("message_delta", {"delta": delta, "usage": usage})
    yield encode_event("message_stop", {})


def turn_events(turn: ScriptedTurn, body: dict[str, Any]) -> Iterator[bytes]:
    """The complete, well-formed event stream for one turn."""
    yield message_start(turn, body, new_message_id())
    yield ping()
    for index, block in enumerate(turn.content):
        yield from block_events(index, block)
    yield from message_end(turn)


def message_json(turn: ScriptedTurn, body: dict[str, Any]) -> dict[str, Any]:
    """The non-streaming Message object for the same turn."""
    return {
        "id": new_message_id(),
        "type": "message",
        "role": "assistant",
        "model": _model(turn, body),
        "content": list(turn.content),
        "stop_reason": turn.stop_reason,
        "stop_sequence": None,
        "usage": {**start_usage(turn, body), "output_tokens": final_output_tokens(turn)},
    }


def split_text(text: str) -> list[str]:
    """Split on word boundaries, a few words per piece; the pieces join back exactly."""
    words = [word for word in _WORD_BOUNDARY.split(text) if word]
    return [
        "".join(words[start : start + WORDS_PER_TEXT_DELTA])
        for start in range(0, len(words), WORDS_PER_TEXT_DELTA)
    ]


def split_json(tool_input: dict[str, Any]) -> list[str]:
    """The input's JSON in at least two pieces, as the model streams partial JSON."""
    encoded = _compact_json(tool_input)
    pieces = max(2, math.ceil(len(encoded) / JSON_DELTA_CHARS))
    size = math.ceil(len(encoded) / pieces)
    return [encoded[start : start + size] for start in range(0, len(encoded), size)]


def _block_start(index: int, content_block: Block) -> bytes:
    return encode_event("content_block_start", {"index": index, "content_block": content_block})


def _block_delta(index: int, delta: dict[str, Any]) -> bytes:
    return encode_event("content_block_delta", {"index": index, "delta": delta})


def _model(turn: ScriptedTurn | None, body: dict[str, Any]) -> str:
    return (turn.model if turn else None) or str(body.get("model", ""))


def _compact_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
