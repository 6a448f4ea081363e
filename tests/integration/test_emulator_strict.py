"""The emulator refuses what the real Messages API refuses, through the real SDK.

Each refused request is one the API documents as a 400 `invalid_request_error` and never
reaches the model (the scripted brain would answer 500 with nothing queued); each sits
next to a valid neighbour the emulator must still answer.
"""

from __future__ import annotations

from typing import Any

import anthropic
import pytest

from swiggy_core.constants import BETA_CONTEXT_MANAGEMENT, BETA_EXTENDED_CACHE_TTL
from swiggy_sandbox.emulator import EmulatorServer, ScriptedBrain, text_turn

MODEL = "claude-haiku-4-5"
TOOL = {"name": "get_cart", "description": "The cart", "input_schema": {"type": "object"}}
HOUR = {"type": "ephemeral", "ttl": "1h"}
FIVE = {"type": "ephemeral", "ttl": "5m"}


def use(tool_id: str) -> dict[str, Any]:
    return {"type": "tool_use", "id": tool_id, "name": "get_cart", "input": {}}


def result(tool_id: str) -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": tool_id, "content": "2 items"}


def text(words: str, **extra: Any) -> dict[str, Any]:
    return {"type": "text", "text": words, **extra}


def asked(*blocks: dict[str, Any]) -> list[dict[str, Any]]:
    """The person asks, the model answers with `blocks`."""
    return [
        {"role": "user", "content": "what is in my cart?"},
        {"role": "assistant", "content": [text("Let me look."), *blocks]},
    ]


def refused(client: anthropic.Anthropic, **params: Any) -> str:
    """The API's message for a request it refuses with 400 invalid_request_error."""
    with pytest.raises(anthropic.BadRequestError) as caught:
        send(client, **params)
    assert caught.value.status_code == 400
    assert caught.value.type == "invalid_request_error"
    body = caught.value.body
    assert isinstance(body, dict) and body["type"] == "error"
    assert body["error"] == {"type": "invalid_request_error", "message": caught.value.api_message}
    assert caught.value.api_message is not None
    return caught.value.api_message


def send(client: anthropic.Anthropic, **params: Any) -> Any:
    request = {"model": MODEL, "max_tokens": 64, "tools": [TOOL], **params}
    with client.beta.messages.stream(**request) as stream:
        return stream.get_final_message()


def accepted(
    emu: EmulatorServer[ScriptedBrain], client: anthropic.Anthropic, **params: Any
) -> None:
    """The request reaches the model, which answers it."""
    emu.brain.enqueue(text_turn("Two items."))
    assert send(client, **params).content[0].text == "Two items."
    assert emu.brain.pending() == 0


def test_a_tool_use_without_its_result_in_the_next_message_is_refused(
    wire_emu: EmulatorServer[ScriptedBrain], wire_client: anthropic.Anthropic
) -> None:
    messages = [*asked(use("toolu_a"), use("toolu_b")), {"role": "user", "content": "well?"}]
    assert refused(wire_client, messages=messages) == (
        "messages.1: `tool_use` ids were found without `tool_result` blocks immediately "
        "after: toolu_a, toolu_b. Each `tool_use` block must have a corresponding "
        "`tool_result` block in the next message."
    )
    answered = [*asked(use("toolu_a"), use("toolu_b"))]
    answered.append({"role": "user", "content": [result("toolu_a"), result("toolu_b")]})
    accepted(wire_emu, wire_client, messages=answered)


def test_a_tool_result_after_text_in_the_user_turn_is_refused(
    wire_emu: EmulatorServer[ScriptedBrain], wire_client: anthropic.Anthropic
) -> None:
    late = {"role": "user", "content": [text("here you go"), result("toolu_a")]}
    assert refused(wire_client, messages=[*asked(use("toolu_a")), late]).startswith(
        "messages.1: `tool_use` ids were found without `tool_result` blocks immediately "
        "after: toolu_a."
    )
    # The result first, then the person's words, in the same turn: fine.
    first = {"role": "user", "content": [result("toolu_a"), text("and add milk")]}
    accepted(wire_emu, wire_client, messages=[*asked(use("toolu_a")), first])


def test_a_duplicate_tool_result_is_refused(
    wire_emu: EmulatorServer[ScriptedBrain], wire_client: anthropic.Anthropic
) -> None:
    twice = {"role": "user", "content": [result("toolu_a"), result("toolu_a")]}
    assert refused(wire_client, messages=[*asked(use("toolu_a")), twice]) == (
        "messages.2.content.1: each tool_use must have a single result. Found multiple "
        "`tool_result` blocks with id: toolu_a"
    )
    # Split over two user messages it is still one turn, so still a duplicate.
    split = [{"role": "user", "content": [result("toolu_a")]}] * 2
    assert "Found multiple `tool_result` blocks with id: toolu_a" in refused(
        wire_client, messages=[*asked(use("toolu_a")), *split]
    )
    one_each = [{"role": "user", "content": [result("toolu_a")]}]
    one_each.append({"role": "user", "content": [result("toolu_b")]})
    accepted(wire_emu, wire_client, messages=[*asked(use("toolu_a"), use("toolu_b")), *one_each])


