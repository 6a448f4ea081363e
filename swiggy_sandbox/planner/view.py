"""What the planner knows: the core's session summary, the vertical, every tool call in the chat."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from typing import Any

from swiggy_core.actions import ACTION_TAG_RE, REDO_TAG_RE
from swiggy_core.constants import APPROVAL_TOOL_NAME, SWIGGY_TZ
from swiggy_core.conversation.summary_read import SessionSummary
from swiggy_core.diet import DietProfile
from swiggy_core.verticals import VERTICALS, get_vertical
from swiggy_sandbox.connector import TurnContext
from swiggy_sandbox.planner.session import profile_vertical, request_diet, request_summary
from swiggy_sandbox.planner.tool_calls import (
    ApprovalAnswer,
    ToolCall,
    approval_calls,
    read_approval,
    read_call,
)

_USE_TYPES = frozenset({"tool_use", "mcp_tool_use"})
_RESULT_TYPES = frozenset({"tool_result", "mcp_tool_result"})


@dataclass
class ConversationView:
    """The turn context digested: vertical, address, dates, the person's words, tool calls."""

    ctx: TurnContext
    # The vertical's id (the planner's tables are keyed by it).
    vertical: str = ""
    # What the core worked out from the whole chat: slots, active address, date and time.
    summary: SessionSummary = field(default_factory=SessionSummary)
    # The person's standing diet, when the app sent one: picks put what may break it last.
    diet: DietProfile | None = None
    calls: list[ToolCall] = field(default_factory=list)
    user_texts: list[str] = field(default_factory=list)
    actions: list[dict[str, Any] | None] = field(default_factory=list)
    # The app's answer to a request_confirmation carried by the request's last message
    # (None when that answer is "superseded" by words the person wrote instead).
    approval: ApprovalAnswer | None = None

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
        return get_vertical(self.vertical).server.name

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

    def searched(self, name: str, query: str) -> ToolCall | None:
        """This turn's search with `name`, or an earlier one for the same `query`: the same
        search asked again is answered from the results already there."""
        done = self.called(name)
        if done is None:
            earlier = self.latest(name)
            if earlier is not None and earlier.input.get("query") == query:
                return earlier
        return done

    def offers(self, name: str) -> bool:
        """True when the tool can be called right now (not switched off)."""
        return self.ctx.is_enabled(name)

    def can_ask_approval(self) -> bool:
        """True when the request offers the client tool that asks the person to approve."""
        return any(tool.get("name") == APPROVAL_TOOL_NAME for tool in self.ctx.client_tools)

    def address_id(self) -> str | None:
        """The active address the core named, else Home (or the first) of a listing."""
        if self.summary.location is not None and self.summary.location.id:
            return self.summary.location.id
        chosen = self.listed_address()
        return str(chosen["id"]) if chosen else None

    def coordinates(self) -> tuple[float, float] | None:
        """Latitude and longitude of the active address."""
        if self.summary.location is not None and self.summary.location.coordinates:
            return self.summary.location.coordinates
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
        home = [a for a in found if _address_label(a).lower() == "home"]
        return (home or found or [None])[0]

    def today(self) -> date:
        """Today in India, as the core's session summary says (else the clock)."""
        if self.summary.moment is not None:
            return self.summary.moment.date()
        return datetime.now(SWIGGY_TZ).date()

    def slot(self, name: str) -> str | None:
        """A detail from the core's session summary ("party", "skin", "budget"), if sent."""
        return self.summary.slots.get(name)

    def detail(self, slot: str, read: Any) -> Any:
        """A detail the core's summary holds (its slot `slot`, read with `read`), else the
        newest one in the person's words (for details the summary does not keep)."""
        value = self.summary.slots.get(slot)
        if value is not None and (found := read(value.lower())) is not None:
            return found
        return self.remembered(read)

    def remembered(self, read: Any) -> Any:
        """The newest non-empty value `read(text)` finds in the person's messages."""
        for text in reversed(self.user_texts):
            if (value := read(text.lower())) is not None:
                return value
        return None


def build_view(ctx: TurnContext) -> ConversationView:
    """Digest the turn context once per step."""
    summary = request_summary(ctx.system, ctx.messages)
    diet = request_diet(ctx.system, ctx.messages)
    view = ConversationView(ctx=ctx, vertical=_vertical(ctx), summary=summary, diet=diet)
    transcript = ctx.transcript()
    start = _turn_start(transcript)
    last_user = _last_user_message(ctx.messages)
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
                turn = len(view.user_texts) - 1
                if name != APPROVAL_TOOL_NAME:
                    call = read_call(name, tool_input, block, this_turn)
                    view.calls.append(replace(call, turn=turn))
                    continue
                answer = read_approval(tool_input, block)
                view.calls.extend(approval_calls(answer, tool_input, this_turn, turn))
                # Superseded with new words: those words are this turn's request instead.
                superseded = answer.approval == "superseded" and _has_text(content)
                if position == last_user and not superseded:
                    view.approval = answer
    return view


def _last_user_message(messages: list[dict[str, Any]]) -> int:
    """Index of the request's final message when the person (or the app) sent it, else -1."""
    if messages and messages[-1].get("role") == "user":
        return len(messages) - 1
    return -1


def _vertical(ctx: TurnContext) -> str:
    """The vertical whose profile the request carries; else the first one named; else the
    one whose server's tools are offered."""
    if (profile := profile_vertical(ctx.system)) is not None:
        return profile.id
    verticals = list(VERTICALS.values())
    named = [
        (ctx.system.find(v.display_name), v.id) for v in verticals if v.display_name in ctx.system
    ]
    if named:
        return min(named)[1]
    for server in [*ctx.tools, *ctx.disabled_tools]:
        # The first vertical on that server (NutriCart for Instamart).
        if found := next((v.id for v in verticals if v.server.name == server), None):
            return found
    return verticals[0].id


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
        if REDO_TAG_RE.fullmatch(text.strip()):  # the app's note on a message asked again
            continue
        match = ACTION_TAG_RE.search(text)
        if match is None:
            visible.append(text)
            continue
        try:
            parsed = json.loads(match.group(1))
        except ValueError:
            parsed = None
        action = parsed if isinstance(parsed, dict) else action
    return " ".join(visible).strip(), action


def _address_label(address: dict[str, Any]) -> str:
    """Swiggy's `addressTag` / `addressCategory`, or an older shape's `label`."""
    for key in ("addressTag", "label", "addressCategory"):
        if address.get(key):
            return str(address[key])
    return ""
