"""The planner asks the person to approve spending; only the app (simulated here) spends.

Real SDK, real emulator with the planner, real sandbox MCP servers. Each request offers
the `request_confirmation` client tool beside the vertical's toolset. The planner's call
of it ends the turn with `tool_use`; this test then plays the app: it runs the spending
tool itself through its own MCP client and answers the tool_use with the outcome.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import anthropic
import pytest
from test_planner_flows import APPROVAL_TOOL, bridge, client, sandbox

from swiggy_core.constants import APPROVAL_TOOL_NAME, DEFAULT_MODEL, MCP_SERVERS, SWIGGY_TZ
from swiggy_core.engine import TurnSetup, build_turn_params
from swiggy_core.models import ChatMessage
from swiggy_sandbox.catalog.wire import address_wire
from swiggy_sandbox.connector import McpBridge
from swiggy_sandbox.connector.toolsets import ServerSpec
from swiggy_sandbox.servers import SandboxHttpServer

__all__ = ["bridge", "client", "sandbox"]  # the main flows' fixtures, shared

# A Friday lunchtime: restaurants are open and "tomorrow" is a Saturday in the slot window.
NOW = datetime(2026, 11, 20, 13, 0, tzinfo=SWIGGY_TZ)
TOMORROW = "2026-11-21"
LABEL = "Offline demo"
# vertical id → (server key, spending tool, the read tool that lists what was spent)
VERTICALS = {
    "food": ("instamart", "checkout", "get_orders"),
    "foodorder": ("food", "place_food_order", "get_food_orders"),
    "dining": ("dineout", "book_table", ""),  # Dineout documents no list of bookings
}


class Chat:
    """One conversation, sent as the app sends it, plus the app's side of an approval."""

    def __init__(
        self,
        client: anthropic.Anthropic,
        sandbox: SandboxHttpServer,
        bridge: McpBridge,
        vertical: str,
        user: str,
        *,
        enable_spending: bool = False,
    ) -> None:
        self.client, self.bridge = client, bridge
        key, self.spender, self.reader = VERTICALS[vertical]
        token = sandbox.store.issue(user)
        shop = sandbox.app.state.shop
        self.shop, self.user = shop, user
        self.address = address_wire(shop.saved_addresses(user)[0])
        self.server = ServerSpec(MCP_SERVERS[key].name, sandbox.url_for(key), token)
        setup = TurnSetup(
            vertical_id=vertical,
            model=DEFAULT_MODEL,
            swiggy_token=token,
            server_urls={key: sandbox.url_for(key)},
            address=self.address,
        )
        # The app's request; messages are this test's own, each newest one closed by the
        # app's turn context (the clock and the session summary) as the app sends it.
        params = build_turn_params(setup, [ChatMessage(role="user", content="hi")], now=NOW)
        self.context = params.pop("messages")[-1]["content"][-1]
        # The app's toolset (spending tools switched off), then this test's approval tool.
        (toolset,) = [tool for tool in params["tools"] if tool.get("type") == "mcp_toolset"]
        assert toolset["configs"][self.spender] == {"enabled": False}
        if enable_spending:  # a request that (wrongly) switches the spending tool on
            toolset["configs"][self.spender] = {"enabled": True}
        params["tools"] = [toolset, APPROVAL_TOOL]
        self.params = params
        self.messages: list[dict[str, Any]] = []
        self.replies: list[Any] = []
        self.typed: list[str] = []

    @property
    def last(self) -> Any:
        return self.replies[-1]

    def say(self, text: str) -> list[tuple[str, dict[str, Any]]]:
        """Type a message; returns the MCP tool calls of the reply."""
        self.typed.append(text)
        return self._send(text)

    def answer(
        self, approval: str, *, result: Any = None, message: str = "", then: str = ""
    ) -> None:
        """The app answers the pending request_confirmation (and maybe sends new words)."""
        answer: dict[str, Any] = {"approval": approval, "tool": self.spender, "message": message}
        if result is not None:
            answer["result"] = result
        content: list[dict[str, Any]] = [
            {"type": "tool_result", "tool_use_id": self.asked().id, "content": json.dumps(answer)}
        ]
        if then:
            content.append({"type": "text", "text": then})
        self._send(content)

    def asked(self) -> Any:
        """The request_confirmation call that ended the latest reply."""
        assert self.last.stop_reason == "tool_use", self.text()
        (use,) = [block for block in self.last.content if block.type == "tool_use"]
        assert use.name == APPROVAL_TOOL_NAME
        return use

    def spend(self) -> dict[str, Any]:
        """Play the app after Confirm: run the asked-for call once, return its envelope."""
        request = self.asked().input
        assert request["tool"] == self.spender
        outcome = self.bridge.call_tool(self.server, self.spender, dict(request["arguments"]))
        payload: dict[str, Any] = json.loads(outcome.text)
        return payload

    def spent(self) -> list[dict[str, Any]]:
        """Orders or bookings the shop holds for this person, read through its MCP server.

        Dineout's get_booking_status needs an orderId, so bookings are read from the shop.
        """
        if not self.reader:
            return list(self.shop.dineout.bookings(self.user))
        # get_food_orders requires the address; Instamart's get_orders takes none.
        args = {"addressId": self.address["id"]} if self.reader == "get_food_orders" else {}
        data = json.loads(self.bridge.call_tool(self.server, self.reader, args).text)["data"]
        return list(data.get("orders", data.get("bookings", [])))

    def text(self) -> str:
        return "".join(block.text for block in self.last.content if block.type == "text")

    def results(self, name: str) -> list[dict[str, Any]]:
        """Payloads of the latest reply's results of MCP tool `name`."""
        names = {b.id: b.name for b in self.last.content if b.type == "mcp_tool_use"}
        return [
            json.loads(b.content[0].text)
            for b in self.last.content
            if b.type == "mcp_tool_result" and names[b.tool_use_id] == name
        ]

    def every_call(self) -> list[str]:
        """Every MCP tool the model ran in this conversation."""
        return [b.name for reply in self.replies for b in reply.content if b.type == "mcp_tool_use"]

    def _send(self, content: str | list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
        self.messages.append({"role": "user", "content": content})
        said = [{"type": "text", "text": content}] if isinstance(content, str) else content
        sent = [*self.messages[:-1], {"role": "user", "content": [*said, self.context]}]
        with self.client.beta.messages.stream(messages=sent, **self.params) as stream:
            reply = stream.get_final_message()
        self.replies.append(reply)
        blocks = [block.model_dump(mode="json", exclude_none=True) for block in reply.content]
        self.messages.append({"role": "assistant", "content": blocks})
        assert LABEL not in self.text(), "the page's badge says it, not each reply"
        assert self.spender not in [b.name for b in reply.content if b.type == "mcp_tool_use"]
        return [(b.name, b.input) for b in reply.content if b.type == "mcp_tool_use"]


def names(calls: list[tuple[str, dict[str, Any]]]) -> list[str]:
    return [name for name, _ in calls]


def shop_to_checkout(chat: Chat) -> dict[str, Any]:
    """NutriCart: search, add, then ask to place the order; the exact checkout arguments."""
    chat.say("find high-protein snacks under 200")
    assert names(chat.say("add 2 of the first one")) == ["get_cart", "update_cart"]
    assert names(chat.say("place the order")) == ["get_cart"]
    assert "cannot be cancelled" in chat.text() and "Confirm" in chat.text()
    return {"addressId": chat.address["id"], "paymentMethod": "COD"}


def order_food(chat: Chat) -> dict[str, Any]:
    """FeedMe: craving, restaurant, dish, then ask to place the order."""
    chat.say("I want a paneer biryani")
    chat.say("order from the second restaurant")
    assert names(chat.say("add the paneer biryani")) == ["get_food_cart", "update_food_cart"]
    assert names(chat.say("place the order")) == ["get_food_cart"]
    assert "cannot be cancelled" in chat.text() and "Confirm" in chat.text()
    return {"addressId": chat.address["id"], "paymentMethod": "Cash"}


def pick_a_table(chat: Chat) -> dict[str, Any]:
    """TableScout: search, venue, availability, then ask to book a free evening slot."""
    chat.say("book a table for 4 tomorrow at 8 pm near Indiranagar")
    venue = chat.results("search_restaurants_dineout")[0]["data"]["restaurants"][0]
    assert names(chat.say("the first one")) == ["get_available_slots"]
    slots = chat.results("get_available_slots")[0]["data"]["slots"]
    # Tests share the venue: take 8 pm, else the nearest evening slot still free.
    free = [s for s in slots if s["dateStr"] == TOMORROW and s["availableInventory"] > 0]
    eight_pm = datetime.fromisoformat(f"{TOMORROW}T20:00:00+05:30").timestamp()
    slot = min(free, key=lambda s: abs(s["reservationTime"] - eight_pm))
    deal = next(d for d in slot["deals"] if d["isFree"] and d["bookingPrice"] == 0)
    assert names(chat.say(f"book the {slot['displayTime'].lower()} slot")) == []
    assert "for 4" in chat.text() and "Confirm" in chat.text()
    return {
        "restaurantId": venue["id"],
        "slotId": slot["slotId"],
        "itemId": deal["itemId"],
        "reservationTime": slot["reservationTime"],
        "guestCount": 4,
        "latitude": chat.address["lat"],
        "longitude": chat.address["lng"],
    }


FLOWS = {"food": shop_to_checkout, "foodorder": order_food, "dining": pick_a_table}
DONE_ID = {"checkout": "orderId", "place_food_order": "orderId", "book_table": "orderId"}


@pytest.mark.parametrize("vertical", list(VERTICALS))
def test_the_planner_asks_and_only_the_app_spends(
    client: anthropic.Anthropic, sandbox: SandboxHttpServer, bridge: McpBridge, vertical: str
) -> None:
    chat = Chat(client, sandbox, bridge, vertical, f"confirm-{vertical}")
    before = chat.spent()
    arguments = FLOWS[vertical](chat)

    use = chat.asked()
    assert use.input == {"tool": chat.spender, "arguments": arguments}
    assert chat.spent() == before, "asking spends nothing"

    result = chat.spend()  # the person pressed Confirm; the app runs the call once
    assert result["success"] is True, result
    chat.answer("confirmed", result=result, message="Done.")
    assert chat.last.stop_reason == "end_turn"
    assert chat.results(chat.spender) == [] and chat.every_call().count(chat.spender) == 0
    key = DONE_ID[chat.spender]
    assert result["data"][key] in chat.text()
    after = chat.spent()
    assert len(after) == len(before) + 1, "exactly the app's one call"
    assert result["data"][key] in [entry[key] for entry in after]


@pytest.mark.parametrize("vertical", list(VERTICALS))
def test_a_declined_request_spends_nothing(
    client: anthropic.Anthropic, sandbox: SandboxHttpServer, bridge: McpBridge, vertical: str
) -> None:
    chat = Chat(client, sandbox, bridge, vertical, f"decline-{vertical}")
    FLOWS[vertical](chat)
    chat.answer("declined", message="The person pressed Cancel.")
    assert chat.last.stop_reason == "end_turn"
    assert "won't" in chat.text()
    assert chat.spent() == []


@pytest.mark.parametrize("vertical", list(VERTICALS))
def test_a_wrongly_enabled_spending_tool_is_never_called(
    client: anthropic.Anthropic, sandbox: SandboxHttpServer, bridge: McpBridge, vertical: str
) -> None:
    chat = Chat(client, sandbox, bridge, vertical, f"enabled-{vertical}", enable_spending=True)
    arguments = FLOWS[vertical](chat)
    assert chat.asked().input == {"tool": chat.spender, "arguments": arguments}
    chat.answer("superseded", message="The person wrote instead.", then="yes")
    assert "Confirm button" in chat.text()
    assert chat.every_call().count(chat.spender) == 0
    assert chat.spent() == []


def test_a_failed_spend_is_reported_and_never_claimed(
    client: anthropic.Anthropic, sandbox: SandboxHttpServer, bridge: McpBridge
) -> None:
    chat = Chat(client, sandbox, bridge, "dining", "failed-booking")
    pick_a_table(chat)
    first = chat.spend()
    assert first["success"] is True
    chat.answer("confirmed", result=first)
    assert first["data"]["orderId"] in chat.text() and "Booked" in chat.text()

    # The same slot again: the app runs it, the server refuses, the planner says so.
    assert names(chat.say(chat.typed[-1])) == []
    again = chat.spend()
    assert again["success"] is False, again
    chat.answer("confirmed", result=again)
    # The card shows Swiggy's reason; the reply says it failed and what to do next.
    assert "didn't accept it" in chat.text() and "Booked" not in chat.text()
    assert len(chat.spent()) == 1


def test_superseded_by_new_words_plans_those_words(
    client: anthropic.Anthropic, sandbox: SandboxHttpServer, bridge: McpBridge
) -> None:
    chat = Chat(client, sandbox, bridge, "food", "superseded")
    shop_to_checkout(chat)
    chat.answer("superseded", message="The person wrote instead.", then="show my cart")
    assert chat.last.stop_reason == "end_turn"
    assert [b.name for b in chat.last.content if b.type == "mcp_tool_use"] == ["get_cart"]
    assert "Your cart" in chat.text()
    assert chat.spent() == []


# The app has shown each outcome itself (its card or notice); the answer's message is for
# the model, so the reply never repeats it and says what happens next.
@pytest.mark.parametrize(
    ("approval", "message", "says"),
    [
        ("expired", "This request is more than 10 minutes old.", "expired"),
        ("refused", "Your cart changed after you asked.", "couldn't go ahead"),
        ("failed", "Swiggy did not answer.", "didn't go through"),
        ("unknown", "The connection dropped mid-call.", "can't tell whether the order went"),
    ],
)
def test_other_answers_say_nothing_was_placed(
    client: anthropic.Anthropic,
    sandbox: SandboxHttpServer,
    bridge: McpBridge,
    approval: str,
    message: str,
    says: str,
) -> None:
    chat = Chat(client, sandbox, bridge, "foodorder", f"answer-{approval}")
    order_food(chat)
    chat.answer(approval, message=message)
    assert chat.last.stop_reason == "end_turn"
    assert says in chat.text() and "Done" not in chat.text()
    assert message not in chat.text()
    assert chat.spent() == []


def test_local_engine_asks_too_even_when_checkout_is_offered_as_a_client_tool(
    client: anthropic.Anthropic, sandbox: SandboxHttpServer, bridge: McpBridge
) -> None:
    """The app as the MCP client: it runs the tools the planner asks for, one round each."""
    token = sandbox.store.issue("local-approval")
    server = ServerSpec(MCP_SERVERS["instamart"].name, sandbox.url_for("instamart"), token)
    listed = bridge.list_tools(server)
    tools = [{k: t[k] for k in ("name", "description", "input_schema") if k in t} for t in listed]
    assert "checkout" in [tool["name"] for tool in tools], "(wrongly) offered to the model"
    address = address_wire(sandbox.app.state.shop.saved_addresses("local-approval")[0])
    setup = TurnSetup(vertical_id="food", model=DEFAULT_MODEL, address=address)
    params = build_turn_params(setup, [ChatMessage(role="user", content="hi")], now=NOW)
    params.pop("messages")
    params["tools"] = [*tools, APPROVAL_TOOL]
    messages: list[dict[str, Any]] = []
    executed: list[str] = []

    def turn(content: str | list[dict[str, Any]]) -> Any:
        messages.append({"role": "user", "content": content})
        for _ in range(6):
            final = client.beta.messages.create(messages=messages, **params)
            messages.append({"role": "assistant", "content": final.to_param()["content"]})
            uses = [block for block in final.content if block.type == "tool_use"]
            if final.stop_reason != "tool_use" or uses[0].name == APPROVAL_TOOL_NAME:
                return final
            (use,) = uses
            result = bridge.call_tool(server, use.name, dict(use.input))
            executed.append(use.name)
            answer = {"type": "tool_result", "tool_use_id": use.id, "content": result.content}
            messages.append({"role": "user", "content": [answer]})
        raise AssertionError("the planner never finished")

    turn("find high-protein snacks under 200")
    turn("add 2 of the first one")
    asked = turn("place the order")
    assert asked.stop_reason == "tool_use"
    (use,) = [block for block in asked.content if block.type == "tool_use"]
    arguments = {"addressId": address["id"], "paymentMethod": "COD"}
    assert (use.name, use.input) == (
        APPROVAL_TOOL_NAME,
        {"tool": "checkout", "arguments": arguments},
    )
    assert "checkout" not in executed
    orders = json.loads(bridge.call_tool(server, "get_orders", {}).text)["data"]["orders"]
    assert orders == []

    result = json.loads(bridge.call_tool(server, "checkout", arguments).text)
    answer = {"approval": "confirmed", "tool": "checkout", "message": "", "result": result}
    reply = turn([{"type": "tool_result", "tool_use_id": use.id, "content": json.dumps(answer)}])
    assert reply.stop_reason == "end_turn"
    text = "".join(block.text for block in reply.content if block.type == "text")
    assert result["data"]["orderId"] in text and LABEL not in text
    assert "checkout" not in executed
