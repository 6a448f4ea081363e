"""The offline planner completes each vertical's main flow: real SDK, emulator, sandbox servers.

Requests are built by the app's own request builder, so the toolset configs (spending
tools always off) and pinned listings are exactly what the app sends. Spending goes
through the `request_confirmation` client tool: the test plays the app's part after
Confirm (it runs the tool through its own MCP client and answers with the outcome).

The main flow of each vertical also runs with the sandbox in the summary result form,
through the local engine (`LocalEngine`, as `auto` chooses): the app calls the tools and
keeps their structuredContent.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime
from types import SimpleNamespace
from typing import Any

import anthropic
import pytest

from swiggy_core.actions import CardAction, action_message, typed_message
from swiggy_core.constants import (
    APPROVAL_TOOL_NAME,
    DEFAULT_MODEL,
    MCP_SERVERS,
    SWIGGY_TZ,
)
from swiggy_core.engine import LocalEngine, TurnRequest, TurnSetup, build_turn_params
from swiggy_core.mcp import McpManager
from swiggy_core.models import ChatMessage
from swiggy_core.parsers import ProductsResult
from swiggy_core.parsers.cards import parse_cards
from swiggy_core.shops import SHOPS
from swiggy_sandbox.catalog.wire import address_wire
from swiggy_sandbox.connector import McpBridge
from swiggy_sandbox.connector.toolsets import ServerSpec
from swiggy_sandbox.emulator import EmulatorServer
from swiggy_sandbox.planner import PlannerBrain
from swiggy_sandbox.servers import RateLimits, SandboxHttpServer
from swiggy_sandbox.servers.summary import RESULT_FORMS
from swiggy_sandbox.shop import Shop

# A Friday lunchtime: restaurants are open and "tomorrow" is a Saturday in the slot window.
NOW = datetime(2026, 11, 20, 13, 0, tzinfo=SWIGGY_TZ)
TOMORROW = "2026-11-21"
SERVER_KEYS = ("instamart", "food", "dineout")
SERVER_OF = {"food": "instamart", "style": "instamart", "foodorder": "food", "dining": "dineout"}
APPROVAL_TOOL = {
    "name": APPROVAL_TOOL_NAME,
    "description": "Ask the person to approve a spending tool; the app runs it after Confirm.",
    "input_schema": {
        "type": "object",
        "properties": {"tool": {"type": "string"}, "arguments": {"type": "object"}},
        "required": ["tool", "arguments"],
    },
}


@pytest.fixture(scope="module")
def sandbox(result_form: str) -> Iterator[SandboxHttpServer]:
    limits = RateLimits(requests=10_000, writes=10_000)
    with SandboxHttpServer(clock=lambda: NOW, limits=limits, result_form=result_form) as server:
        yield server


# The main flow of a vertical, once per result form (see the conftest's `result_form`).
each_form = pytest.mark.parametrize("result_form", RESULT_FORMS, indirect=True)


@pytest.fixture(scope="module")
def bridge() -> Iterator[McpBridge]:
    """The app's own MCP client: the only caller of a spending tool."""
    mcp = McpBridge()
    yield mcp
    mcp.close()


@pytest.fixture(scope="module")
def client() -> Iterator[anthropic.Anthropic]:
    with (
        EmulatorServer(PlannerBrain()) as emu,
        anthropic.Anthropic(api_key="sk-offline", base_url=emu.base_url, max_retries=0) as sdk,
    ):
        yield sdk


