"""The emulator's SSE/JSON output plus what the connector adds: real usage and applied edits."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from swiggy_sandbox.emulator import sse
from swiggy_sandbox.emulator.script import Fault, ScriptedTurn


def with_usage(answer: ScriptedTurn | Fault, usage: dict[str, Any]) -> ScriptedTurn | Fault:
    """The turn with the prompt's usage; figures a script sets itself still win."""
    if isinstance(answer, Fault):
        return answer
    return replace(answer, usage={**usage, **(answer.usage or {})})


def turn_events(
    turn: ScriptedTurn, body: dict[str, Any], applied_edits: list[dict[str, Any]]
) -> Iterator[bytes]:
    """The turn's event stream; message_delta reports any context edits that were applied."""
    if not applied_edits:
        yield from sse.turn_events(turn, body)
        return
    yield sse.message_start(turn, body, sse.new_message_id())
    yield sse.ping()
    for index, block in enumerate(turn.content):
        yield from sse.block_events(index, block)
    payload = {
        "delta": {"stop_reason": turn.stop_reason, "stop_sequence": None},
        "usage": {"output_tokens": sse.final_output_tokens(turn)},
        "context_management": {"applied_edits": applied_edits},
    }
    yield sse.encode_event("message_delta", payload)
    yield sse.encode_event("message_stop", {})


def message_json(
    turn: ScriptedTurn, body: dict[str, Any], applied_edits: list[dict[str, Any]]
) -> dict[str, Any]:
    """The non-streaming Message, with `context_management` when edits were applied."""
    message = sse.message_json(turn, body)
    if applied_edits:
        message["context_management"] = {"applied_edits": applied_edits}
    return message