def test_a_result_answers_only_the_previous_assistant_message(
    wire_emu: EmulatorServer[ScriptedBrain], wire_client: anthropic.Anthropic
) -> None:
    # toolu_a was asked and answered two messages back: answering it again now is a result
    # without a use in the previous message, however the conversation went before.
    earlier = [*asked(use("toolu_a")), {"role": "user", "content": [result("toolu_a")]}]
    again = [
        *earlier,
        {"role": "assistant", "content": [text("Anything else?")]},
        {"role": "user", "content": [result("toolu_a")]},
    ]
    assert refused(wire_client, messages=again) == (
        "messages.4.content.0: unexpected `tool_use_id` found in `tool_result` blocks: "
        "toolu_a. Each `tool_result` block must have a corresponding `tool_use` block in the "
        "previous message."
    )
    next_round = [
        *earlier,
        {"role": "assistant", "content": [use("toolu_b")]},
        {"role": "user", "content": [result("toolu_b")]},
    ]
    accepted(wire_emu, wire_client, messages=next_round)


def test_an_unknown_context_management_edit_is_refused(
    wire_emu: EmulatorServer[ScriptedBrain], wire_client: anthropic.Anthropic
) -> None:
    messages = [{"role": "user", "content": "hi"}]
    edits = {"edits": [{"type": "clear_tool_uses_20250919"}, {"type": "forget_all"}]}
    message = refused(
        wire_client, messages=messages, context_management=edits, betas=[BETA_CONTEXT_MANAGEMENT]
    )
    assert message == (
        "context_management.edits.1: Input tag 'forget_all' found using 'type' does not match "
        "any of the expected tags: 'clear_tool_uses_20250919', 'clear_thinking_20251015', "
        "'compact_20260112'"
    )
    known = {"edits": [{"type": "clear_tool_uses_20250919"}]}
    accepted(
        wire_emu,
        wire_client,
        messages=messages,
        context_management=known,
        betas=[BETA_CONTEXT_MANAGEMENT],
    )


def test_a_one_hour_breakpoint_after_a_five_minute_one_is_refused(
    wire_emu: EmulatorServer[ScriptedBrain], wire_client: anthropic.Anthropic
) -> None:
    # The order is tools, then system, then messages: a default mark is five minutes.
    tools = [{**TOOL, "cache_control": {"type": "ephemeral"}}]
    messages = [{"role": "user", "content": [text("hi", cache_control=HOUR)]}]
    hours = [BETA_EXTENDED_CACHE_TTL]
    assert refused(wire_client, tools=tools, messages=messages, betas=hours) == (
        "messages.0.content.0.cache_control.ttl: a ttl='1h' cache_control block must not "
        "come after a ttl='5m' cache_control block. Note that blocks are processed in the "
        "following order: `tools`, `system`, `messages`."
    )
    system = [text("You shop.", cache_control=FIVE)]
    assert refused(wire_client, system=system, messages=messages, betas=hours).startswith(
        "messages.0.content.0.cache_control.ttl: a ttl='1h'"
    )
    # Longer first, then shorter: fine.
    hour_first = [{**TOOL, "cache_control": HOUR}]
    later = [{"role": "user", "content": [text("hi", cache_control=FIVE)]}]
    accepted(wire_emu, wire_client, tools=hour_first, system=system, messages=later, betas=hours)


def test_a_one_hour_breakpoint_needs_the_extended_cache_ttl_beta(
    wire_emu: EmulatorServer[ScriptedBrain], wire_client: anthropic.Anthropic
) -> None:
    messages = [{"role": "user", "content": [text("hi", cache_control=HOUR)]}]
    assert refused(wire_client, messages=messages) == (
        "messages.0.content.0.cache_control.ttl: Extra inputs are not permitted "
        "(requires the extended-cache-ttl-2025-04-11 beta)"
    )
    accepted(wire_emu, wire_client, messages=messages, betas=[BETA_EXTENDED_CACHE_TTL])


def test_an_empty_text_block_with_cache_control_is_refused(
    wire_emu: EmulatorServer[ScriptedBrain], wire_client: anthropic.Anthropic
) -> None:
    empty = {"role": "user", "content": [text("find milk"), text("", cache_control=FIVE)]}
    assert refused(wire_client, messages=[empty]) == (
        "messages.0.content.1.text: cache_control cannot be set for empty text blocks"
    )
    words = {"role": "user", "content": [text("find milk", cache_control=FIVE)]}
    accepted(wire_emu, wire_client, messages=[words])


def test_a_ttl_the_api_does_not_know_is_refused(wire_client: anthropic.Anthropic) -> None:
    odd = {
        "role": "user",
        "content": [text("hi", cache_control={"type": "ephemeral", "ttl": "2h"})],
    }
    assert refused(wire_client, messages=[odd]) == (
        "messages.0.content.0.cache_control.ttl: Input should be '5m' or '1h'"
    )
