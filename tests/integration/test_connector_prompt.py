"""Prompt-side emulation through the real SDK: caching, context editing, client tools."""

from __future__ import annotations

import json
from typing import Any

import anthropic
import pytest
from anthropic.types.beta import BetaTextBlock, BetaToolUseBlock

from swiggy_sandbox.connector import CallClientTool, Finish, ScriptedAgentBrain, TurnContext
from swiggy_sandbox.connector.context_edits import CLEARED_PLACEHOLDER
from swiggy_sandbox.emulator import EmulatorServer, text_turn

MODEL = "claude-haiku-4-5"
BETAS = ["prompt-caching-2024-07-31", "context-management-2025-06-27"]
EPHEMERAL = {"type": "ephemeral"}
# Long enough to be cached (Haiku 4.5 caches 4,096 tokens and more) and to dominate.
SYSTEM_TEXT = "You are a careful grocery assistant. " * 500
WEATHER_TOOL = {
    "name": "get_weather",
    "description": "Weather for a city",
    "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}},
}


# The conftest's agent emulator and `client`; every test starts with an empty script and
# must use all of it.
pytestmark = pytest.mark.usefixtures("emu")


def ask(client: anthropic.Anthropic, **request: Any) -> Any:
    base: dict[str, Any] = {"model": MODEL, "max_tokens": 256, "betas": BETAS}
    with client.beta.messages.stream(**{**base, **request}) as events:
        return events.get_final_message()


def cached_system(marker: str = "") -> list[dict[str, Any]]:
    return [{"type": "text", "text": SYSTEM_TEXT + marker, "cache_control": EPHEMERAL}]


def test_an_identical_prefix_is_read_from_the_cache_the_second_time(
    emu: EmulatorServer[ScriptedAgentBrain], client: anthropic.Anthropic
) -> None:
    emu.brain.enqueue(Finish("one"), Finish("two"), Finish("three"))
    system = cached_system("first")
    first = ask(client, system=system, messages=[{"role": "user", "content": "hi"}])
    second = ask(client, system=system, messages=[{"role": "user", "content": "other question"}])
    changed = ask(
        client, system=cached_system("changed"), messages=[{"role": "user", "content": "hi"}]
    )

    prefix_tokens = first.usage.cache_creation_input_tokens
    assert prefix_tokens >= len(SYSTEM_TEXT) // 4
    assert first.usage.cache_read_input_tokens == 0
    assert 0 < first.usage.input_tokens < prefix_tokens
    assert second.usage.cache_read_input_tokens == prefix_tokens
    assert second.usage.cache_creation_input_tokens == 0
    assert changed.usage.cache_read_input_tokens == 0
    assert changed.usage.cache_creation_input_tokens > 0


def test_scripted_brains_get_cache_figures_too_unless_the_script_sets_them(
    client: anthropic.Anthropic,
) -> None:
    with EmulatorServer() as scripted:
        scripted.brain.enqueue(text_turn("a"), text_turn("b"))
        with anthropic.Anthropic(api_key="k", base_url=scripted.base_url, max_retries=0) as sdk:
            system = cached_system("scripted")
            first = ask(sdk, system=system, messages=[{"role": "user", "content": "hi"}])
            second = ask(sdk, system=system, messages=[{"role": "user", "content": "hi"}])
    assert first.usage.cache_creation_input_tokens > 0
    assert second.usage.cache_read_input_tokens == first.usage.cache_creation_input_tokens


def test_a_client_tool_round_trip(
    emu: EmulatorServer[ScriptedAgentBrain], client: anthropic.Anthropic
) -> None:
    def report(ctx: TurnContext) -> Finish:
        result = ctx.messages[-1]["content"][0]
        return Finish(f"It is {result['content']}.")

    emu.brain.enqueue(CallClientTool("get_weather", {"city": "Bengaluru"}, say_before="Checking."))
    question = {"role": "user", "content": "weather in Bengaluru?"}
    first = ask(client, tools=[WEATHER_TOOL], messages=[question])
    intro, use = first.content
    assert isinstance(intro, BetaTextBlock) and intro.text == "Checking."
    assert isinstance(use, BetaToolUseBlock) and use.id.startswith("toolu_")
    assert (use.name, use.input) == ("get_weather", {"city": "Bengaluru"})
    assert first.stop_reason == "tool_use"

    emu.brain.enqueue(report)
    answer = {"type": "tool_result", "tool_use_id": use.id, "content": "24°C and sunny"}
    messages = [question, first.to_param(), {"role": "user", "content": [answer]}]
    second = ask(client, tools=[WEATHER_TOOL], messages=messages)
    assert second.content[0].text == "It is 24°C and sunny."
    assert second.stop_reason == "end_turn"


def tool_history(rounds: int) -> list[dict[str, Any]]:
    """A conversation with `rounds` client tool calls, each with a bulky result."""
    messages: list[dict[str, Any]] = [{"role": "user", "content": "plan my week"}]
    for index in range(rounds):
        use = {"type": "tool_use", "id": f"toolu_{index}", "name": "get_weather", "input": {}}
        bulky = json.dumps({"day": index, "hourly": ["sunny"] * 300})
        result = {"type": "tool_result", "tool_use_id": f"toolu_{index}", "content": bulky}
        messages += [
            {"role": "assistant", "content": [use]},
            {"role": "user", "content": [result]},
        ]
    return messages


def ask_with_edit(client: anthropic.Anthropic, edit: dict[str, Any]) -> Any:
    """Five rounds of a client tool, sent with one context-management edit."""
    edits = {"edits": [edit]}
    return ask(client, tools=[WEATHER_TOOL], messages=tool_history(5), context_management=edits)


def test_clear_tool_uses_edits_old_results_and_reports_them(
    emu: EmulatorServer[ScriptedAgentBrain], client: anthropic.Anthropic
) -> None:
    edit = {
        "type": "clear_tool_uses_20250919",
        "trigger": {"type": "input_tokens", "value": 1000},
        "keep": {"type": "tool_uses", "value": 2},
    }
    emu.brain.enqueue(Finish("done"))
    final = ask_with_edit(client, edit)
    assert final.context_management is not None
    (applied,) = final.context_management.applied_edits
    assert applied.type == "clear_tool_uses_20250919"
    assert applied.cleared_tool_uses == 3
    assert applied.cleared_input_tokens > 1000
    seen = [
        block["content"]
        for message in emu.brain.seen[0].messages
        for block in message["content"]
        if isinstance(message["content"], list) and block["type"] == "tool_result"
    ]
    assert seen[:3] == [CLEARED_PLACEHOLDER] * 3
    assert CLEARED_PLACEHOLDER not in seen[3:]


def test_context_below_the_trigger_is_left_alone(
    emu: EmulatorServer[ScriptedAgentBrain], client: anthropic.Anthropic
) -> None:
    edit = {"type": "clear_tool_uses_20250919", "trigger": {"type": "input_tokens", "value": 10**6}}
    emu.brain.enqueue(Finish("done"))
    final = ask_with_edit(client, edit)
    assert final.context_management is None
    assert emu.brain.seen[0].messages == tool_history(5)
