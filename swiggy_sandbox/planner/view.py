"""What the planner knows: the system prompt's context and every tool call in the chat."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta, timezone
from typing import Any

from swiggy_core.constants import MCP_SERVERS, SWIGGY_UTC_OFFSET_MINUTES
from swiggy_sandbox.connector import TurnContext

IST = timezone(timedelta(minutes=SWIGGY_UTC_OFFSET_MINUTES))
_ACTION_RE = re.compile(r"<card_action>(.*?)</card_action>", re.S)
_ADDRESS_ID_RE = re.compile(r"addressId[\"']?\s*[:=]\s*[\"']?([\w-]+)")
_LOOSE_ADDRESS_RE = re.compile(r"\b(addr[_-][\w-]+)")
_COORDS_RE = re.compile(r"latitude\s*(-?\d+(?:\.\d+)?),?\s*longitude\s*(-?\d+(?:\.\d+)?)")
_ISO_DATE_RE = re.compile(r"ISO date (\d{4}-\d{2}-\d{2})|today = [^(\n]*\((\d{4}-\d{2}-\d{2})\)")
_USE_TYPES = frozenset({"tool_use", "mcp_tool_use"})
_RESULT_TYPES = frozenset({"tool_result", "mcp_tool_result"})

# Vertical names as the profile prompts spell them, and the server each one uses.
VERTICAL_SERVERS = {
    "NutriCart": MCP_SERVERS["instamart"].name,
    "StyleKit": MCP_SERVERS["instamart"].name,
    "FeedMe": MCP_SERVERS["food"].name,
    "TableScout": MCP_SERVERS["dineout"].name,
}
_DEFAULT_VERTICAL = {server: name for name, server in reversed(VERTICAL_SERVERS.items())}


@dataclass(frozen=True)
class ToolCall:
    """One tool call in the conversation and what came back."""

    name: str
    input: dict[str, Any]
    ok: bool
    data: dict[str, Any]
    error: str
    this_turn: bool
    # Index into ConversationView.user_texts of the message this call answered.
    turn: int = -1


@dataclass
class ConversationView:
    """The turn context digested: vertical, address, dates, the person's words, tool calls."""

    ctx: TurnContext
    vertical: str = ""
    calls: list[ToolCall] = field(default_factory=list)
    user_texts: list[str] = field(default_factory=list)
    actions: list[dict[str, Any] | None] = field(default_factory=list)

    @property
    def text(self) -> str:
        """What the person wrote (or the button's label) this turn, lowercased."""
        return self.user_texts[-1].lower() if self.user_texts else ""

    @property
    def action(self) -> dict[str, Any] | None:
        """The card action sent with this turn's message, if any."""
        return self.actions[-1] if self.actions else None

    @property
    def server(self) -> str:
        """The MCP server of this vertical."""
        return VERTICAL_SERVERS[self.vertical]

    def turn_calls(self) -> list[ToolCall]:
        """Calls made since the person's latest message."""
        return [call for call in self.calls if call.this_turn]

    def called(self, name: str) -> ToolCall | None:
        """The latest call of `name` made this turn."""
        return next((c for c in reversed(self.turn_calls()) if c.name == name), None)

    def failure(self) -> ToolCall | None:
        """The first call that failed this turn (the planner stops and explains)."""
        return next((c for c in self.turn_calls() if not c.ok), None)

    def latest(self, *names: str) -> ToolCall | None:
        """The newest successful call among `names`, from any turn."""
        return next((c for c in reversed(self.calls) if c.ok and c.name in names), None)

    def offers(self, name: str) -> bool:
        """True when the tool can be called right now (not switched off)."""
        return self.ctx.is_enabled(name)

    def address_id(self) -> str | None:
        """The active address: from the system prompt, else from a listed address."""
        if match := _ADDRESS_ID_RE.search(self.ctx.system):
            return match.group(1)
        if match := _LOOSE_ADDRESS_RE.search(self.ctx.system):
            return match.group(1)
        chosen = self.listed_address()
        return str(chosen["id"]) if chosen else None

    def coordinates(self) -> tuple[float, float] | None:
        """Latitude and longitude of the active address."""
        if match := _COORDS_RE.search(self.ctx.system):
            return float(match.group(1)), float(match.group(2))
        chosen = self.listed_address()
        if chosen and chosen.get("lat") is not None and chosen.get("lng") is not None:
            return float(chosen["lat"]), float(chosen["lng"])
        return None

    def listed_address(self) -> dict[str, Any] | None:
        """Home (else the first) of the latest address listing."""
        call = self.latest("get_addresses", "get_saved_locations")
        if call is None:
            return None
        found = call.data.get("addresses") or call.data.get("locations") or []
        home = [a for a in found if str(a.get("label", "")).lower() == "home"]
        return (home or found or [None])[0]

    def today(self) -> date:
        """Today's date from the system prompt's date block, else the clock in India."""
        if match := _ISO_DATE_RE.search(self.ctx.system):
            return date.fromisoformat(match.group(1) or match.group(2))
        return datetime.now(IST).date()

    def remembered(self, read: Any) -> Any:
        """The newest non-empty value `read(text)` finds in the person's messages."""
        for text in reversed(self.user_texts):
            if (value := read(text.lower())) is not None:
                return value
        return None


