"""Hooks and the audit of every tool call, end to end with real peers.

The emulator is the model (through the real anthropic SDK), the sandbox MCP servers are
Swiggy over HTTP, the store is SQLite on disk. A refused call reaches the model as the
tool's error and never reaches the server; every call of a whole order, in both engines,
is in the audit without a credential; an extra server's tools are offered under prefixed
names and routed back to that server, and a server that is down is left out.
"""

from __future__ import annotations

import json
import socket
import uuid
from dataclasses import replace
from typing import Any

import pytest
from session_peers import (
    ADDRESS,
    Shop,
    ask_checkout,
    echo,
    finish,
    free_table,
    last_tool_result_text,
    new_session,
    tool_call,
)
from sqlalchemy import text

from swiggy_core.actions import typed_message
from swiggy_core.constants import ALLOW_PRIVATE_SERVERS_ENV
from swiggy_core.engine import HELD_MESSAGE
from swiggy_core.hooks import Denial, ToolCallInfo, ToolHooks
from swiggy_core.hooks.rules import SLOT_NEEDED, audit_to, default_hooks
from swiggy_core.mcp import McpManager
from swiggy_core.mcp.budget import RateBudget
from swiggy_core.mcp.config import ResolvedServer, ServerConfig
from swiggy_core.models import McpToolUseBlock
from swiggy_core.shared_state import MemoryState
from swiggy_core.store import ChatStore
from swiggy_core.turn.session import ChatSession
from swiggy_sandbox.connector import CallClientTool, Finish, TurnContext

ENGINES = ["connector", "local"]
API_KEY = "sk-ant-test"  # what session_peers' client sends
REFUSAL = "Searching is paused for this account."
BOOK_TABLE_SLOT_NEEDED = SLOT_NEEDED.format(tool="book_table", slots="get_available_slots")


class CountingManager(McpManager):
    """The app's real MCP client, counting the calls that reach a server."""

    def __init__(self) -> None:
        super().__init__(call_timeout=20)
        self.called: list[str] = []

    def call_tool(self, server: Any, token: Any, name: str, arguments: Any, **kw: Any) -> Any:
        self.called.append(name)
        return super().call_tool(server, token, name, arguments, **kw)


def person() -> str:
    return f"u-{uuid.uuid4().hex[:10]}@sandbox"


@pytest.fixture
def session(engine: str, emu, store: ChatStore, shop: Shop) -> ChatSession:
    """A new person's chat (the audit holds only this test's calls) on the test's engine."""
    return new_session(store, shop, emu.base_url, engine=engine, user_id=person())


def with_hooks(session: ChatSession, hooks: ToolHooks) -> ChatSession:
    session.setup = replace(session.setup, hooks=hooks)
    return session


def seen_results(seen: list[str], then: Any) -> Any:
    """A model step that keeps the tool result it was shown, then takes `then`."""

    def step(ctx: TurnContext) -> Any:
        seen.append(last_tool_result_text(ctx))
        return then

    return step


def last_result_block(ctx_request: Any) -> dict[str, Any]:
    for message in reversed(ctx_request.body["messages"]):
        if message["role"] == "user" and isinstance(message["content"], list):
            for block in message["content"]:
                if block.get("type") == "tool_result":
                    return dict(block)
    raise AssertionError("no tool_result was sent")


def raw_rows(store: ChatStore) -> str:
    with store.engine.connect() as conn:
        rows = conn.execute(text("SELECT * FROM tool_calls")).all()
    return "\n".join(repr(tuple(row)) for row in rows)


