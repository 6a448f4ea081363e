"""The diet profile reaches the model each turn in the turn context, never in the cached
system prompt: a NutriCart chat through the real SDK, the emulator with the offline
planner and the sandbox servers, with the profile set halfway through. The request after
the change still reads the whole prefix the one before it wrote."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import anthropic
import test_cache_requests as cached
from test_cache_requests import NOW, SAID, is_context, setup_for, usage_of

from swiggy_core.actions import typed_message
from swiggy_core.diet import (
    DIET_NOTE_FOR_MODEL,
    DietProfile,
    diet_note_for_model,
    read_diet_note,
)
from swiggy_core.engine.setup import build_turn_params
from swiggy_core.models import ChatMessage
from swiggy_sandbox.emulator import EmulatorServer
from swiggy_sandbox.planner import PlannerBrain
from swiggy_sandbox.servers import SandboxHttpServer

PROFILE = DietProfile(diet="vegan", allergies=("peanuts",), dislikes=("karela",), protein_goal_g=70)
CHANGED_AT = 3  # turns 0-2 without a profile, the rest with it
# The same sandbox (one per module) and emulator (a fresh prompt cache per test).
sandbox = cached.sandbox
emulator = cached.emulator


def _newest_user_blocks(body: dict[str, Any]) -> list[dict[str, Any]]:
    newest = [m for m in body["messages"] if m["role"] == "user"][-1]
    return list(newest["content"])


def test_the_profile_rides_in_the_turn_context_and_the_cached_prefix_is_read_across_it(
    sandbox: SandboxHttpServer, emulator: EmulatorServer[PlannerBrain]
) -> None:
    plain_setup = setup_for(sandbox, "diet-context", "connector")
    with_diet = replace(plain_setup, diet_note=diet_note_for_model(PROFILE))
    history: list[ChatMessage] = []
    figures: list[tuple[int, int, int]] = []
    with anthropic.Anthropic(api_key="sk-t", base_url=emulator.base_url, max_retries=0) as sdk:
        for turn, text in enumerate(SAID[:5]):
            history.append(typed_message(text))
            setup = with_diet if turn >= CHANGED_AT else plain_setup
            params: Any = build_turn_params(setup, history, now=NOW)
            with sdk.beta.messages.stream(**params) as stream:
                reply = stream.get_final_message()
            figures.append(usage_of(emulator.requests[-1], reply))
            blocks = [block.model_dump(mode="json", exclude_none=True) for block in reply.content]
            history.append(ChatMessage.model_validate({"role": "assistant", "content": blocks}))
    bodies = [request.body for request in emulator.requests]
    assert len(bodies) == 5
    # The system blocks and the tools are the same bytes before and after the change.
    assert len({json.dumps(body["system"]) for body in bodies[1:]}) == 1
    assert len({json.dumps(body["tools"]) for body in bodies[1:]}) == 1
    assert [b["text"] for b in bodies[0]["system"]] == [b["text"] for b in bodies[-1]["system"]]
    for turn, body in enumerate(bodies):
        context = [b for b in _newest_user_blocks(body) if is_context(b)]
        assert len(context) == 1 and "cache_control" not in context[0]
        said = DIET_NOTE_FOR_MODEL in context[0]["text"]
        assert said is (turn >= CHANGED_AT)
        # Nowhere else: not in the system prompt, the tools or any older message.
        rest = {**body, "messages": body["messages"][:-1]}
        assert DIET_NOTE_FOR_MODEL not in json.dumps(rest)
    newest_context = [b["text"] for b in _newest_user_blocks(bodies[-1]) if is_context(b)]
    assert read_diet_note(*newest_context) == PROFILE  # as the offline planner reads it
    # The request after the change reads everything the one before it wrote.
    read_before, written_before, _ = figures[CHANGED_AT - 1]
    read, written, _ = figures[CHANGED_AT]
    assert read == read_before + written_before > 0
    assert 0 < written < read
