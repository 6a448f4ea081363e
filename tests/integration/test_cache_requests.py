"""Prompt caching end to end: what the emulator received, and what it billed.

A NutriCart chat as the app sends it (the request builder, the real SDK, the emulator with
the offline planner, the sandbox MCP servers), in both engines. Every request the
emulator received has at most four breakpoints, on the ends the rules allow; from the
third turn on (the second pins the tool listing) each request reads back the whole prefix
the previous one wrote, so only the new turn is written.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import anthropic
import pytest

from swiggy_core.actions import typed_message
from swiggy_core.constants import CACHE_MAX_BREAKPOINTS, MCP_SERVERS, SWIGGY_TZ, TURN_CONTEXT_HEADER
from swiggy_core.conversation.cache_points import min_cacheable_tokens
from swiggy_core.engine import LocalEngine, TurnRequest, TurnSetup
from swiggy_core.engine.setup import build_turn_params
from swiggy_core.mcp import McpManager
from swiggy_core.models import ChatMessage
from swiggy_sandbox.catalog.wire import address_wire
from swiggy_sandbox.connector.accounting import prompt_tokens
from swiggy_sandbox.emulator import EmulatorServer
from swiggy_sandbox.emulator.script import RecordedRequest
from swiggy_sandbox.planner import PlannerBrain
from swiggy_sandbox.servers import RateLimits, SandboxHttpServer

NOW = datetime(2026, 11, 20, 13, 0, tzinfo=SWIGGY_TZ)
MODEL = "claude-haiku-4-5"
SAID = (
    "find high-protein snacks under 200",
    "add 2 of the first one",
    "add 3 lays classic salted chips",
    "show my cart",
    "eggs and bread for breakfast",
    "add the first one",
    "ingredients for paneer tonight",
    "add the first one",
    "remove the chips",
    "show my cart",
)


@pytest.fixture(scope="module")
def sandbox() -> Iterator[SandboxHttpServer]:
    limits = RateLimits(requests=10_000, writes=10_000)
    with SandboxHttpServer(clock=lambda: NOW, limits=limits) as server:
        yield server


@pytest.fixture
def emulator() -> Iterator[EmulatorServer[PlannerBrain]]:
    with EmulatorServer(PlannerBrain()) as server:  # a fresh prompt cache per test
        yield server


def setup_for(sandbox: SandboxHttpServer, user: str, engine: str) -> TurnSetup:
    return TurnSetup(
        vertical_id="food",
        model=MODEL,
        swiggy_token=sandbox.store.issue(user),
        server_urls={key: sandbox.url_for(key) for key in MCP_SERVERS},
        address=address_wire(sandbox.app.state.shop.saved_addresses(user)[0]),
        engine=engine,  # type: ignore[arg-type]
        timeout=60,
    )


def marked(body: dict[str, Any]) -> list[tuple[str, int, int]]:
    found = [("tools", i, 0) for i, t in enumerate(body.get("tools", [])) if "cache_control" in t]
    found += [("system", i, 0) for i, b in enumerate(body["system"]) if "cache_control" in b]
    for index, message in enumerate(body["messages"]):
        if isinstance(message["content"], list):
            found += [
                ("messages", index, position)
                for position, block in enumerate(message["content"])
                if "cache_control" in block
            ]
    return found


def is_context(block: dict[str, Any]) -> bool:
    return str(block.get("text", "")).startswith(TURN_CONTEXT_HEADER)


def assert_breakpoints_follow_the_rules(body: dict[str, Any]) -> None:
    found = marked(body)
    assert 0 < len(found) <= CACHE_MAX_BREAKPOINTS
    users = [i for i, m in enumerate(body["messages"]) if m["role"] == "user"]
    allowed = {("tools", len(body["tools"]) - 1, 0), ("system", len(body["system"]) - 1, 0)}
    for index in users:
        content = body["messages"][index]["content"]
        if isinstance(content, list):
            stable = [i for i, block in enumerate(content) if not is_context(block)]
            allowed.add(("messages", index, stable[-1]))
    assert set(found) <= allowed
    # The person's newest message carries the moving breakpoint; the context follows it.
    newest = body["messages"][users[-1]]["content"]
    if all(block.get("type") == "text" for block in newest):
        assert is_context(newest[-1]) and "cache_control" not in newest[-1]
        assert "cache_control" in newest[-2]


def usage_of(request: RecordedRequest, reply: Any) -> tuple[int, int, int]:
    usage = reply.usage
    read, written = usage.cache_read_input_tokens or 0, usage.cache_creation_input_tokens or 0
    # Every token of the prompt is billed exactly once: read, written or plain input.
    assert read + written + usage.input_tokens == prompt_tokens(request.body)
    return read, written, usage.input_tokens


def test_connector_requests_carry_the_breakpoints_and_read_last_turns_prefix(
    sandbox: SandboxHttpServer, emulator: EmulatorServer[PlannerBrain]
) -> None:
    setup = setup_for(sandbox, "cache-connector", "connector")
    history: list[ChatMessage] = []
    figures: list[tuple[int, int, int]] = []
    with anthropic.Anthropic(api_key="sk-t", base_url=emulator.base_url, max_retries=0) as sdk:
        for text in SAID:
            history.append(typed_message(text))
            params: Any = build_turn_params(setup, history, now=NOW)
            with sdk.beta.messages.stream(**params) as stream:
                reply = stream.get_final_message()
            figures.append(usage_of(emulator.requests[-1], reply))
            blocks = [block.model_dump(mode="json", exclude_none=True) for block in reply.content]
            history.append(ChatMessage.model_validate({"role": "assistant", "content": blocks}))
    bodies = [request.body for request in emulator.requests]
    assert len(bodies) == len(SAID)
    for body in bodies[1:]:  # the first prompt is under Haiku's 4,096-token minimum
        assert_breakpoints_follow_the_rules(body)
    assert marked(bodies[0]) == [] and figures[0][:2] == (0, 0)
    # From the third turn: last turn's whole prefix is read, only the new turn is written.
    for (read_before, written_before, _), (read, written, _) in itertools.pairwise(figures[1:]):
        assert read == read_before + written_before
        assert 0 < written < read
    # The listing is pinned and the tools (toolset, approval tool) close with a breakpoint
    # once their prefix is long enough, with the system's end after them.
    last = bodies[-1]
    assert ("system", len(last["system"]) - 1, 0) in marked(last)
    assert "tools" in last["tools"][0]


def test_the_local_engines_converted_requests_carry_them_too(
    sandbox: SandboxHttpServer, emulator: EmulatorServer[PlannerBrain]
) -> None:
    setup = setup_for(sandbox, "cache-local", "local")
    history: list[ChatMessage] = []
    reads: list[int] = []
    manager = McpManager(call_timeout=30)
    with anthropic.Anthropic(api_key="sk-t", base_url=emulator.base_url, max_retries=0) as sdk:
        try:
            for text in SAID[:5]:
                history.append(typed_message(text))
                turn = LocalEngine().stream(
                    TurnRequest(sdk, setup, history, manager=manager, now=NOW)
                )
                try:
                    while True:
                        next(turn)
                except StopIteration as done:
                    result = done.value
                assert result.error is None, result.error
                reads.append(result.usage.cache_read_input_tokens)
                history.append(result.as_message())
        finally:
            manager.close()
    requests = emulator.requests
    assert len(requests) > len(SAID[:5])  # tool rounds: several requests per turn
    for request in requests:
        body = request.body
        found = marked(body)
        assert len(found) <= CACHE_MAX_BREAKPOINTS
        assert all(
            body["messages"][i]["role"] == "user" for kind, i, _ in found if kind == "messages"
        )
        assert not any(
            is_context(body["messages"][i]["content"][j]) for k, i, j in found if k == "messages"
        )
    # The previous and the newest message of the person carry the moving breakpoints, and
    # every turn after the first reads the cached history back.
    last = requests[-1].body
    assert len([kind for kind, _, _ in marked(last) if kind == "messages"]) == 2
    # (The first turn may read too: its later tool rounds read its first one's prefix.)
    assert all(read > 0 for read in reads[1:])
    # A later tool round ends with the breakpoint on its tool results (once long enough), so
    # the next round reads this round's prefix instead of sending it again uncached.
    rounds = [r.body for r in requests if is_tool_round(r.body)]
    long_rounds = [b for b in rounds if prompt_tokens(b) >= min_cacheable_tokens(MODEL)]
    assert long_rounds, "no tool round long enough to cache"
    for body in long_rounds:
        last_index = len(body["messages"]) - 1
        last_position = len(body["messages"][-1]["content"]) - 1
        assert ("messages", last_index, last_position) in marked(body)


def is_tool_round(body: dict[str, Any]) -> bool:
    content = body["messages"][-1]["content"]
    return isinstance(content, list) and all(b.get("type") == "tool_result" for b in content)


def test_five_breakpoints_are_refused_as_the_api_refuses_them(
    emulator: EmulatorServer[PlannerBrain],
) -> None:
    mark = {"type": "ephemeral"}
    system = [{"type": "text", "text": f"part {n}", "cache_control": mark} for n in range(5)]
    with (
        anthropic.Anthropic(api_key="sk-t", base_url=emulator.base_url, max_retries=0) as sdk,
        pytest.raises(anthropic.BadRequestError) as refused,
    ):
        sdk.messages.create(
            model=MODEL,
            max_tokens=10,
            system=system,  # type: ignore[arg-type]
            messages=[{"role": "user", "content": "hi"}],
        )
    assert "A maximum of 4 blocks with cache_control" in json.dumps(refused.value.body)