class Chat:
    """One person's conversation in one vertical, sent the way the app sends it."""

    def __init__(
        self, client: anthropic.Anthropic, sandbox: SandboxHttpServer, vertical: str, user: str
    ) -> None:
        self.client, self.sandbox, self.vertical, self.user = client, sandbox, vertical, user
        self.token = sandbox.store.issue(user)
        self.address = address_wire(self.shop.saved_addresses(user)[0])
        self.history: list[ChatMessage] = []
        self.last: Any = None
        # Summary results: the local engine runs the tools and keeps structuredContent.
        self.local = sandbox.app.state.result_form == "summary"

    @property
    def shop(self) -> Shop:
        return self.sandbox.app.state.shop

    def say(self, text: str) -> list[tuple[str, dict[str, Any]]]:
        """Type a message; returns the tool calls of the reply."""
        return self._send(typed_message(text))

    def press(self, kind: str, label: str, **extra: Any) -> list[tuple[str, dict[str, Any]]]:
        """Press a card button; returns the tool calls of the reply."""
        return self._send(action_message(CardAction(kind=kind, label=label, **extra)))

    def asked(self) -> Any:
        """The request_confirmation call that ended the latest reply (None if there is none)."""
        uses = [b for b in self.last.content if b.type == "tool_use"]
        assert all(use.name == APPROVAL_TOOL_NAME for use in uses)
        return uses[0] if uses else None

    def confirm(self, bridge: McpBridge) -> list[tuple[str, dict[str, Any]]]:
        """Play the app after Confirm: run the asked-for call once, answer with its result."""
        use = self.asked()
        assert use is not None, self.text()
        key = SERVER_OF[self.vertical]
        server = ServerSpec(MCP_SERVERS[key].name, self.sandbox.url_for(key), self.token)
        tool = use.input["tool"]
        assert tool in SHOPS[key].spender_names
        called = bridge.call_tool(server, tool, dict(use.input["arguments"]))
        result = _envelope([called.text], called.structured, called.is_error)
        return self._answer(use.id, {"approval": "confirmed", "tool": tool, "result": result})

    def decline_by_typing(self, text: str) -> list[tuple[str, dict[str, Any]]]:
        """The person writes instead of deciding: the app answers "superseded" plus the text."""
        use = self.asked()
        assert use is not None, self.text()
        answer = {"approval": "superseded", "tool": use.input["tool"], "message": "New message."}
        return self._answer(use.id, answer, then=text)

    def text(self) -> str:
        return "".join(block.text for block in self.last.content if block.type == "text")

    def results(self, name: str) -> list[dict[str, Any]]:
        """Payloads of this reply's successful results of tool `name`."""
        names = {b.id: b.name for b in self.last.content if b.type == "mcp_tool_use"}
        return [
            _envelope([part.text for part in b.content], None, b.is_error)
            for b in self.last.content
            if b.type == "mcp_tool_result" and names[b.tool_use_id] == name
        ]

    def _answer(
        self, use_id: str, answer: dict[str, Any], then: str = ""
    ) -> list[tuple[str, dict[str, Any]]]:
        content: list[dict[str, Any]] = [
            {"type": "tool_result", "tool_use_id": use_id, "content": json.dumps(answer)}
        ]
        if then:
            content.append({"type": "text", "text": then})
        return self._send(ChatMessage.model_validate({"role": "user", "content": content}))

    def _send(self, message: ChatMessage) -> list[tuple[str, dict[str, Any]]]:
        self.history.append(message)
        if self.local:
            self.last = self._local_turn()
        else:
            self.last = self._connector_turn()
        # Sent back unchanged next turn, as the app stores it.
        blocks = [block.model_dump(mode="json", exclude_none=True) for block in self.last.content]
        self.history.append(ChatMessage.model_validate({"role": "assistant", "content": blocks}))
        assert "Offline demo" not in self.text(), "the page's badge says it, not each reply"
        assert "Claude" not in self.text()
        expected = "end_turn" if self.asked() is None else "tool_use"
        assert self.last.stop_reason == expected
        return [(b.name, b.input) for b in self.last.content if b.type == "mcp_tool_use"]

    def _local_turn(self) -> Any:
        """The app's local engine: the planner asks for client tools, the app runs them."""
        setup = TurnSetup(
            vertical_id=self.vertical,
            model="claude-haiku-4-5",
            swiggy_token=self.token,
            server_urls={key: self.sandbox.url_for(key) for key in SERVER_KEYS},
            address=self.address,
            engine="local",
            timeout=60,
        )
        manager = McpManager(call_timeout=30)
        try:
            turn = LocalEngine().stream(
                TurnRequest(self.client, setup, self.history, manager=manager, now=NOW)
            )
            while True:
                next(turn)
        except StopIteration as done:
            result = done.value
        finally:
            manager.close()
        assert result.error is None, result.error
        return SimpleNamespace(content=result.blocks, stop_reason=result.stop_reason)

    def _connector_turn(self) -> Any:
        setup = TurnSetup(
            vertical_id=self.vertical,
            model=DEFAULT_MODEL,
            swiggy_token=self.token,
            server_urls={key: self.sandbox.url_for(key) for key in SERVER_KEYS},
            address=self.address,
        )
        # Exactly what the app sends: its session summary included.
        params: Any = build_turn_params(setup, self.history, now=NOW)
        if not any(tool.get("name") == APPROVAL_TOOL_NAME for tool in params["tools"]):
            params["tools"].append(APPROVAL_TOOL)
        with self.client.beta.messages.stream(**params) as stream:
            return stream.get_final_message()


