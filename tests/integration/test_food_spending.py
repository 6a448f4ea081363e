"""FeedMe spending through ChatSession: the order costs what the approved cart showed, once.

Real peers: the emulator through the real SDK, the sandbox Food server over HTTP (its
documented shapes: the cart under `data.data` with `pricing`), SQLite on disk.
"""

from __future__ import annotations

from typing import Any

import pytest
from session_peers import ADDRESS, Shop, ask_checkout, asked_to_place, echo, finish, new_session

from swiggy_sandbox.connector import CallClientTool

ENGINES = ["connector", "local"]


def _ask_food_order() -> CallClientTool:
    return ask_checkout({"addressId": ADDRESS}, tool="place_food_order")


def _food_cart(shop: Shop, quantity: int = 2) -> dict[str, Any]:
    """Put a dish in the account's food cart; return the cart (FC) as get_food_cart reads it."""
    found = shop.call("food", "search_menu", {"addressId": ADDRESS, "query": "paneer biryani"})
    dish = next(i for i in found["data"]["items"] if i["inStock"])
    line = {"menu_item_id": dish["menu_item_id"], "quantity": quantity}
    arguments = {"restaurantId": dish["restaurant_id"], "addressId": ADDRESS, "cartItems": [line]}
    assert shop.call("food", "update_food_cart", arguments)["success"]
    cart: dict[str, Any] = shop.call("food", "get_food_cart", {"addressId": ADDRESS})["data"][
        "data"
    ]
    return cart


def _orders(shop: Shop) -> list[dict[str, Any]]:
    found = shop.call("food", "get_food_orders", {"addressId": ADDRESS})
    orders: list[dict[str, Any]] = found["data"]["orders"]
    return orders


@pytest.mark.parametrize("engine", ENGINES)
def test_a_food_order_costs_what_the_approved_cart_showed(engine, emu, store, shop) -> None:
    cart = _food_cart(shop)
    session = new_session(store, shop, emu.base_url, engine=engine, vertical_id="foodorder")
    approval = asked_to_place(session, emu, _ask_food_order())
    assert approval.tool == "place_food_order"
    assert approval.view["to_pay"] == cart["pricing"]["to_pay"]
    assert approval.view["restaurant_name"] == cart["restaurant"]["name"]
    assert [line["quantity"] for line in approval.view["lines"]] == [2]
    assert _orders(shop) == [], "asking is not ordering"

    emu.brain.enqueue(echo)
    finish(session.confirm(approval.id))
    (order,) = _orders(shop)
    details = shop.call("food", "get_food_order_details", {"orderId": order["orderId"]})
    assert details["data"]["order"]["order_total"] == cart["pricing"]["to_pay"]
    assert order["orderTotal"] == f"₹{cart['pricing']['to_pay']:.2f}"
    record = store.get_approval(approval.id)
    assert record is not None and record.status == "done"
    answer = next(m for m in session.history() if m.meta.approval_id == approval.id)
    card = next(iter(answer.meta.cards.values()))
    assert card.type == "order_placed" and card.amount == cart["pricing"]["to_pay"]


def test_a_changed_food_cart_refuses_the_confirmation(emu, store, shop) -> None:
    _food_cart(shop)
    session = new_session(store, shop, emu.base_url, engine="local", vertical_id="foodorder")
    approval = asked_to_place(session, emu, _ask_food_order())
    _food_cart(shop, quantity=3)  # another tab changes the cart after it was shown
    emu.brain.enqueue(echo)
    finish(session.confirm(approval.id))
    record = store.get_approval(approval.id)
    assert record is not None and record.status == "refused"
    assert _orders(shop) == []


def test_an_unclear_food_order_is_settled_by_looking_at_the_orders(emu, store, shop) -> None:
    _food_cart(shop)
    session = new_session(store, shop, emu.base_url, engine="local", vertical_id="foodorder")
    approval = asked_to_place(session, emu, _ask_food_order())
    # The app stopped after the call went out: the approval is left executing.
    crashed = {"before": [], "calling": True}  # written just before the call went out
    assert store.transition_approval(approval.id, ["pending"], "executing", result=crashed)
    shop.call("food", "place_food_order", {"addressId": ADDRESS, "paymentMethod": "Cash"})
    emu.brain.enqueue(echo)
    finish(session.retry())
    record = store.get_approval(approval.id)
    assert record is not None and record.status == "done", "get_food_orders shows the order"
    assert len(_orders(shop)) == 1