def build_view(ctx: TurnContext) -> ConversationView:
    """Digest the turn context once per step."""
    view = ConversationView(ctx=ctx, vertical=_vertical(ctx))
    transcript = ctx.transcript()
    start = _turn_start(transcript)
    uses: dict[str, tuple[str, dict[str, Any], bool]] = {}
    for position, message in enumerate(transcript):
        content = message.get("content")
        if message.get("role") == "user" and _has_text(content):
            text, action = _user_words(content)
            view.user_texts.append(text)
            view.actions.append(action)
        if not isinstance(content, list):
            continue
        for block in content:
            kind = block.get("type")
            if kind in _USE_TYPES:
                uses[block["id"]] = (
                    block["name"],
                    dict(block.get("input") or {}),
                    position >= start,
                )
            elif kind in _RESULT_TYPES and block.get("tool_use_id") in uses:
                name, tool_input, this_turn = uses[block["tool_use_id"]]
                call = _call(name, tool_input, block, this_turn)
                view.calls.append(replace(call, turn=len(view.user_texts) - 1))
    return view


def _vertical(ctx: TurnContext) -> str:
    if match := re.search(r"You are (NutriCart|StyleKit|FeedMe|TableScout)", ctx.system):
        return match.group(1)
    mentioned = [(ctx.system.find(name), name) for name in VERTICAL_SERVERS if name in ctx.system]
    if mentioned:
        return min(mentioned)[1]
    for server in [*ctx.tools, *ctx.disabled_tools]:
        if server in _DEFAULT_VERTICAL:
            return _DEFAULT_VERTICAL[server]
    return "NutriCart"


def _turn_start(transcript: list[dict[str, Any]]) -> int:
    """Index of the person's latest message (tool results alone do not start a turn)."""
    for position in range(len(transcript) - 1, -1, -1):
        message = transcript[position]
        if message.get("role") == "user" and _has_text(message.get("content")):
            return position
    return 0


def _has_text(content: Any) -> bool:
    if isinstance(content, str):
        return bool(content.strip())
    return isinstance(content, list) and any(b.get("type") == "text" for b in content)


def _user_words(content: Any) -> tuple[str, dict[str, Any] | None]:
    """The visible text and the card action (if any) of a user message."""
    texts = [content] if isinstance(content, str) else [
        str(b.get("text", "")) for b in content if b.get("type") == "text"
    ]  # fmt: skip
    action: dict[str, Any] | None = None
    visible: list[str] = []
    for text in texts:
        match = _ACTION_RE.search(text)
        if match is None:
            visible.append(text)
            continue
        try:
            parsed = json.loads(match.group(1))
        except ValueError:
            parsed = None
        action = parsed if isinstance(parsed, dict) else action
    return " ".join(visible).strip(), action


def _call(
    name: str, tool_input: dict[str, Any], block: dict[str, Any], this_turn: bool
) -> ToolCall:
    content = block.get("content")
    text = content if isinstance(content, str) else "".join(
        str(part.get("text", "")) for part in content or [] if isinstance(part, dict)
    )  # fmt: skip
    try:
        payload = json.loads(text)
    except ValueError:
        payload = None
    if not isinstance(payload, dict):
        return ToolCall(name, tool_input, False, {}, text.strip() or "no answer", this_turn)
    if block.get("is_error") or payload.get("success") is False:
        error = payload.get("error")
        message = error.get("message") if isinstance(error, dict) else error
        return ToolCall(name, tool_input, False, {}, str(message or text), this_turn)
    data = payload.get("data")
    return ToolCall(name, tool_input, True, data if isinstance(data, dict) else {}, "", this_turn)
