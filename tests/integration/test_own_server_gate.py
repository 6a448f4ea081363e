"""A person's own MCP server: only tools annotated `readOnlyHint: true` run without asking.

Every other tool (and one named like a spender, whatever its annotation) is never offered
directly: the model asks through the approval tool, the person sees that exact call, and
Confirm runs it once through the same ledger. The server is a real MCP server over
Streamable HTTP on loopback (allowed here by the operator switch: a person's server may not
use loopback otherwise); the model is the emulator's scripted brain through the real SDK.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from asgi_thread import AsgiThread
from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations
from session_peers import Shop, finish, new_session

from swiggy_core.actions import typed_message
from swiggy_core.constants import ALLOW_PRIVATE_SERVERS_ENV, APPROVAL_TOOL_NAME
from swiggy_core.errors import ActionRefused, ErrorCode
from swiggy_core.mcp.config import ResolvedServer, ServerConfig
from swiggy_core.store import ChatStore
from swiggy_core.turn.session import ChatSession
from swiggy_sandbox.connector import CallClientTool, Finish, TurnContext

READ_ONLY = ToolAnnotations(readOnlyHint=True)


class Notes:
    """A notes server with a read-only tool, two that change things and a spender-like
    tool that claims to be read-only; it records every call it receives."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []
        mcp = MCPServer("notes")

        @mcp.tool(annotations=READ_ONLY)
        def list_notes() -> str:
            """List the notes."""
            self.calls.append(("list_notes", {}))
            return "milk, eggs"

        @mcp.tool()
        def add_note(text: str) -> str:
            """Add a note."""
            self.calls.append(("add_note", {"text": text}))
            return f"added: {text}"

        @mcp.tool(annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True))
        def submit_cart(cart: str) -> str:
            """Submit a cart."""
            self.calls.append(("submit_cart", {"cart": cart}))
            return "submitted"

        @mcp.tool(annotations=READ_ONLY)
        def checkout(cart: str) -> str:
            """Says it only reads; named like a spender."""
            self.calls.append(("checkout", {"cart": cart}))
            return "ordered"

        app = mcp.streamable_http_app(streamable_http_path="/mcp")
        self._served = AsgiThread(app, "/mcp")

    @property
    def url(self) -> str:
        return self._served.url

    def __enter__(self) -> Notes:
        self._served.start("the notes server", within_seconds=30)
        return self

    def __exit__(self, *_exc: object) -> None:
        self._served.stop(join_seconds=10)


@pytest.fixture
def notes(monkeypatch: pytest.MonkeyPatch) -> Iterator[Notes]:
    monkeypatch.setenv(ALLOW_PRIVATE_SERVERS_ENV, "true")
    with Notes() as server:
        yield server


def _session(store: ChatStore, shop: Shop, emu: Any, notes: Notes) -> ChatSession:
    session = new_session(store, shop, emu.base_url, engine="local")
    mine = ServerConfig("notes", "http", url=notes.url, origin="user")
    session.setup = replace(session.setup, extra_servers=(ResolvedServer(mine, None),))
    return session


def _echo(ctx: TurnContext) -> Finish:
    last = ctx.messages[-1]["content"]
    texts = [b for b in last if isinstance(b, dict) and b.get("type") == "tool_result"]
    return Finish(f"Answer: {texts[-1]['content'] if texts else ''}")


def test_only_read_only_tools_are_offered_and_the_rest_wait_for_the_person(
    emu, store: ChatStore, shop: Shop, notes: Notes
) -> None:
    session = _session(store, shop, emu, notes)
    emu.brain.enqueue(
        CallClientTool("notes__list_notes", {}),
        CallClientTool("notes__add_note", {"text": "bread"}),  # called directly: refused
        _echo,
    )
    finish(session.send(typed_message("what's on my list? add bread")))

    tools = {tool["name"]: tool for tool in emu.requests[0].body["tools"]}
    assert "notes__list_notes" in tools
    for gated in ("notes__add_note", "notes__submit_cart", "notes__checkout"):
        assert gated not in tools, f"{gated} was offered to run without asking"
    asks = tools[APPROVAL_TOOL_NAME]["input_schema"]["properties"]["tool"]["enum"]
    assert {"notes__add_note", "notes__submit_cart", "notes__checkout"} <= set(asks)
    assert all("annotations" not in tool for tool in tools.values())
    assert notes.calls == [("list_notes", {})], "a gated tool reached the server"
    assert session.pending_approval() is None


def test_a_gated_call_runs_once_after_the_person_confirms_that_exact_call(
    emu, store: ChatStore, shop: Shop, notes: Notes
) -> None:
    session = _session(store, shop, emu, notes)
    ask = {"tool": "notes__submit_cart", "arguments": {"cart": "milk x2"}}
    emu.brain.enqueue(CallClientTool(APPROVAL_TOOL_NAME, ask, say_before="Shall I submit it?"))
    finish(session.send(typed_message("submit my cart")))

    approval = session.pending_approval()
    assert approval is not None and notes.calls == []
    assert approval.tool == "notes__submit_cart" and approval.server_key == "notes"
    assert approval.view["kind"] == "action"
    assert '"cart": "milk x2"' in approval.view["arguments_text"]

    emu.brain.enqueue(_echo)
    finish(session.confirm(approval.id))
    assert notes.calls == [("submit_cart", {"cart": "milk x2"})]
    record = store.get_approval(approval.id)
    assert record is not None and record.status == "done"
    with pytest.raises(ActionRefused) as again:
        session.confirm(approval.id)
    assert again.value.code is ErrorCode.APPROVAL_NOT_PENDING
    assert notes.calls == [("submit_cart", {"cart": "milk x2"})], "run twice"
    spends = [d for a, d in store.audit_entries(session.user_id) if a == "spend_call"]
    assert [(d["tool"], d["outcome"]) for d in spends] == [("notes__submit_cart", "done")]


def test_cancel_runs_nothing(emu, store: ChatStore, shop: Shop, notes: Notes) -> None:
    session = _session(store, shop, emu, notes)
    ask = {"tool": "notes__checkout", "arguments": {"cart": "all"}}
    emu.brain.enqueue(CallClientTool(APPROVAL_TOOL_NAME, ask))
    finish(session.send(typed_message("check out")))
    approval = session.pending_approval()
    assert approval is not None
    emu.brain.enqueue(Finish("Cancelled."))
    finish(session.decline(approval.id))
    assert notes.calls == []
