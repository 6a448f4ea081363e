"""PlannerBrain on hand-built turn contexts: labels, the confirm gate, context reading."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from typing import Any

from swiggy_core.conversation._context import AddressView, address_context, datetime_context
from swiggy_sandbox.connector import CallTool, Finish, Say, TurnContext
from swiggy_sandbox.planner import DEMO_LABEL, PlannerBrain, build_view
from swiggy_sandbox.planner.brain import _labelled

IM = "swiggy-instamart"
NOW = datetime(2026, 11, 20, 13, 0, tzinfo=timezone(timedelta(hours=5, minutes=30)))
ADDRESS = AddressView("addr_home_x", "Home", "12th Main", 12.97, 77.64)
SYSTEM = "\n\n".join(
    ["You are NutriCart, a grocery assistant.", address_context(ADDRESS), datetime_context(NOW)]
)
TOOLS = [{"name": name, "input_schema": {"type": "object"}} for name in ("get_cart", "update_cart")]
CART = {
    "items": [
        {"spinId": "s1", "skuId": "k1", "displayName": "Oats", "quantity": 2, "totalPrice": 240}
    ],
    "itemCount": 2,
    "billBreakdown": {"toPay": 270},
}


def use_and_result(use_id: str, name: str, data: dict[str, Any]) -> list[dict[str, Any]]:
    payload = json.dumps({"success": True, "data": data})
    return [
        {"type": "mcp_tool_use", "id": use_id, "name": name, "server_name": IM, "input": {}},
        {
            "type": "mcp_tool_result",
            "tool_use_id": use_id,
            "is_error": False,
            "content": [{"type": "text", "text": payload}],
        },
    ]


def context(
    text: str, *, checkout_on: bool, blocks: list[dict[str, Any]] | None = None
) -> TurnContext:
    tools = TOOLS + ([{"name": "checkout", "input_schema": {}}] if checkout_on else [])
    return TurnContext(
        system=SYSTEM,
        messages=[{"role": "user", "content": text}],
        tools={IM: tools},
        disabled_tools={IM: frozenset() if checkout_on else frozenset({"checkout"})},
        client_tools=[],
        blocks=list(blocks or []),
    )


def test_the_view_reads_address_coordinates_date_and_vertical() -> None:
    view = build_view(context("hi", checkout_on=False))
    assert view.address_id() == "addr_home_x"
    assert view.coordinates() == (12.97, 77.64)
    assert view.today().isoformat() == "2026-11-20"
    assert view.vertical == "NutriCart"


def test_checkout_waits_for_confirmation_after_reading_the_cart() -> None:
    brain = PlannerBrain()
    first = brain.next_step(context("place the order", checkout_on=False))
    assert isinstance(first, CallTool) and first.name == "get_cart"
    assert first.say_before.startswith(DEMO_LABEL)
    after_read = context(
        "place the order", checkout_on=False, blocks=use_and_result("m1", "get_cart", CART)
    )
    after_read.blocks.insert(0, {"type": "text", "text": first.say_before})
    ask = brain.next_step(after_read)
    assert isinstance(ask, Finish)
    assert "₹270" in ask.text and "cannot be cancelled" in ask.text
    assert DEMO_LABEL not in ask.text, "labelled once per turn"


def test_an_enabled_checkout_is_called_with_cod() -> None:
    ctx = context(
        "place the order", checkout_on=True, blocks=use_and_result("m1", "get_cart", CART)
    )
    step = PlannerBrain().next_step(ctx)
    assert step == CallTool(
        IM, "checkout", {"addressId": "addr_home_x", "paymentMethod": "COD"}, say_before=""
    )


def test_an_add_sends_the_whole_cart() -> None:
    search = {
        "query": "oats",
        "products": [
            {
                "displayName": "Muesli",
                "variations": [
                    {
                        "spinId": "s2",
                        "skuId": "k2",
                        "price": {"offerPrice": 99},
                        "isInStockAndAvailable": True,
                    }
                ],
            }
        ],
    }
    history = [
        {"role": "user", "content": "find muesli"},
        {"role": "assistant", "content": use_and_result("m0", "search_products", search)},
        {"role": "user", "content": "add 3 of the first one"},
    ]
    ctx = context("", checkout_on=False, blocks=use_and_result("m1", "get_cart", CART))
    ctx.messages = history
    step = PlannerBrain().next_step(ctx)
    assert isinstance(step, CallTool) and step.name == "update_cart"
    assert step.input["items"] == [
        {"spinId": "s1", "skuId": "k1", "quantity": 2},
        {"spinId": "s2", "skuId": "k2", "quantity": 3},
    ]


def test_labels_go_on_the_first_text_of_a_turn_only() -> None:
    ctx = context("hi", checkout_on=False)
    assert _labelled(Say("Hello"), ctx) == Say(DEMO_LABEL + "Hello")
    assert _labelled(CallTool(IM, "get_cart"), ctx) == CallTool(IM, "get_cart")
    ctx.blocks.append({"type": "text", "text": DEMO_LABEL + "Hello"})
    assert _labelled(Finish("Bye"), ctx) == Finish("Bye")
    # A client-tool round trip continues the same turn: the earlier label still counts.
    ctx = context("hi", checkout_on=False)
    ctx.messages += [
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": DEMO_LABEL + "Looking."},
                {"type": "tool_use", "id": "t1", "name": "x", "input": {}},
            ],
        },
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "{}"}],
        },
    ]
    assert _labelled(Finish("Done"), ctx) == Finish("Done")


def test_without_any_tools_it_asks_to_connect() -> None:
    ctx = TurnContext(
        system="You are FeedMe.",
        messages=[{"role": "user", "content": "biryani"}],
        tools={},
        disabled_tools={},
        client_tools=[],
    )
    step = PlannerBrain().next_step(ctx)
    assert isinstance(step, Finish) and step.text.startswith(DEMO_LABEL) and "Connect" in step.text


def test_a_failed_call_is_reported_not_retried() -> None:
    failed = [
        {"type": "mcp_tool_use", "id": "m1", "name": "get_cart", "server_name": IM, "input": {}},
        {
            "type": "mcp_tool_result",
            "tool_use_id": "m1",
            "is_error": True,
            "content": [{"type": "text", "text": "401 Unauthorized"}],
        },
    ]
    step = PlannerBrain().next_step(context("show my cart", checkout_on=False, blocks=failed))
    assert isinstance(step, Finish) and "reconnect" in step.text
