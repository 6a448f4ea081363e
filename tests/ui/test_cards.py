"""Every card type, rendered by the real pages from results the sandbox servers returned."""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from uihelpers import buttons, open_page, store_reply, texts

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
    at = _render(app, im.chat("food"), "nutricart")
    assert len(buttons(at, "Add")) >= 3  # product cards in a grid
    # The address cards: the header's choice is marked, the other two can be chosen.
    assert len(buttons(at, "Use this address")) == 2
    markdown = texts(at.markdown)
    assert "Cart: 2 items · ₹" in markdown  # the cart as one line (the panel holds it all)
    assert "Order placed" in markdown  # confirmation card
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
    at = _render(app, food.chat("foodorder"), "feedme")
    assert buttons(at, "Menu")  # restaurant cards
    assert buttons(at, "Add")  # menu dishes as product cards
    assert ":green[●]" in texts(at.markdown) or ":red[▲]" in texts(at.markdown)  # veg marks


def _first_bookable(slots: dict) -> tuple[dict, str]:
    """A slot with tables left and a free deal (flat documented slots, or grouped by day)."""
    data = slots["data"]
    found = data.get("slots") or [s for day in data.get("days", []) for s in day["slots"]]
    for slot in found:
        free = [deal for deal in slot.get("deals", []) if deal.get("isFree")]
        left = slot.get("availableInventory", 1 if slot.get("available") else 0)
        if left and free:
            return slot, free[0]["itemId"]
    raise AssertionError("the sandbox offered no free slot")


def _near(location: dict) -> dict:
    """Where to search: a saved location's id, and its coordinates when it has them."""
    if "lat" in location:
        return {"latitude": location["lat"], "longitude": location["lng"]}
    return {"addressId": location["id"]}


def test_dining_cards_slots_booking_and_a_failed_booking(app, sandbox):
    dine = Recorder(sandbox, "dineout", "swiggy-dineout")
    location = dine.call("get_saved_locations", {})["data"]["locations"][0]
    found = dine.call("search_restaurants_dineout", {"query": "italian", **_near(location)})
    # Documented locations carry no coordinates: details, slots and booking reuse the search's.
    data = found["data"]
    where = {"latitude": data["latitude"], "longitude": data["longitude"]}
    restaurant_id = data["restaurants"][0]["id"]
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
    at = _render(app, dine.chat("dining"), "tablescout")
    assert buttons(at, "Slots")  # restaurant cards offer slots in TableScout
    assert any(b.label == slot["displayTime"] for b in at.button)  # slot chips
    assert "Table booked" in texts(at.markdown)
    assert texts(at.warning)  # the refusal is a status card, never a confirmation
    assert texts(at.markdown).count("Table booked") == 1


# --- Swiggy's documented shapes, in both result forms, render the right cards ---------

FIXTURES = Path(__file__).parents[1] / "fixtures" / "payloads"
PRODUCTS_SUMMARY = (
    "Found 2 products for 'milk':\n"
    "1. Amul Taaza Toned Fresh Milk — 500 ml | ₹27 (MRP ₹29) | in stock "
    "(ID: SPN-88121, SKU: SKU-5501)\n"
    "2. Nandini Toned Milk — 500 ml | ₹24 | in stock (ID: SPN-555, SKU: SKU-555)"
)


def _case(server: str, name: str) -> dict:
    return json.loads((FIXTURES / f"documented_{server}.json").read_text())[name]


def _two_blocks(case: dict) -> list[str]:
    """A result kept as the local engine stores structuredContent: summary, then its JSON."""
    return ["Here is what Swiggy returned.", json.dumps(case["result"]["data"])]


def _store_chat(vertical_id: str, calls: list[tuple[dict, list[str]]]) -> None:
    blocks = []
    for index, (case, bodies) in enumerate(calls):
        tool_id = f"mcptoolu_doc{index}"
        blocks.append(
            block_from_dict(
                {
                    "type": "mcp_tool_use",
                    "id": tool_id,
                    "name": case["tool"],
                    "server_name": "swiggy",
                    "input": case["input"],
                }
            )
        )
        blocks.append(
            block_from_dict(
                {
                    "type": "mcp_tool_result",
                    "tool_use_id": tool_id,
                    "content": [{"type": "text", "text": body} for body in bodies],
                }
            )
        )
    store_reply(VIEWER, vertical_id, "show me", blocks)