def _envelope(texts: list[str], structured: dict[str, Any] | None, is_error: bool) -> Any:
    """A result as the `{success, data}` envelope, read as the app reads it: structuredContent
    (or a JSON-object block, the stored form of it) first, the JSON text otherwise."""
    for text in reversed(texts):
        if structured is None and text.lstrip().startswith("{"):
            structured = json.loads(text)
            break
    if structured is None:
        return json.loads("".join(texts))
    if "success" in structured:
        return structured
    return {"success": not is_error, "data": structured}


def names(calls: list[tuple[str, dict[str, Any]]]) -> list[str]:
    return [name for name, _ in calls]


def search_cards(chat: Chat, request: str) -> list[ProductsResult]:
    """The product cards of the latest reply as the app stores them (ranked for `request`)."""
    cards = parse_cards(chat.history[-1].blocks(), chat.vertical, request=request)
    return [card for card in cards.values() if isinstance(card, ProductsResult)]


def first_card(chat: Chat, request: str) -> str:
    """The name on the first card the app shows for the reply's latest product search."""
    products = search_cards(chat, request)
    assert products and products[-1].items, products
    return products[-1].items[0].name


@each_form
def test_nutricart_search_add_remove_and_a_confirmed_checkout(
    client: anthropic.Anthropic, sandbox: SandboxHttpServer, bridge: McpBridge
) -> None:
    chat = Chat(client, sandbox, "food", "nutri")
    home = chat.address["id"]

    calls = chat.say("find high-protein snacks under 200")
    assert calls == [("search_products", {"addressId": home, "query": "high protein snacks"})]
    first = first_card(chat, "find high-protein snacks under 200")
    assert "Protein Bar" in first  # not a milkshake or a 1 kg pack of oats
    assert first in chat.text() and "\n1. " not in chat.text(), "one pick, not the cards again"

    calls = chat.say("add 2 of the first one")
    assert names(calls) == ["get_cart", "update_cart"]
    (line,) = chat.shop.instamart.cart("nutri")["items"]
    assert (line["itemName"], line["quantity"]) == (first, 2)

    calls = chat.say("add 3 lays classic salted chips")
    assert names(calls) == ["search_products", "update_cart"]
    sent = calls[1][1]["items"]
    assert [item["quantity"] for item in sent] == [2, 3], "update_cart got the whole cart"
    cart = {i["itemName"]: i["quantity"] for i in chat.shop.instamart.cart("nutri")["items"]}
    assert cart == {first: 2, "Lay's Classic Salted Potato Chips": 3}

    assert names(chat.say("show my cart")) == ["get_cart"]
    assert "Lay's Classic Salted Potato Chips" in chat.text()

    assert names(chat.say("remove the chips")) == ["get_cart", "update_cart"]
    cart = {i["itemName"]: i["quantity"] for i in chat.shop.instamart.cart("nutri")["items"]}
    assert cart == {first: 2}

    assert names(chat.say("place the order")) == ["get_cart"]
    assert "cannot be cancelled" in chat.text() and "Confirm" in chat.text()
    asked = {"tool": "checkout", "arguments": {"addressId": home, "paymentMethod": "COD"}}
    assert chat.asked().input == asked
    assert chat.shop.instamart.orders("nutri")["orders"] == []

    assert names(chat.decline_by_typing("yes")) == [], "typing yes does not confirm"
    assert "Confirm button" in chat.text()
    assert chat.shop.instamart.orders("nutri")["orders"] == []

    assert names(chat.say("place the order")) == ["get_cart"]
    assert names(chat.confirm(bridge)) == [], "the app placed it; the planner only reports"
    (order,) = chat.shop.instamart.orders("nutri")["orders"]
    assert order["orderId"] in chat.text() and "cash on delivery" in chat.text()
    assert chat.shop.instamart.cart("nutri")["items"] == []