def test_a_deny_hook_reaches_the_model_as_a_tool_error_and_never_the_server(
    emu, store: ChatStore, shop: Shop
) -> None:
    def no_search(info: ToolCallInfo) -> Denial | None:
        return Denial(REFUSAL) if info.tool == "search_products" else None

    user = person()
    manager = CountingManager()
    try:
        session = new_session(store, shop, emu.base_url, engine="local", user_id=user)
        session.manager = manager
        hooks = ToolHooks(pre=(no_search,), post=(audit_to(store.record_tool_call),))
        with_hooks(session, hooks)
        emu.brain.enqueue(
            CallClientTool("search_products", {"addressId": ADDRESS, "query": "milk"}),
            CallClientTool("get_cart", {}),
            echo,
        )
        finish(session.send(typed_message("find milk")))
    finally:
        manager.close()

    refused = last_result_block(emu.requests[1])
    assert refused["is_error"] is True
    assert json.loads(refused["content"][0]["text"])["instructions"] == REFUSAL
    assert manager.called == ["get_cart"], "the refused call never reached the server"
    # The turn went on: the next call ran and the model answered.
    assert session.history()[-1].text().startswith("Answer: ")
    newest, oldest = store.tool_calls(user)
    assert (oldest.tool, oldest.outcome, oldest.error_code) == (
        "search_products",
        "denied",
        "E-3207",
    )
    assert (newest.tool, newest.outcome, newest.error_code) == ("get_cart", "ok", None)
    assert oldest.conversation_id == session.conversation_id and oldest.world == "sandbox"


def test_book_table_without_a_listed_slot_is_refused_with_the_reason(
    emu, store: ChatStore, shop: Shop
) -> None:
    """The default hooks: a made-up slot is refused; a listed one meets the approval gate."""
    ask, book = free_table(shop)
    user = person()
    session = new_session(
        store, shop, emu.base_url, engine="local", vertical_id="dining", user_id=user
    )
    seen: list[str] = []
    made_up = {**book, "slotId": "slot-from-nowhere"}
    emu.brain.enqueue(
        CallClientTool("book_table", made_up),
        seen_results(seen, CallClientTool("get_available_slots", ask)),
        CallClientTool("book_table", book),
        seen_results(seen, Finish("Shall I ask you to confirm?")),
    )
    finish(session.send(typed_message("book a table for two tomorrow")))

    refused, held = (json.loads(text)["instructions"] for text in seen)
    assert refused.startswith(BOOK_TABLE_SLOT_NEEDED)
    assert held == HELD_MESSAGE.format(tool="book_table")
    assert shop.bookings() == [], "nothing was booked"
    calls = [(e.tool, e.outcome, e.error_code) for e in reversed(store.tool_calls(user))]
    assert calls == [
        ("book_table", "denied", "E-3207"),
        ("get_available_slots", "ok", None),
        ("book_table", "denied", "E-3207"),
    ]


def test_the_rate_budget_refuses_a_call_over_it_with_its_code(
    emu, store: ChatStore, shop: Shop
) -> None:
    user = person()
    session = new_session(store, shop, emu.base_url, engine="local", user_id=user)
    budget = RateBudget(MemoryState(), calls_per_minute=1)
    with_hooks(session, default_hooks(store.record_tool_call, budget=budget))
    seen: list[str] = []
    emu.brain.enqueue(
        CallClientTool("get_cart", {}),
        CallClientTool("get_cart", {}),
        seen_results(seen, Finish("Later then.")),
    )
    finish(session.send(typed_message("what is in my cart?")))
    said = json.loads(seen[0])["instructions"]
    assert said.startswith("Slow down: 1 calls a minute to swiggy-instamart")
    outcomes = [(e.outcome, e.error_code) for e in reversed(store.tool_calls(user))]
    assert outcomes == [("ok", None), ("denied", "E-3208")]


@pytest.mark.parametrize("engine", ENGINES)
def test_every_call_of_a_whole_order_is_audited_without_a_secret(
    engine, emu, store: ChatStore, shop: Shop, session: ChatSession
) -> None:
    user = session.user_id
    line = shop.milk_line(quantity=2)
    # The model even puts the token into an argument: it must not reach the table.
    search = {"addressId": ADDRESS, "query": f"milk {shop.token}"}
    emu.brain.enqueue(
        tool_call(engine, "search_products", search),
        tool_call(engine, "update_cart", {"selectedAddressId": ADDRESS, "items": [line]}),
        tool_call(engine, "get_cart", {}),
        Finish("Two packs of milk are in your cart."),
    )
    finish(session.send(typed_message("add two packs of milk")))
    emu.brain.enqueue(ask_checkout())
    finish(session.send(typed_message("place the order")))
    approval = session.pending_approval()
    assert approval is not None
    emu.brain.enqueue(echo)
    finish(session.confirm(approval.id))
    assert store.get_approval(approval.id).status == "done"  # type: ignore[union-attr]

    entries = list(reversed(store.tool_calls(user)))
    model_calls = [(e.server, e.tool, e.outcome) for e in entries[:3]]
    assert model_calls == [
        ("instamart", "search_products", "ok"),
        ("instamart", "update_cart", "ok"),
        ("instamart", "get_cart", "ok"),
    ]
    # The app's own calls around the approval: the reads and the one spending call.
    app_tools = [e.tool for e in entries[3:]]
    assert app_tools.count("checkout") == 1 and "get_cart" in app_tools
    assert all(e.outcome == "ok" for e in entries)
    assert {e.conversation_id for e in entries} == {session.conversation_id}
    assert {(e.vertical_id, e.world) for e in entries} == {("food", "sandbox")}
    assert all(e.duration_ms > 0 for e in entries)
    assert entries[0].arguments["query"].startswith("milk ")
    stored = raw_rows(store)
    assert shop.token not in stored and API_KEY not in stored