def _envelope(case: dict) -> list[str]:
    return [json.dumps(case["result"])]


def test_documented_dineout_cards_never_offer_a_full_or_paid_slot(app):
    calls = [
        (
            _case("dineout", "get_saved_locations"),
            _envelope(_case("dineout", "get_saved_locations")),
        ),
        (
            _case("dineout", "get_restaurant_details"),
            _two_blocks(_case("dineout", "get_restaurant_details")),
        ),
        (
            _case("dineout", "get_available_slots"),
            _two_blocks(_case("dineout", "get_available_slots")),
        ),
        (_case("dineout", "book_table_free"), _envelope(_case("dineout", "book_table_free"))),
        (_case("dineout", "book_table_upi"), _two_blocks(_case("dineout", "book_table_upi"))),
    ]
    _store_chat("dining", calls)
    at = _render(app, "", "tablescout")
    markdown, captions = texts(at.markdown), texts(at.caption)
    assert "**Home**" in markdown and "**Office**" in markdown  # address labels
    (seven,) = buttons(at, "7:00 PM")
    (half_past,) = buttons(at, "7:30 PM")
    assert not seven.disabled and half_past.disabled  # 0 tables left: greyed
    assert not buttons(at, "8:00 PM")  # a paid prebook has no button at all
    assert "8:00 PM ₹210 — paid prebook, not bookable here" in captions
    assert "Prime deal: 30% off the bill (₹210) · paid prebook — not bookable here" in captions
    # The free booking confirmed by its orderId; the UPI one is pending, not booked.
    assert markdown.count("Table booked") == 1 and "DO-55120045" in markdown
    assert "Payment pending" in texts(at.warning)


def test_a_full_slot_reads_full_not_paid(app):
    case = copy.deepcopy(_case("dineout", "get_available_slots"))
    paid_deal = case["result"]["data"]["slots"][0]["deals"][1]
    full_and_paid = {
        "isFree": False,
        "slotId": 7399442100,
        "displayTime": "8:30 PM",
        "reservationTime": 1795532400,
        "slotGroupName": "Dinner",
        "availableInventory": 0,
        "dateStr": "2026-11-24",
        "deals": [{**paid_deal, "slotId": 7399442100}],
    }
    case["result"]["data"]["slots"].append(full_and_paid)
    _store_chat("dining", [(case, _envelope(case))])
    captions = texts(_render(app, "", "tablescout").caption)
    assert "Full: 8:30 PM" in captions
    assert "8:30 PM ₹210" not in captions  # no seats: its price is beside the point
    assert "8:00 PM ₹210 — paid prebook, not bookable here" in captions


def test_documented_grocery_cards_show_labels_charged_prices_and_summaries(app):
    cart = _case("instamart", "update_cart")
    calls = [
        (_case("instamart", "get_addresses"), _envelope(_case("instamart", "get_addresses"))),
        (_case("instamart", "search_products"), [PRODUCTS_SUMMARY]),  # summary text only
        (cart, _two_blocks(cart)),
        (_case("instamart", "get_orders"), _two_blocks(_case("instamart", "get_orders"))),
        (_case("instamart", "checkout_multi"), _envelope(_case("instamart", "checkout_multi"))),
    ]
    _store_chat("food", calls)
    at = _render(app, "", "nutricart")
    markdown, captions, warnings = texts(at.markdown), texts(at.caption), texts(at.warning)
    assert "**Home**" in markdown and "**Work**" in markdown
    assert "Showing 2 of 5 saved addresses" in captions
    assert len(buttons(at, "Add")) >= 2  # product cards from the summary's numbered lines
    assert "Removed (out of stock): Akshayakalpa Organic Cow Milk" in warnings
    assert "**Your orders**" in markdown
    assert "Order placed" in markdown and "Not placed: Store closed for the day" in warnings