def test_nutricart_card_buttons_change_the_cart(
    client: anthropic.Anthropic, sandbox: SandboxHttpServer
) -> None:
    chat = Chat(client, sandbox, "food", "buttons")
    chat.say("find amul taaza milk")
    product = chat.results("search_products")[0]["data"]["products"][0]
    pack = product["variations"][0]
    ids = {"spinId": pack["spinId"], "skuId": pack["skuId"], "name": product["displayName"]}

    add = chat.press("add_to_cart", "Add 1 × milk", ids={**ids, "quantity": 1})
    assert names(add) == ["get_cart", "update_cart"]
    more = chat.press("set_quantity", "Change milk to 3", ids={**ids, "quantity": 3})
    assert names(more) == ["update_cart"], "the latest cart result is the cart"
    assert chat.shop.instamart.cart("buttons")["items"][0]["quantity"] == 3
    chat.press("remove_from_cart", "Remove milk", ids={**ids, "quantity": 0})
    assert chat.shop.instamart.cart("buttons")["items"] == []
    assert names(chat.press("request_checkout", "Place the order")) == ["get_cart"]
    assert "empty" in chat.text()


@each_form
def test_stylekit_gives_a_routine_then_one_qualified_search(
    client: anthropic.Anthropic, sandbox: SandboxHttpServer
) -> None:
    chat = Chat(client, sandbox, "style", "style")
    calls = chat.say("suggest a skincare routine for oily skin and find the products")
    assert names(calls) == ["search_products"]
    assert calls[0][1]["query"] == "face wash for oily skin"
    text = chat.text()
    assert text.index("1. Cleanse") < text.index("face wash for oily skin")
    assert "SPF" in text

    assert names(chat.say("find a sunscreen")) == ["search_products"]
    assert chat.last.content[0].input["query"] == "sunscreen for oily skin"
    chat.say("add the first one")
    (line,) = chat.shop.instamart.cart("style")["items"]
    assert "Sunscreen" in line["itemName"] or "SPF" in line["itemName"]


@each_form
def test_feedme_restaurant_menu_cart_and_confirmed_order(
    client: anthropic.Anthropic, sandbox: SandboxHttpServer, bridge: McpBridge
) -> None:
    chat = Chat(client, sandbox, "foodorder", "feedme")
    home = chat.address["id"]
    calls = chat.say("I want a paneer biryani")
    assert calls == [("search_restaurants", {"addressId": home, "query": "paneer biryani"})]
    second = chat.results("search_restaurants")[0]["data"]["restaurants"][1]

    calls = chat.say("order from the second restaurant")
    assert calls == [("get_restaurant_menu", {"addressId": home, "restaurantId": second["id"]})]
    assert "Paneer Biryani" in chat.text()

    calls = chat.say("add the paneer biryani")
    assert names(calls) == ["get_food_cart", "update_food_cart"]
    cart = chat.shop.food.cart("feedme", home)
    assert cart["restaurant"]["id"] == second["id"]
    assert [(i["name"], i["quantity"]) for i in cart["items"]] == [("Paneer Biryani", 1)]

    calls = chat.say("add 2 of the first one")
    assert names(calls) == ["update_food_cart"]
    assert len(calls[0][1]["cartItems"]) == 2, "update_food_cart got the whole cart"

    assert names(chat.say("place the order")) == ["get_food_cart"]
    assert chat.asked().input["tool"] == "place_food_order"
    assert chat.shop.food.orders("feedme")["orders"] == []
    assert names(chat.confirm(bridge)) == []
    (order,) = chat.shop.food.orders("feedme")["orders"]
    assert order["orderId"] in chat.text()


def test_feedme_menu_button_opens_that_restaurant(
    client: anthropic.Anthropic, sandbox: SandboxHttpServer
) -> None:
    chat = Chat(client, sandbox, "foodorder", "menu-button")
    chat.say("find pizza")
    pick = chat.results("search_restaurants")[0]["data"]["restaurants"][0]
    ids = {"restaurantId": pick["id"], "restaurantName": pick["name"]}
    calls = chat.press("show_menu", f"Show me the menu of {pick['name']}", ids=ids)
    assert names(calls) == ["get_restaurant_menu"]
    assert calls[0][1]["restaurantId"] == pick["id"]


