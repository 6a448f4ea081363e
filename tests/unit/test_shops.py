"""Shops as data: a second spending tool on one server is one catalog entry.

A toy Instamart shop gets a second spending tool, `send_gift_box`, whose name neither
the spending pattern nor the parsers' confirm pattern would catch: the gate holds it, the
approval prepares it (with its own note argument) and execution calls it once, because
the shop says so. A toy Dineout shop's second table tool needs a listed slot the same way.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from swiggy_core.approval import ApprovalInvalid, execute, placed_ids, prepare, recheck
from swiggy_core.approval.request_tool import ApprovalRequest, approval_tool, spending_tools_for
from swiggy_core.hooks import CallScope
from swiggy_core.hooks.rules import require_listed_slot
from swiggy_core.parsers import OrderPlacedResult, parse_tool_result
from swiggy_core.parsers.routing import Route, is_booking_tool, route_for
from swiggy_core.shops import (
    SHOPS,
    WRITE_TOOL_NAMES,
    Preparation,
    SpendingTool,
    find_spender,
    money_tools,
    shop_for,
    write_tools,
)
from swiggy_core.verticals import DEFAULT_MONEY_TOOLS, ToolPolicy, get_vertical

FIXTURES = Path(__file__).parents[1] / "fixtures" / "payloads"
INSTAMART = json.loads((FIXTURES / "documented_instamart.json").read_text())
GIFT = SpendingTool("send_gift_box", Preparation.CART_ORDER, "order", note_argument="giftMessage")
CHEF_TABLE = SpendingTool("hold_chefs_counter", Preparation.FREE_TABLE, "booking")
ADDRESS = {"id": "d1f2a3", "label": "Home", "address": "Flat 402"}
PLACED = json.dumps({"success": True, "data": {"orderId": "IM-9", "status": "PLACED"}})


@pytest.fixture
def two_spenders(monkeypatch: pytest.MonkeyPatch) -> None:
    """Instamart with `checkout` and `send_gift_box`; Dineout with two table tools."""
    instamart, dineout = SHOPS["instamart"], SHOPS["dineout"]
    monkeypatch.setitem(
        SHOPS, "instamart", replace(instamart, spenders=(*instamart.spenders, GIFT))
    )
    monkeypatch.setitem(
        SHOPS, "dineout", replace(dineout, spenders=(*dineout.spenders, CHEF_TABLE))
    )


class Account:
    """Instamart as the approval reads and calls it: the documented cart and order list."""

    def __init__(self) -> None:
        self.orders = ["IM-2291038475"]
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def read(self, tool: str, arguments: dict[str, Any]) -> str:
        if tool == "get_orders":
            data = {"orders": [{"orderId": order} for order in self.orders]}
            return json.dumps({"success": True, "data": data})
        if tool == "get_payment_options":  # cash only: the dialog offers nothing else
            cash = {"cod": {"available": True, "id": "COD", "displayName": "Cash on Delivery"}}
            return json.dumps({"success": True, "data": {**cash, "allMethods": []}})
        return json.dumps(INSTAMART[tool]["result"])

    def call(self, tool: str, arguments: dict[str, Any]) -> str:
        self.calls.append((tool, arguments))
        self.orders.append("IM-9")
        return PLACED


def test_the_catalog_names_what_the_constants_used_to() -> None:
    assert DEFAULT_MONEY_TOOLS == ("checkout", "place_food_order", "book_table", "confirm_order")
    assert {name: shop.spender_names for name, shop in SHOPS.items()} == {
        "instamart": ("checkout",),
        "food": ("place_food_order",),
        "dineout": ("book_table",),
    }
    assert WRITE_TOOL_NAMES == write_tools() >= {"checkout", "book_table", "cancel_booking"}
    assert [shop_for(key).noun for key in SHOPS] == ["order", "order", "booking"]
    assert find_spender("get_cart") is None


@pytest.mark.usefixtures("two_spenders")
def test_the_gate_holds_both_spending_tools_of_one_shop() -> None:
    # By its name alone the toy tool would run freely: only the shop says it spends.
    assert not ToolPolicy(money_tools=()).is_money_spending("send_gift_box")
    policy = ToolPolicy(money_tools=money_tools())
    assert policy.is_money_spending("send_gift_box") and policy.is_money_spending("checkout")
    assert {"checkout", "send_gift_box"} <= set(policy.disabled_configs())
    assert "send_gift_box" in write_tools()
    vertical = get_vertical("food")
    assert spending_tools_for(vertical) == ("checkout", "send_gift_box")
    enum = approval_tool(vertical)["input_schema"]["properties"]["tool"]["enum"]
    assert enum == ["checkout", "send_gift_box"]
    # The parsers read its answer as the order it places.
    assert route_for("send_gift_box") is Route.CONFIRM and not is_booking_tool("send_gift_box")
    assert isinstance(parse_tool_result("send_gift_box", PLACED, "food"), OrderPlacedResult)


@pytest.mark.usefixtures("two_spenders")
@pytest.mark.parametrize("tool", ["checkout", "send_gift_box"])
def test_the_approval_prepares_each_and_execution_calls_that_tool_once(tool: str) -> None:
    vertical, account = get_vertical("food"), Account()
    request = ApprovalRequest(tool=tool, arguments={"giftMessage": "  Happy birthday!  "})
    prepared = prepare(vertical, request, ADDRESS, account.read)
    assert prepared.view.tool == tool and prepared.view.to_pay == 133.5
    expected = {"addressId": "d1f2a3", "paymentMethod": "COD"}
    if tool == "send_gift_box":  # only the gift tool carries a note, trimmed
        expected["giftMessage"] = "Happy birthday!"
    assert prepared.arguments == expected
    assert recheck(vertical, tool, prepared.arguments, account.read) == prepared.digest

    before = placed_ids(vertical, account.read, prepared.arguments)
    run = execute(vertical, tool, prepared.arguments, account.call, account.read, before)
    assert account.calls == [(tool, expected)]
    assert run.status == "done" and run.answer.tool == tool
    assert "the order went through" in run.answer.message


@pytest.mark.usefixtures("two_spenders")
def test_an_unclear_answer_of_either_tool_is_settled_from_the_order_list() -> None:
    vertical, account = get_vertical("food"), Account()
    before = placed_ids(vertical, account.read, {})

    def cut_off(tool: str, arguments: dict[str, Any]) -> str:
        account.orders.append("IM-10")  # it went through, but the answer is unreadable
        return "?"

    run = execute(vertical, "send_gift_box", {}, cut_off, account.read, before)
    assert run.status == "done" and run.answer.result["data"]["orderId"] == "IM-10"


def test_a_tool_the_shop_does_not_spend_with_is_not_approved() -> None:
    request = ApprovalRequest(tool="send_gift_box", arguments={})
    with pytest.raises(ApprovalInvalid) as refused:
        prepare(get_vertical("food"), request, ADDRESS, Account().read)
    assert refused.value.for_model.startswith("Only checkout can be approved here")


@pytest.mark.usefixtures("two_spenders")
def test_each_table_tool_of_a_shop_needs_a_listed_slot() -> None:
    scope = CallScope("u-asha@sandbox", "dining", "c-7")
    for tool in ("book_table", "hold_chefs_counter"):
        refused = require_listed_slot(scope.info("dineout", tool, {"slotId": 5}))
        assert refused is not None
        assert refused.reason.startswith(f"{tool} needs a slot from get_available_slots")
    assert require_listed_slot(scope.info("dineout", "checkout", {"slotId": 5})) is None
