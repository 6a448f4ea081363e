"""Order it again, offline: a cash order placed in the sandbox comes back as one cart write.

"My usual" runs through the planner behind the emulator (the harness of
test_planner_flows, both result forms); the app's own reads (`reorder_reads`) run through
its MCP client against the same sandbox. One of the order's products is sold out in the
sandbox before the reorder, so that line is shown as unavailable and left out.
"""

from __future__ import annotations

from typing import Any

import anthropic
import pytest
import test_planner_flows as flows
from sqlalchemy import delete, insert, update

from swiggy_core.mcp import McpManager
from swiggy_core.reorder_reads import past_orders, review
from swiggy_core.verticals import get_vertical
from swiggy_sandbox.connector import McpBridge
from swiggy_sandbox.servers import SandboxHttpServer
from swiggy_sandbox.servers.summary import RESULT_FORMS
from swiggy_sandbox.shop import db as tables

Chat, names = flows.Chat, flows.names
client, sandbox, bridge = flows.client, flows.sandbox, flows.bridge
each_form = pytest.mark.parametrize("result_form", RESULT_FORMS, indirect=True)


def _place_instamart_order(chat: Any, bridge: McpBridge) -> list[dict[str, Any]]:
    """Two products ordered cash on delivery; the order's lines as the shop recorded them."""
    chat.say("add amul butter")
    chat.say("add 2 brown bread")
    chat.say("place the order")
    chat.confirm(bridge)
    (order,) = chat.shop.instamart.orders(chat.user)["orders"]
    assert chat.shop.instamart.cart(chat.user)["items"] == []
    return list(order["items"])


def _sell_out(chat: Any, spin_id: str) -> None:
    """Every unit of one pack sold (the sandbox's own stock count)."""
    found = chat.shop.catalog.variation(spin_id)
    assert found is not None
    with chat.shop.db.tx() as conn:
        conn.execute(delete(tables.stock_sold).where(tables.stock_sold.c.spin_id == spin_id))
        conn.execute(insert(tables.stock_sold).values(spin_id=spin_id, quantity=found[1].stock))


def _a_week_ago(chat: Any) -> None:
    """The person's orders moved a week back: delivered long since (the clock is fixed)."""
    week = 7 * 24 * 3600
    orders = tables.orders
    with chat.shop.db.tx() as conn:
        conn.execute(
            update(orders)
            .where(orders.c.user_id == chat.user)
            .values(placed_at=orders.c.placed_at - week)
        )


@each_form
def test_my_usual_shows_the_sold_out_line_then_writes_the_cart_once(
    client: anthropic.Anthropic, sandbox: SandboxHttpServer, bridge: McpBridge
) -> None:
    chat = Chat(client, sandbox, "food", "usual")
    home = chat.address["id"]
    ordered = _place_instamart_order(chat, bridge)
    butter, bread = ordered[0], ordered[1]
    _sell_out(chat, butter["itemId"])
    chat.say("add a dozen eggs")  # already in the cart before the reorder: it stays
    eggs = chat.shop.instamart.cart(chat.user)["items"][0]

    calls = chat.say("my usual")
    assert names(calls)[:2] == ["get_orders", "get_order_details"]
    assert {args["query"] for name, args in calls if name == "search_products"} == {
        butter["name"],
        bread["name"],
    }
    assert "update_cart" not in names(calls), "nothing is added before the review"
    text = chat.text()
    assert f"{butter['name']}: can't be added (out of stock)" in text
    assert f"{bread['quantity']} × {bread['name']}" in text

    calls = chat.say("Add my usual to the cart")
    writes = [args for name, args in calls if name == "update_cart"]
    assert len(writes) == 1, calls
    assert writes[0]["selectedAddressId"] == home
    written = {item["spinId"]: item["quantity"] for item in writes[0]["items"]}
    assert written == {eggs["spinId"]: eggs["quantity"], bread["itemId"]: bread["quantity"]}
    cart = chat.shop.instamart.cart(chat.user)
    assert {item["spinId"] for item in cart["items"]} == set(written)
    assert "Added your usual" in chat.text()


@each_form
def test_the_orders_view_card_action_writes_the_reviewed_cart_once(
    client: anthropic.Anthropic, sandbox: SandboxHttpServer, bridge: McpBridge
) -> None:
    chat = Chat(client, sandbox, "food", "again")
    home = chat.address["id"]
    ordered = _place_instamart_order(chat, bridge)
    _sell_out(chat, ordered[0]["itemId"])

    # The app's own reads, through its MCP client, as the Orders view runs them.
    manager = McpManager(call_timeout=30)
    url = sandbox.url_for("instamart")

    def read(tool: str, arguments: dict[str, Any]) -> str:
        return manager.call_tool(url, chat.token, tool, arguments).envelope_text()

    try:
        vertical = get_vertical("food")
        (order,) = past_orders(read, vertical, home)
        plan = review(read, vertical, order, home)
    finally:
        manager.close()
    assert [line.status for line in plan.lines] == ["unavailable", "available"]
    assert plan.lines[1].old_price == plan.lines[1].new_price  # the sandbox kept its price
    arguments = plan.cart_arguments(home, [])

    ids = {"orderId": order.order_id, "cart_tool": plan.cart_tool, "arguments": arguments}
    calls = chat.press("reorder", "Order again", ids=ids)
    assert calls == [("update_cart", arguments)]
    cart = chat.shop.instamart.cart(chat.user)
    assert [(i["spinId"], i["quantity"]) for i in cart["items"]] == [
        (ordered[1]["itemId"], ordered[1]["quantity"])
    ]


@each_form
def test_feedme_usual_rebuilds_the_food_cart_from_reorder_meta(
    client: anthropic.Anthropic, sandbox: SandboxHttpServer, bridge: McpBridge
) -> None:
    chat = Chat(client, sandbox, "foodorder", "feedusual")
    home = chat.address["id"]
    chat.say("I want a paneer biryani")
    chat.say("order from the first restaurant")
    chat.say("add the paneer biryani")
    placed_cart = chat.shop.food.cart(chat.user, home)
    chat.say("place the order")
    chat.confirm(bridge)
    assert chat.shop.food.cart(chat.user, home)["items"] == []
    _a_week_ago(chat)  # an order on its way offers Track, not Reorder

    calls = chat.say("same as last week")
    assert names(calls) == ["get_food_orders"]
    dish = placed_cart["items"][0]
    assert f"{dish['quantity']} × {dish['name']}" in chat.text()

    calls = chat.say("add my usual to the cart")
    assert names(calls) == ["get_food_orders", "update_food_cart", "get_food_cart"]
    assert calls[1][1]["restaurantId"] == placed_cart["restaurant"]["id"]
    cart = chat.shop.food.cart(chat.user, home)
    assert [(i["menu_item_id"], i["quantity"]) for i in cart["items"]] == [
        (i["menu_item_id"], i["quantity"]) for i in placed_cart["items"]
    ]