@each_form
def test_tablescout_checks_availability_then_books_only_after_confirm(
    client: anthropic.Anthropic, sandbox: SandboxHttpServer, bridge: McpBridge
) -> None:
    chat = Chat(client, sandbox, "dining", "scout")
    lat, lng = chat.address["lat"], chat.address["lng"]
    calls = chat.say("book a table for 4 tomorrow at 8 pm near Indiranagar")
    assert calls == [
        ("search_restaurants_dineout", {"query": "indiranagar", "latitude": lat, "longitude": lng})
    ]
    assert "Which one" in chat.text()
    first = chat.results("search_restaurants_dineout")[0]["data"]["restaurants"][0]

    calls = chat.say("the first one")
    assert calls == [
        (
            "get_available_slots",
            {"restaurantId": first["id"], "date": TOMORROW, "latitude": lat, "longitude": lng},
        )
    ]
    assert chat.text().startswith("8:00 PM on Saturday 21 November")

    assert names(chat.say("book the 8 pm slot")) == []
    assert "Confirm" in chat.text() and "for 4" in chat.text()
    assert chat.shop.dineout.bookings("scout") == []

    booked = chat.asked().input["arguments"]
    assert (booked["guestCount"], booked["restaurantId"]) == (4, first["id"])
    assert names(chat.confirm(bridge)) == []
    (booking,) = chat.shop.dineout.bookings("scout")
    assert (booking["reservationDate"], booking["reservationTime"]) == (TOMORROW, "8:00 PM")
    assert booking["status"] == "CONFIRMED"
    assert booking["orderId"] in chat.text() and "Booked" in chat.text()

    # The same slot again: the server refuses and the planner says so, claiming nothing.
    assert names(chat.say("book the 8 pm slot")) == []
    assert names(chat.confirm(bridge)) == []
    assert "didn't accept it" in chat.text() and "Booked" not in chat.text()
    assert len(chat.shop.dineout.bookings("scout")) == 1


def test_tablescout_slot_button_asks_before_booking(
    client: anthropic.Anthropic, sandbox: SandboxHttpServer, bridge: McpBridge
) -> None:
    chat = Chat(client, sandbox, "dining", "slot-button")
    chat.say("find a rooftop place for 2 tonight at 7 pm")
    venue = chat.results("search_restaurants_dineout")[0]["data"]["restaurants"][0]
    ids = {"restaurantId": venue["id"], "restaurantName": venue["name"]}
    assert names(chat.press("show_slots", "Show free slots", ids=ids)) == ["get_available_slots"]
    slots = chat.results("get_available_slots")[0]["data"]["slots"]
    slot = next(s for s in slots if s["availableInventory"])
    free, paid = (next(d for d in slot["deals"] if d["isFree"] is flag) for flag in (True, False))
    pick = {
        "restaurantId": venue["id"],
        "slotId": slot["slotId"],
        "itemId": paid["itemId"],  # the paid deal's id: the planner books the free one only
        "reservationTime": slot["reservationTime"],
    }
    assert names(chat.press("pick_slot", f"Book the {slot['displayTime']} slot", ids=pick)) == []
    assert "for 2" in chat.text() and "free table" in chat.text()
    asked = chat.asked().input["arguments"]
    assert (asked["slotId"], asked["itemId"]) == (slot["slotId"], free["itemId"])
    assert names(chat.confirm(bridge)) == []
    (booking,) = chat.shop.dineout.bookings("slot-button")
    assert booking["reservationTime"] == slot["displayTime"]