def echo_any(ctx: TurnContext) -> Finish:
    """The last tool result the model saw, in either engine."""
    if ctx.outcomes:  # the connector ran it within this turn
        return Finish("Answer: " + ctx.outcomes[-1].text)
    return Finish("Answer: " + last_tool_result_text(ctx))


def _dead_url() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}/mcp"


def test_an_extra_servers_prefixed_tool_is_called_through_the_local_engine(
    emu, store: ChatStore, shop: Shop, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ALLOW_PRIVATE_SERVERS_ENV, "true")  # the person's servers are on loopback
    user = person()
    tables = ServerConfig("tables", "http", url=shop.sandbox.url_for("dineout"), origin="user")
    gone = ServerConfig("gone", "http", url=_dead_url(), origin="user")
    session = new_session(store, shop, emu.base_url, engine="local", user_id=user)
    extra = (ResolvedServer(tables, shop.token), ResolvedServer(gone, None))
    session.setup = replace(session.setup, extra_servers=extra)
    emu.brain.enqueue(
        CallClientTool("tables__get_saved_locations", {}),
        CallClientTool("tables__book_table", {"restaurantId": "1"}),
        echo,
    )
    finish(session.send(typed_message("where can I eat?")))

    offered = [tool["name"] for tool in emu.requests[0].body["tools"]]
    assert "tables__get_saved_locations" in offered and "search_products" in offered
    assert not [name for name in offered if name.startswith("gone__")], "a down server is left out"
    assert "tables__book_table" not in offered, "an extra server's spender is never offered"
    assert all(len(name) <= 64 for name in offered)
    locations = last_result_block(emu.requests[1])
    assert locations["is_error"] is False and "locations" in locations["content"][0]["text"]

    reply = session.history()[-1]
    uses = [b for b in reply.blocks() if isinstance(b, McpToolUseBlock)]
    assert [(u.name, u.server_name) for u in uses] == [
        ("tables__get_saved_locations", "tables"),
        ("tables__book_table", "tables"),
    ]
    calls = [(e.server, e.tool, e.outcome, e.error_code) for e in reversed(store.tool_calls(user))]
    assert calls[0][:3] == ("gone", "tools/list", "error") and calls[0][3] in ("E-3202", "E-3203")
    assert calls[1:] == [
        ("tables", "get_saved_locations", "ok", None),
        ("tables", "book_table", "denied", "E-3207"),
    ]
    assert shop.bookings() == []


@pytest.mark.parametrize("engine", ENGINES)
def test_a_failed_call_is_audited_as_an_error_with_its_code(
    engine, emu, store: ChatStore, shop: Shop, session: ChatSession
) -> None:
    user = session.user_id
    # No query: the server refuses the call and the model reads why.
    emu.brain.enqueue(tool_call(engine, "search_products", {"addressId": ADDRESS}), echo_any)
    finish(session.send(typed_message("find milk")))
    assert session.history()[-1].text().startswith("Answer: ")
    (entry,) = store.tool_calls(user)
    assert (entry.tool, entry.outcome) == ("search_products", "error")
    assert entry.error_code is not None and entry.error_code.startswith("E-3")
    assert store.tool_calls(user, outcome="error") == [entry]
