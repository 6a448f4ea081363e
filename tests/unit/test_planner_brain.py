"""PlannerBrain on hand-built turn contexts: approval requests, replies, context reading."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import pytest

from swiggy_core.constants import APPROVAL_TOOL_NAME, SWIGGY_TZ
from swiggy_core.conversation._context import AddressView
from swiggy_core.engine.setup import TurnSetup, build_turn_params
from swiggy_core.models import ChatMessage
from swiggy_sandbox.connector import CallClientTool, CallTool, Finish, TurnContext
from swiggy_sandbox.planner import PlannerBrain, build_view
from swiggy_sandbox.planner.approval import approval_reply
from swiggy_sandbox.planner.tool_calls import ApprovalAnswer

IM = "swiggy-instamart"
NOW = datetime(2026, 11, 20, 13, 0, tzinfo=SWIGGY_TZ)
ADDRESS = AddressView("addr_home_x", "Home", "12th Main", 12.97, 77.64)
# The system prompt as the app builds it (profile, address) and, as the emulator hands it
# to a brain, the turn context (clock, session summary) from the newest user message.
_HI = [ChatMessage.model_validate({"role": "user", "content": "hi"})]
_PARAMS = build_turn_params(
    TurnSetup(vertical_id="food", model="claude-sonnet-4-5", address=ADDRESS), _HI, now=NOW
)
SYSTEM = "\n\n".join(
    [block["text"] for block in _PARAMS["system"]]
    + [_PARAMS["messages"][-1]["content"][-1]["text"]]
)
TOOLS = [{"name": name, "input_schema": {"type": "object"}} for name in ("get_cart", "update_cart")]
APPROVAL_TOOL = {
    "name": APPROVAL_TOOL_NAME,
    "description": "Ask the person to approve a spending tool.",
    "input_schema": {
        "type": "object",
        "properties": {"tool": {"type": "string"}, "arguments": {"type": "object"}},
        "required": ["tool", "arguments"],
    },
}
CHECKOUT_ARGS = {"addressId": "addr_home_x", "paymentMethod": "COD"}
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
    text: str,
    *,
    checkout_on: bool = False,
    approvals: bool = True,
    blocks: list[dict[str, Any]] | None = None,
) -> TurnContext:
    """A request as the app sends it; `checkout_on` (wrongly) switches checkout on."""
    tools = TOOLS + ([{"name": "checkout", "input_schema": {}}] if checkout_on else [])
    return TurnContext(
        system=SYSTEM,
        messages=[{"role": "user", "content": text}],
        tools={IM: tools},
        disabled_tools={IM: frozenset() if checkout_on else frozenset({"checkout"})},
        client_tools=[APPROVAL_TOOL] if approvals else [],
        blocks=list(blocks or []),
    )


def answered(answer: dict[str, Any] | str, *, then: str = "") -> TurnContext:
    """The request after the person decided: the app answers the request_confirmation."""
    ctx = context("place the order")
    asked = [
        {"type": "text", "text": "Let me check your cart first."},
        *use_and_result("m1", "get_cart", CART),
        {"type": "text", "text": "Your order comes to ₹270. Press Confirm in the dialog."},
        {
            "type": "tool_use",
            "id": "toolu_1",
            "name": APPROVAL_TOOL_NAME,
            "input": {"tool": "checkout", "arguments": CHECKOUT_ARGS},
        },
    ]
    text = answer if isinstance(answer, str) else json.dumps(answer)
    result = {
        "type": "tool_result",
        "tool_use_id": "toolu_1",
        "content": [{"type": "text", "text": text}],
    }
    reply: list[dict[str, Any]] = [result]
    if then:
        reply.append({"type": "text", "text": then})
    ctx.messages += [{"role": "assistant", "content": asked}, {"role": "user", "content": reply}]
    return ctx


def order_result() -> dict[str, Any]:
    return {"success": True, "data": {"orderId": "IM-1", "itemCount": 2, "toPay": 270}}


def test_the_view_reads_address_coordinates_date_and_vertical() -> None:
    view = build_view(context("hi"))
    assert view.address_id() == "addr_home_x"
    assert view.coordinates() == (12.97, 77.64)
    assert view.today().isoformat() == "2026-11-20"
    assert view.vertical == "food"


def test_checkout_asks_for_approval_through_the_client_tool_after_reading_the_cart() -> None:
    brain = PlannerBrain()
    first = brain.next_step(context("place the order"))
    assert isinstance(first, CallTool) and first.name == "get_cart"
    after_read = context("place the order", blocks=use_and_result("m1", "get_cart", CART))
    after_read.blocks.insert(0, {"type": "text", "text": first.say_before})
    ask = brain.next_step(after_read)
    assert isinstance(ask, CallClientTool)
    assert ask.name == APPROVAL_TOOL_NAME
    assert ask.input == {"tool": "checkout", "arguments": CHECKOUT_ARGS}
    assert "₹270" in ask.say_before and "cannot be cancelled" in ask.say_before
    assert "Confirm" in ask.say_before


def test_no_reply_carries_the_offline_demo_label() -> None:
    """The page's badge says it is the offline demo; the replies just speak."""
    ctx = context("place the order", blocks=use_and_result("m1", "get_cart", CART))
    ask = PlannerBrain().next_step(ctx)
    assert isinstance(ask, CallClientTool) and "Offline demo" not in ask.say_before
    step = PlannerBrain().next_step(context("what can you do?"))
    assert isinstance(step, Finish) and "Offline demo" not in step.text


