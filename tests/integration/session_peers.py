"""Real peers for ChatSession tests: sandbox MCP servers over HTTP, the emulator through the
real SDK, SQLite on disk. Imported by module name (tests/integration is on sys.path)."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from swiggy_core.actions import typed_message
from swiggy_core.constants import APPROVAL_TOOL_NAME, MCP_SERVERS, SWIGGY_TZ
from swiggy_core.engine import TurnSetup, make_client
from swiggy_core.mcp import McpManager
from swiggy_core.parsers import AddressItem
from swiggy_core.store import ApprovalRecord, ChatStore
from swiggy_core.turn.handle import TurnHandle
from swiggy_core.turn.session import ChatSession
from swiggy_sandbox.connector import CallClientTool, CallTool, Finish, TurnContext
from swiggy_sandbox.emulator import EmulatorServer
from swiggy_sandbox.servers import SandboxHttpServer

NOW = datetime(2026, 11, 20, 13, 0, tzinfo=SWIGGY_TZ)
ADDRESS = "addr_home_indiranagar"
HOME = AddressItem(address_id=ADDRESS, label="Home", address="12th Main, Indiranagar")
MODEL = "claude-haiku-4-5"
WAIT = 90.0
INSTAMART = MCP_SERVERS["instamart"].name


@dataclass
class Shop:
    """One sandbox account: its token and direct (app-side) MCP access for counting."""

    sandbox: SandboxHttpServer
    manager: McpManager
    token: str
    user: str = ""

    def call(self, server_key: str, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        output = self.manager.call_tool(
            self.sandbox.url_for(server_key), self.token, tool, arguments
        )
        return dict(json.loads(output.envelope_text()))  # also in the summary form

    def orders(self) -> int:
        return len(self.call("instamart", "get_orders", {})["data"]["orders"])

    def food_orders(self) -> int:
        found = self.call("food", "get_food_orders", {"addressId": ADDRESS})
        return len(found["data"]["orders"])

    def bookings(self) -> list[dict[str, Any]]:
        """The account's table bookings, read in the shop: Dineout documents no list of
        bookings (get_booking_status needs an orderId)."""
        return self.sandbox.app.state.shop.dineout.bookings(self.user)

    def milk_line(self, quantity: int = 1, query: str = "milk") -> dict[str, Any]:
        found = self.call("instamart", "search_products", {"addressId": ADDRESS, "query": query})
        pack = found["data"]["products"][0]["variations"][0]
        return {"spinId": pack["spinId"], "skuId": pack["skuId"], "quantity": quantity}

    def set_cart(self, *lines: dict[str, Any]) -> None:
        args = {"selectedAddressId": ADDRESS, "items": list(lines)}
        assert self.call("instamart", "update_cart", args)["success"]


def new_shop(sandbox: SandboxHttpServer, manager: McpManager) -> Shop:
    user = f"user-{uuid.uuid4().hex[:8]}"
    return Shop(sandbox, manager, sandbox.store.issue(user), user)


def new_session(
    store: ChatStore,
    shop: Shop,
    base_url: str,
    *,
    engine: str,
    vertical_id: str = "food",
    conversation_id: str | None = None,
    address: Any = HOME,
    user_id: str | None = None,
) -> ChatSession:
    setup = TurnSetup(
        vertical_id=vertical_id,
        model=MODEL,
        swiggy_token=shop.token,
        server_urls={key: shop.sandbox.url_for(key) for key in MCP_SERVERS},
        address=address,
        engine=engine,  # type: ignore[arg-type]
        timeout=60,
    )
    return ChatSession(
        store=store,
        user_id=user_id or shop.token[:12],
        vertical_id=vertical_id,
        client=lambda: make_client("sk-ant-test", base_url),
        setup=setup,
        manager=shop.manager,
        conversation_id=conversation_id,
        sleep=lambda _seconds: None,
    )


def finish(handle: TurnHandle) -> list[Any]:
    """Every event of a turn, after it ended."""
    assert handle.wait(WAIT), "the turn did not end"
    return [event for event in handle.events() if getattr(event, "kind", "") != "heartbeat"]


def ask_checkout(arguments: dict[str, Any] | None = None, tool: str = "checkout") -> CallClientTool:
    payload = {"tool": tool, "arguments": arguments or {"addressId": ADDRESS}}
    return CallClientTool(APPROVAL_TOOL_NAME, payload, say_before="Please confirm the order.")


def asked_to_place(
    session: ChatSession, emu: EmulatorServer[Any], ask: CallClientTool | None = None
) -> ApprovalRecord:
    """Send "place the order" while the model asks for an approval (`ask`, a checkout by
    default); the approval left waiting for the person."""
    emu.brain.enqueue(ask or ask_checkout())
    finish(session.send(typed_message("place the order")))
    approval = session.pending_approval()
    assert approval is not None, f"no approval is waiting: {session.history()[-1].text()}"
    return approval


def tool_call(engine: str, name: str, arguments: dict[str, Any]) -> CallTool | CallClientTool:
    """A call of an MCP tool as the model makes it in each engine."""
    if engine == "local":
        return CallClientTool(name, arguments)
    return CallTool(INSTAMART, name, arguments)


def last_tool_result_text(ctx: TurnContext) -> str:
    for message in reversed(ctx.messages):
        content = message["content"]
        if message["role"] == "user" and isinstance(content, list):
            for block in content:
                if block.get("type") == "tool_result":
                    inner = block["content"]
                    return inner if isinstance(inner, str) else inner[0]["text"]
    raise AssertionError("no tool_result was sent")


def echo(ctx: TurnContext) -> Finish:
    return Finish("Answer: " + last_tool_result_text(ctx))


def free_table(shop: Shop) -> tuple[dict[str, Any], dict[str, Any]]:
    """get_available_slots arguments for a venue, and book_table arguments for tomorrow's
    first slot there with a free deal and tables left."""
    location = shop.call("dineout", "get_saved_locations", {})["data"]["locations"][0]
    search = {"query": "indiranagar", "addressId": location["id"]}
    found = shop.call("dineout", "search_restaurants_dineout", search)["data"]
    where = {"latitude": found["latitude"], "longitude": found["longitude"]}
    tomorrow = (NOW + timedelta(days=1)).date().isoformat()
    for venue in found["restaurants"]:
        ask = {"restaurantId": venue["id"], "date": tomorrow, **where}
        for slot in shop.call("dineout", "get_available_slots", ask)["data"]["slots"]:
            free = [d for d in slot["deals"] if d["isFree"] and slot["availableInventory"] > 0]
            if free and slot.get("dateStr", tomorrow) == tomorrow:
                book = {
                    "restaurantId": venue["id"],
                    "slotId": slot["slotId"],
                    "itemId": free[0]["itemId"],
                    "reservationTime": slot["reservationTime"],
                    "guestCount": 2,
                    **where,
                }
                return ask, book
    raise AssertionError("no free table tomorrow")
