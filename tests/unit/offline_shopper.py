"""A person chatting with the offline planner, in process: no HTTP, the real sandbox tools.

Each message is sent the way the app sends it (the app's own request builder, the turn
context lifted out as the emulator does), and every tool the planner calls runs on the
sandbox servers over one in-memory shop, so a search finds what the real demo would find.
"""

from __future__ import annotations

import asyncio
import json
from datetime import datetime
from typing import Any

from swiggy_core.actions import CardAction, action_message, typed_message
from swiggy_core.constants import APPROVAL_TOOL_NAME, MCP_SERVERS, SWIGGY_TZ
from swiggy_core.engine.setup import TurnSetup, build_turn_params
from swiggy_core.models import ChatMessage
from swiggy_sandbox.catalog.wire import address_wire
from swiggy_sandbox.connector import CallClientTool, CallTool, Finish, Say, Step, TurnContext
from swiggy_sandbox.connector.accounting import lift_turn_context
from swiggy_sandbox.planner import PlannerBrain
from swiggy_sandbox.servers.envelope import SandboxServer
from swiggy_sandbox.servers.registry import build_server
from swiggy_sandbox.shop import Shop

# A Friday lunchtime: restaurants are open, "tomorrow" is Saturday 21 November.
NOW = datetime(2026, 11, 20, 13, 0, tzinfo=SWIGGY_TZ)
SERVER_OF = {"food": "instamart", "style": "instamart", "foodorder": "food", "dining": "dineout"}
_MAX_STEPS = 12
# Building a server costs far more than a turn: one per shop and server, shared by people.
_SERVERS: dict[tuple[int, str], SandboxServer] = {}


class Shopper:
    """One person in one shop; `say` and `press` return the reply's tool calls."""

    def __init__(self, shop: Shop, vertical_id: str, user: str) -> None:
        key = SERVER_OF[vertical_id]
        self.vertical_id, self.user = vertical_id, user
        self.server_name = MCP_SERVERS[key].name
        self.server = _SERVERS.get((id(shop), key)) or build_server(key, shop, default_user=user)
        _SERVERS[(id(shop), key)] = self.server
        self.address = address_wire(shop.saved_addresses(user)[0])
        self.history: list[ChatMessage] = []
        self.calls: list[tuple[str, dict[str, Any], dict[str, Any]]] = []
        self.last: Step | None = None
        tools = asyncio.run(self.server.list_tools())
        self._tools = [{"name": tool.name, "input_schema": {"type": "object"}} for tool in tools]

    def say(self, text: str) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
        """Type a message; returns (tool, input, envelope) for each call of the reply."""
        return self._send(typed_message(text))

    def press(self, kind: str, label: str, ids: dict[str, Any]) -> list[Any]:
        """Press a card button."""
        return self._send(action_message(CardAction(kind=kind, label=label, ids=ids)))

    def text(self) -> str:
        """The reply's closing words (or the words before the approval it asks for)."""
        if isinstance(self.last, Finish | Say):
            return self.last.text
        if isinstance(self.last, CallClientTool):
            return self.last.say_before
        return ""

    def results(self, tool: str) -> list[dict[str, Any]]:
        """The `data` of each successful call of `tool` in the latest reply."""
        return [out.get("data") or {} for name, _in, out in self.calls if name == tool]

    def _send(self, message: ChatMessage) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
        self.history.append(message)
        setup = TurnSetup(
            vertical_id=self.vertical_id, model="claude-sonnet-4-5", address=self.address
        )
        params = build_turn_params(setup, self.history, now=NOW)
        messages, context = lift_turn_context(params["messages"])
        system = "\n\n".join([block["text"] for block in params["system"]] + [context])
        ctx = TurnContext(
            system=system,
            messages=messages,
            tools={self.server_name: self._tools},
            disabled_tools={self.server_name: frozenset()},
            client_tools=[{"name": APPROVAL_TOOL_NAME, "input_schema": {"type": "object"}}],
        )
        self.calls = []
        brain = PlannerBrain()
        for index in range(_MAX_STEPS):
            step = brain.next_step(ctx)
            if not isinstance(step, CallTool):
                self.last = step
                break
            self._run(ctx, step, f"m{len(self.history)}_{index}")
        blocks = ctx.blocks + ([{"type": "text", "text": self.text()}] if self.text() else [])
        self.history.append(ChatMessage.model_validate({"role": "assistant", "content": blocks}))
        return self.calls

    def _run(self, ctx: TurnContext, step: CallTool, use_id: str) -> None:
        if step.say_before:
            ctx.blocks.append({"type": "text", "text": step.say_before})
        self.server.default_user = self.user  # the stdio way of saying who calls
        result = asyncio.run(self.server.call_tool(step.name, dict(step.input)))
        text = "".join(getattr(part, "text", "") for part in result.content)
        ctx.blocks += [
            {
                "type": "mcp_tool_use",
                "id": use_id,
                "name": step.name,
                "server_name": step.server_name,
                "input": dict(step.input),
            },
            {
                "type": "mcp_tool_result",
                "tool_use_id": use_id,
                "is_error": bool(result.is_error),
                "content": [{"type": "text", "text": text}],
            },
        ]
        self.calls.append((step.name, dict(step.input), json.loads(text)))
