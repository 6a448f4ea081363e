"""A model that cannot reach the sandbox: the app runs the MCP tools itself (local engine)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from uihelpers import buttons, open_page, texts, use_scripted_model

from swiggy_sandbox.emulator import EmulatorServer
from swiggy_sandbox.planner import PlannerBrain


@pytest.fixture(scope="module")
def planner_emulator() -> Iterator[EmulatorServer]:
    with EmulatorServer(PlannerBrain()) as server:
        yield server


def test_local_engine_turns_tool_calls_into_cards_and_keeps_the_gate(
    app, planner_emulator, monkeypatch
):
    monkeypatch.setenv("SWIGGY_ENGINE", "local")
    at = open_page(app, "nutricart")
    use_scripted_model(at, planner_emulator)
    at.run()
    at.chat_input[0].set_value("find amul butter").run()
    assert not at.exception
    assert buttons(at, "Add"), texts(at.markdown)
    request = planner_emulator.requests[-1].body
    assert "mcp_servers" not in request
    offered = {tool["name"] for tool in request["tools"]}
    assert {"search_products", "update_cart", "request_confirmation"} <= offered
    assert "checkout" not in offered  # the model can only ask; the app spends
    buttons(at, "Add")[0].click().run()
    assert "Your cart" in texts(at.markdown)
    at.chat_input[0].set_value("place the order").run()
    assert "Order placed" not in texts(at.markdown)
    buttons(at, "Confirm")[0].click().run()
    assert "Order placed" in texts(at.markdown)
