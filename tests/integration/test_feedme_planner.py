"""FeedMe's offline planner on Swiggy Food's documented shapes: the restaurant lock.

The harness (real SDK, emulator, sandbox over HTTP, the app's request builder) is the one
test_planner_flows uses; each test runs in both result forms.
"""

from __future__ import annotations

import anthropic
import pytest
import test_planner_flows as flows

from swiggy_sandbox.servers import SandboxHttpServer
from swiggy_sandbox.servers.summary import RESULT_FORMS

Chat, names = flows.Chat, flows.names
# The flows' module fixtures: a planner behind the emulator, the sandbox in the asked form.
client, sandbox = flows.client, flows.sandbox
each_form = pytest.mark.parametrize("result_form", RESULT_FORMS, indirect=True)


@each_form
def test_dishes_stay_on_the_open_restaurant_until_the_person_switches(
    client: anthropic.Anthropic,
    sandbox: SandboxHttpServer,
) -> None:
    chat = Chat(client, sandbox, "foodorder", "lock")
    home = chat.address["id"]
    chat.say("I want a paneer biryani")
    chat.say("order from the first restaurant")
    (menu,) = chat.results("get_restaurant_menu")
    biryani_place = menu["data"]["restaurant"]
    assert names(chat.say("add the paneer biryani")) == ["get_food_cart", "update_food_cart"]

    # More dishes come from the restaurant whose menu is open: the cart stays on it.
    calls = chat.say("add 2 of the first one")
    assert names(calls) == ["update_food_cart"]
    assert calls[0][1]["restaurantId"] == biryani_place["id"]
    cart = chat.shop.food.cart("lock", home)
    assert cart["restaurant"]["id"] == biryani_place["id"] and len(cart["items"]) == 2

    # Opening another restaurant and adding there starts a new cart, and says so.
    chat.say("find pizza")
    chat.say("order from the first restaurant")
    (menu,) = chat.results("get_restaurant_menu")
    pizza_place = menu["data"]["restaurant"]
    calls = chat.say("add the first one")
    assert names(calls) == ["update_food_cart"]
    assert calls[0][1]["restaurantId"] == pizza_place["id"]
    assert len(calls[0][1]["cartItems"]) == 1, "the biryani lines are not sent to the pizzeria"
    assert f"your cart from {biryani_place['name']} was emptied" in chat.text()
    cart = chat.shop.food.cart("lock", home)
    assert cart["restaurant"]["id"] == pizza_place["id"] and len(cart["items"]) == 1
    to_pay = f"₹{cart['pricing']['to_pay']:,.2f}"
    assert to_pay in chat.text(), "the reply reports the cart's own amount"