@pytest.mark.parametrize("checkout_as", ["server", "client"])
def test_an_enabled_checkout_is_never_called(checkout_as: str) -> None:
    """Whatever the request offers, the planner asks; it never spends on its own."""
    ctx = context(
        "place the order",
        checkout_on=checkout_as == "server",
        blocks=use_and_result("m1", "get_cart", CART),
    )
    if checkout_as == "client":
        ctx.client_tools.append({"name": "checkout", "input_schema": {"type": "object"}})
    step = PlannerBrain().next_step(ctx)
    assert isinstance(step, CallClientTool) and step.name == APPROVAL_TOOL_NAME
    assert step.input["tool"] == "checkout"


@pytest.mark.parametrize("checkout_on", [False, True])
def test_without_the_approval_tool_nothing_is_ordered(checkout_on: bool) -> None:
    ctx = context(
        "place the order",
        checkout_on=checkout_on,
        approvals=False,
        blocks=use_and_result("m1", "get_cart", CART),
    )
    step = PlannerBrain().next_step(ctx)
    assert isinstance(step, Finish)
    assert "₹270" in step.text and "Confirm step" in step.text
    assert "No order was placed" in step.text


@pytest.mark.parametrize("checkout_on", [False, True])
@pytest.mark.parametrize("typed", ["yes", "confirm", "yes please, go ahead"])
def test_typed_yes_never_orders(typed: str, checkout_on: bool) -> None:
    ctx = context(typed, checkout_on=checkout_on, blocks=use_and_result("m1", "get_cart", CART))
    step = PlannerBrain().next_step(ctx)
    assert isinstance(step, Finish)
    assert "Confirm button" in step.text and "dialog" in step.text


def test_a_confirm_card_action_never_orders() -> None:
    action = '<card_action>{"kind":"confirm","label":"Yes","tool_name":"checkout"}</card_action>'
    ctx = context("", checkout_on=True)
    content = [{"type": "text", "text": "Yes"}, {"type": "text", "text": action}]
    ctx.messages = [{"role": "user", "content": content}]
    step = PlannerBrain().next_step(ctx)
    assert isinstance(step, Finish) and "Confirm button" in step.text


def test_a_confirmed_order_is_reported_from_the_apps_result() -> None:
    answer = {"approval": "confirmed", "tool": "checkout", "message": "", "result": order_result()}
    step = PlannerBrain().next_step(answered(answer))
    assert isinstance(step, Finish)
    assert "order IM-1 is placed" in step.text and "₹270" in step.text


def test_a_confirmed_result_may_arrive_as_json_text() -> None:
    answer = {"approval": "confirmed", "tool": "checkout", "result": json.dumps(order_result())}
    step = PlannerBrain().next_step(answered(answer))
    assert isinstance(step, Finish) and "IM-1" in step.text


NOT_PLACED = ["Done", "is placed"]


# The app has already shown each outcome (its card or notice): the reply never repeats the
# answer's message, which is written for the model, and adds the next step.
@pytest.mark.parametrize(
    ("answer", "says", "never"),
    [
        (
            {
                "approval": "confirmed",
                "tool": "checkout",
                "result": {"success": False, "error": {"message": "Store is closed"}},
            },
            ["didn't accept it", "place the order"],
            [*NOT_PLACED, "Store is closed"],
        ),
        (
            {"approval": "declined", "tool": "checkout", "message": "You cancelled."},
            ["won't place the order"],
            [*NOT_PLACED, "You cancelled."],
        ),
        (
            {"approval": "expired", "tool": "checkout", "message": "That request is too old."},
            ["expired", "didn't go ahead with the order"],
            [*NOT_PLACED, "That request is too old."],
        ),
        (
            {"approval": "refused", "tool": "checkout", "message": "Your cart changed since."},
            ["couldn't go ahead with the order", "place the order"],
            [*NOT_PLACED, "Your cart changed since."],
        ),
        (
            {"approval": "failed", "tool": "checkout", "message": "Swiggy timed out"},
            ["didn't go through"],
            [*NOT_PLACED, "Swiggy timed out"],
        ),
        (
            {"approval": "unknown", "tool": "checkout", "message": "The connection dropped."},
            ["can't tell whether the order went through", "won't try it again"],
            [*NOT_PLACED, "No order was placed", "The connection dropped."],
        ),
        (
            {"approval": "confirmed", "tool": "checkout", "message": "No result came back."},
            ["can't tell whether the order went through"],
            NOT_PLACED,
        ),
        ("not json at all", ["can't tell whether"], NOT_PLACED),
        (
            {"approval": "superseded", "tool": "checkout", "message": ""},
            ["set that aside", "No order was placed"],
            NOT_PLACED,
        ),
    ],
)
def test_each_approval_answer_is_said_plainly(
    answer: dict[str, Any] | str, says: list[str], never: list[str]
) -> None:
    step = PlannerBrain().next_step(answered(answer))
    assert isinstance(step, Finish)
    for words in says:
        assert words in step.text
    for words in never:
        assert words not in step.text


