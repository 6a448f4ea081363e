"""The planner as a client-tool model: the caller runs the tools (the local engine's way)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

import anthropic
import pytest

from swiggy_core.constants import DEFAULT_MODEL, SWIGGY_TZ
from swiggy_core.engine import TurnSetup, build_turn_params
from swiggy_core.models import ChatMessage
from swiggy_sandbox.connector import McpBridge
from swiggy_sandbox.connector.toolsets import ServerSpec
from swiggy_sandbox.emulator import EmulatorServer
from swiggy_sandbox.planner import PlannerBrain
from swiggy_sandbox.servers import RateLimits, SandboxHttpServer

NOW = datetime(2026, 11, 20, 13, 0, tzinfo=SWIGGY_TZ)


@pytest.fixture(scope="module")
def sandbox() -> Iterator[SandboxHttpServer]:
    limits = RateLimits(requests=10_000, writes=10_000)
    with SandboxHttpServer(clock=lambda: NOW, limits=limits) as server:
        yield server


def test_tool_use_round_trips_until_the_planner_answers(sandbox: SandboxHttpServer) -> None:
    token = sandbox.store.issue("local")
    server = ServerSpec("swiggy-instamart", sandbox.url_for("instamart"), token)
    bridge = McpBridge()
    tools = [
        {k: v for k, v in tool.items() if k in ("name", "description", "input_schema")}
        for tool in bridge.list_tools(server)
    ]
    address = {"id": "addr_home_indiranagar", "label": "Home"}
    setup = TurnSetup(vertical_id="food", model=DEFAULT_MODEL, address=address)
    params = build_turn_params(
        setup, [ChatMessage(role="user", content="find masala oats")], now=NOW
    )
    params["tools"] = tools
    messages: list[dict[str, Any]] = params.pop("messages")
    executed: list[str] = []
    with (
        EmulatorServer(PlannerBrain()) as emu,
        anthropic.Anthropic(api_key="k", base_url=emu.base_url, max_retries=0) as client,
    ):
        for _ in range(4):
            final = client.beta.messages.create(messages=messages, **params)
            messages.append({"role": "assistant", "content": final.to_param()["content"]})
            if final.stop_reason != "tool_use":
                break
            (use,) = [block for block in final.content if block.type == "tool_use"]
            result = bridge.call_tool(server, use.name, dict(use.input))
            executed.append(use.name)
            answer = {"type": "tool_result", "tool_use_id": use.id, "content": result.content}
            messages.append({"role": "user", "content": [answer]})
    bridge.close()

    assert executed == ["search_products"]
    assert final.stop_reason == "end_turn"
    reply = "".join(block.text for block in final.content if block.type == "text")
    assert "Offline demo" not in reply and "oats" in reply.lower()