def test_tablescout_never_offers_a_full_slot_and_lists_the_nearest_free_ones(
    client: anthropic.Anthropic, sandbox: SandboxHttpServer, bridge: McpBridge
) -> None:
    chat = Chat(client, sandbox, "dining", "full-slot")
    where = (chat.address["lat"], chat.address["lng"])
    venue, full = next(
        (v, s)
        for v in chat.shop.catalog.venues
        for s in chat.shop.dineout.slots(v.id, TOMORROW, where)["slots"]
        if s["dateStr"] == TOMORROW and s["availableInventory"] == 0
    )
    chat.say("book a table for 2 tomorrow near Indiranagar")
    ids = {"restaurantId": venue.id, "restaurantName": venue.name}
    assert names(chat.press("show_slots", "Show free slots", ids=ids)) == ["get_available_slots"]
    slots = chat.results("get_available_slots")[0]["data"]["slots"]
    wanted = full["reservationTime"]
    free = [s for s in slots if s["dateStr"] == TOMORROW and s["availableInventory"] > 0]
    nearest = sorted(free, key=lambda s: abs(s["reservationTime"] - wanted))[:3]

    # Asked for by time: the planner says it is taken and offers the nearest free times.
    assert names(chat.say(f"book the {full['displayTime'].lower()} slot")) == []
    assert chat.asked() is None and "is taken" in chat.text()
    offered = chat.text().split("Nearest free slots: ", 1)[1]
    assert offered.startswith(", ".join(s["displayTime"] for s in nearest))

    # Pressed on a card with its ids: still never offered for a booking.
    pick = {
        "restaurantId": venue.id,
        "slotId": full["slotId"],
        "itemId": full["deals"][0]["itemId"],
        "reservationTime": full["reservationTime"],
    }
    assert names(chat.press("pick_slot", f"Book the {full['displayTime']} slot", ids=pick)) == []
    assert chat.asked() is None and "is taken" in chat.text()
    assert chat.shop.dineout.bookings("full-slot") == []


def test_tablescout_without_coordinates_searches_by_saved_location(
    client: anthropic.Anthropic, sandbox: SandboxHttpServer, bridge: McpBridge
) -> None:
    """Documented locations carry no coordinates: the search's latitude/longitude are reused."""
    chat = Chat(client, sandbox, "dining", "no-address")
    chat.address = None
    calls = chat.say("book a table for 2 tomorrow at 8 pm near Indiranagar")
    assert names(calls) == ["get_saved_locations", "search_restaurants_dineout"]
    location = chat.results("get_saved_locations")[0]["data"]["locations"][0]
    assert "lat" not in location and "latitude" not in location
    assert calls[1][1] == {"query": "indiranagar", "addressId": location["id"]}
    found = chat.results("search_restaurants_dineout")[0]["data"]
    where = {"latitude": found["latitude"], "longitude": found["longitude"]}

    calls = chat.say("the first one")
    assert names(calls) == ["get_available_slots"]
    assert {key: calls[0][1][key] for key in where} == where
    slots = chat.results("get_available_slots")[0]["data"]["slots"]
    slot = next(s for s in slots if s["dateStr"] == TOMORROW and s["availableInventory"] > 0)
    chat.say(f"book the {slot['displayTime'].lower()} slot")
    asked = chat.asked().input["arguments"]
    assert {key: asked[key] for key in where} == where
    assert names(chat.confirm(bridge)) == []
    (booking,) = chat.shop.dineout.bookings("no-address")
    assert booking["orderId"] in chat.text() and "Booked" in chat.text()


def test_an_unclear_request_gets_examples(
    client: anthropic.Anthropic, sandbox: SandboxHttpServer
) -> None:
    chat = Chat(client, sandbox, "dining", "unclear")
    assert chat.say("hello there") == []
    assert "book a table for 4 tomorrow at 8 pm near Indiranagar" in chat.text()


def test_without_an_address_the_planner_reads_the_saved_ones_first(
    client: anthropic.Anthropic, sandbox: SandboxHttpServer
) -> None:
    chat = Chat(client, sandbox, "foodorder", "no-address")
    chat.address = None  # type: ignore[assignment]
    calls = chat.say("I want a paneer biryani")
    assert names(calls) == ["get_addresses", "search_restaurants"]
    home = chat.results("get_addresses")[0]["data"]["addresses"][0]
    assert home["addressTag"] == "Home" and calls[1][1]["addressId"] == home["id"]


def test_saved_addresses_are_listed_on_request(
    client: anthropic.Anthropic, sandbox: SandboxHttpServer
) -> None:
    chat = Chat(client, sandbox, "food", "addresses")
    assert names(chat.say("show my saved addresses")) == ["get_addresses"]
    assert "1. Home — " in chat.text() and "Use this address" in chat.text()
    dining = Chat(client, sandbox, "dining", "locations")
    assert names(dining.say("show my saved locations")) == ["get_saved_locations"]