def test_superseded_plans_from_the_new_words() -> None:
    answer = {"approval": "superseded", "tool": "checkout", "message": "You wrote instead."}
    ctx = answered(answer, then="show my cart")
    view = build_view(ctx)
    assert view.approval is None and view.text == "show my cart"
    step = PlannerBrain().next_step(ctx)
    assert isinstance(step, CallTool) and step.name == "get_cart"
    step = PlannerBrain().next_step(answered(answer, then="yes"))
    assert isinstance(step, Finish) and "Confirm button" in step.text


def test_a_placed_order_empties_the_cart_in_the_planners_view() -> None:
    ctx = answered({"approval": "confirmed", "tool": "checkout", "result": order_result()})
    view = build_view(ctx)
    assert view.approval is not None and view.approval.succeeded
    placed = view.latest("get_cart", "update_cart", "checkout")
    assert placed is not None and placed.name == "checkout" and placed.input == CHECKOUT_ARGS
    # The next typed message starts a new turn: the answer is history, not this turn's.
    ctx.messages.append({"role": "assistant", "content": [{"type": "text", "text": "Done"}]})
    ctx.messages.append({"role": "user", "content": "show my cart"})
    later = build_view(ctx)
    assert later.approval is None and later.turn_calls() == []


def test_a_declined_order_leaves_the_cart_as_it_was() -> None:
    view = build_view(answered({"approval": "declined", "tool": "checkout"}))
    latest = view.latest("get_cart", "update_cart", "checkout")
    assert latest is not None and latest.name == "get_cart"


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
    ctx = context("", blocks=use_and_result("m1", "get_cart", CART))
    ctx.messages = history
    step = PlannerBrain().next_step(ctx)
    assert isinstance(step, CallTool) and step.name == "update_cart"
    assert step.input["items"] == [
        {"spinId": "s1", "skuId": "k1", "quantity": 2},
        {"spinId": "s2", "skuId": "k2", "quantity": 3},
    ]


def test_without_any_tools_it_asks_to_connect() -> None:
    ctx = TurnContext(
        system="You are FeedMe.",
        messages=[{"role": "user", "content": "biryani"}],
        tools={},
        disabled_tools={},
        client_tools=[],
    )
    step = PlannerBrain().next_step(ctx)
    assert isinstance(step, Finish) and "Connect" in step.text


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
    step = PlannerBrain().next_step(context("show my cart", blocks=failed))
    assert isinstance(step, Finish) and "reconnect" in step.text


@pytest.mark.parametrize(
    ("tool", "data", "done", "declined"),
    [
        (
            "place_food_order",
            {"orderId": "FD-9", "toPay": 410, "restaurant": {"name": "Meghana Foods"}},
            "order FD-9 is placed with Meghana Foods",
            "won't place the order",
        ),
        (
            "book_table",
            {
                "orderId": "DO-3",
                "isDineout": True,
                "restaurantName": "Toit",
                "reservationDate": "2026-11-21",
                "reservationTime": "8:00 PM",
                "guestCount": 4,
                "status": "CONFIRMED",
            },
            "Booked — table for 4 at Toit on Saturday 21 November at 8:00 PM. Booking id DO-3.",
            "won't book it",
        ),
        ("book_table", {"orderId": "DO-5"}, "Booking id DO-5", "won't book it"),
        ("book_table", {"bookingId": "BK-4"}, "BK-4", "won't book it"),  # an older shape
    ],
)
def test_each_spending_tool_has_its_own_words(
    tool: str, data: dict[str, Any], done: str, declined: str
) -> None:
    result = {"success": True, "data": data}
    placed = approval_reply(ApprovalAnswer(tool, {}, "confirmed", result=result))
    assert done in placed.text
    assert declined in approval_reply(ApprovalAnswer(tool, {}, "declined")).text
    unknown = approval_reply(ApprovalAnswer(tool, {}, "unknown")).text
    assert "can't tell" in unknown and done not in unknown
