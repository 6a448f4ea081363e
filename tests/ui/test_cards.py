"""Every card type, rendered by the real pages from results the sandbox servers returned."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from uihelpers import buttons, open_page, texts

from swiggy_core.mcp import call_tool
from swiggy_core.models import ChatMessage, block_from_dict
from swiggy_core.store import ChatStore
from swiggy_sandbox.servers import DEMO_TOKEN, SandboxHttpServer

BROWSER = "0123456789abcdef0123456789abcdef"
VIEWER = f"b-{BROWSER}@sandbox"  # the store's key for this browser in the sandbox world


@pytest.fixture(scope="module")
def sandbox() -> Iterator[SandboxHttpServer]:
    with SandboxHttpServer() as server:
        yield server


class Recorder:
    """Calls real sandbox tools and keeps each call as mcp_tool_use/mcp_tool_result blocks."""

    def __init__(self, sandbox: SandboxHttpServer, server_key: str, server_name: str) -> None:
        self.url = sandbox.url_for(server_key)
        self.server_name = server_name
        self.blocks: list = []

    def call(self, name: str, arguments: dict) -> dict:
        result = call_tool(self.url, DEMO_TOKEN, name, arguments)
        tool_id = f"mcptoolu_{len(self.blocks)}"
        self.blocks += [
            block_from_dict(
                {
                    "type": "mcp_tool_use",
                    "id": tool_id,
                    "name": name,
                    "server_name": self.server_name,
                    "input": arguments,
                }
            ),
            block_from_dict(
                {
                    "type": "mcp_tool_result",
                    "tool_use_id": tool_id,
                    "is_error": result.is_error,
                    "content": [{"type": "text", "text": result.text}],
                }
            ),
        ]
        return json.loads(result.text)

    def chat(self, vertical_id: str) -> str:
        """Store the calls as one conversation of the viewer (as the app would)."""
        store = ChatStore(os.environ["SWIGGY_DATABASE_URL"])
        conversation_id = store.create_conversation(VIEWER, vertical_id)
        store.append_messages(
            conversation_id,
            [
                ChatMessage(role="user", content="show me everything"),
                ChatMessage(role="assistant", content=self.blocks),
            ],
        )
        store.close()
        return conversation_id


def _render(app, conversation_id: str, page: str):
    app.session_state["browser_id"] = BROWSER  # as if the browser sent its cookie
    at = open_page(app, page)
    assert not at.exception
    return at


def test_grocery_cards_products_addresses_cart_and_order(app, sandbox):
    im = Recorder(sandbox, "instamart", "swiggy-instamart")
    address_id = im.call("get_addresses", {})["data"]["addresses"][0]["id"]
    found = im.call("search_products", {"addressId": address_id, "query": "milk"})
    first = found["data"]["products"][0]["variations"][0]
    im.call(
        "update_cart",
        {
            "selectedAddressId": address_id,
            "items": [{"spinId": first["spinId"], "skuId": first["skuId"], "quantity": 2}],
        },
    )
    cart = im.call("get_cart", {})
    im.call("checkout", {"addressId": address_id})
    at = _render(app, im.chat("food"), "pages/nutricart.py")
    assert len(buttons(at, "Add")) >= 3  # product cards in a grid
    assert len(buttons(at, "Use this address")) == 3  # address picker
    markdown = texts(at.markdown)
    assert "Your cart" in markdown and "To pay" in markdown  # cart with the bill
    assert "Order placed" in markdown  # confirmation card
    assert buttons(at, "+") and buttons(at, "−")  # cart line steppers
    # Long lists start short and grow on request.
    shown = len(buttons(at, "Add"))
    more = [b for b in at.button if b.label.startswith("Show ") and b.label.endswith(" more")]
    assert more and len(found["data"]["products"]) > shown
    more[0].click().run()
    assert len(buttons(at, "Add")) > shown
    to_pay = float(cart["data"]["billBreakdown"]["toPay"]["value"].removeprefix("₹"))
    assert f"{to_pay:,.0f}".replace(",", "") in markdown.replace(",", "")


def test_food_cards_restaurants_with_menu_buttons_and_dishes(app, sandbox):
    food = Recorder(sandbox, "food", "swiggy-food")
    address_id = food.call("get_addresses", {})["data"]["addresses"][0]["id"]
    found = food.call("search_restaurants", {"addressId": address_id, "query": "biryani"})
    restaurant_id = found["data"]["restaurants"][0]["id"]
    food.call("get_restaurant_menu", {"addressId": address_id, "restaurantId": restaurant_id})
    at = _render(app, food.chat("foodorder"), "pages/feedme.py")
    assert buttons(at, "Menu")  # restaurant cards
    assert buttons(at, "Add")  # menu dishes as product cards
    assert ":green[●]" in texts(at.markdown) or ":red[▲]" in texts(at.markdown)  # veg marks


def _first_bookable(slots: dict) -> tuple[dict, str]:
    for day in slots["data"]["days"]:
        for slot in day["slots"]:
            free = [deal for deal in slot.get("deals", []) if deal.get("isFree")]
            if slot.get("available") and free:
                return slot, free[0]["itemId"]
    raise AssertionError("the sandbox offered no free slot")


def test_dining_cards_slots_booking_and_a_failed_booking(app, sandbox):
    dine = Recorder(sandbox, "dineout", "swiggy-dineout")
    location = dine.call("get_saved_locations", {})["data"]["locations"][0]
    where = {"latitude": location["lat"], "longitude": location["lng"]}
    found = dine.call("search_restaurants_dineout", {"query": "italian", **where})
    restaurant_id = found["data"]["restaurants"][0]["id"]
    tomorrow = (datetime.now(UTC) + timedelta(days=1)).date().isoformat()
    slots = dine.call(
        "get_available_slots", {"restaurantId": restaurant_id, "date": tomorrow, **where}
    )
    slot, item_id = _first_bookable(slots)
    booking = {
        "restaurantId": restaurant_id,
        "slotId": slot["slotId"],
        "itemId": item_id,
        "reservationTime": slot["reservationTime"],
        "guestCount": 2,
        **where,
    }
    dine.call("book_table", booking)
    dine.call("book_table", {**booking, "guestCount": 50})  # refused: 1–20 guests
    at = _render(app, dine.chat("dining"), "pages/tablescout.py")
    assert buttons(at, "Slots")  # restaurant cards offer slots in TableScout
    assert any(b.label == slot["displayTime"] for b in at.button)  # slot chips
    assert "Table booked" in texts(at.markdown)
    assert texts(at.warning)  # the refusal is a status card, never a confirmation
    assert texts(at.markdown).count("Table booked") == 1
