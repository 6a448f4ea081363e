"""The compact session-state line sent each turn: what is known, wanted and pending."""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from swiggy_core.actions import CardAction, parse_action, visible_text
from swiggy_core.constants import SESSION_SUMMARY_MAX_CHARS, SUMMARY_FIELDS
from swiggy_core.conversation._context import address_view, local_now
from swiggy_core.conversation._slots import chosen_slots, slots_said
from swiggy_core.conversation.prefix import PrefixMemo
from swiggy_core.conversation.summary_read import NONE, format_moment, format_place
from swiggy_core.models import ChatMessage, McpToolUseBlock, ToolUseBlock
from swiggy_core.verticals import Vertical, get_vertical

_VALUE_MAX = 80
_SAID_ENTRIES = 8192
_said_memo: dict[int, tuple[ChatMessage, str]] = {}
_said_lock = threading.Lock()
_RESTAURANT_ID_KEYS = ("restaurantId", "restaurant_id")
_RESTAURANT_NAME_KEYS = ("restaurantName", "restaurant_name")
# Characters that would break the "field=value; field=value" shape.
_UNSAFE = re.compile(r"\s*[;=\n\r\t]+\s*")

_YES_NO = re.compile(
    r"^\s*(?:yes|yeah|yep|yup|sure|ok(?:ay)?|go ahead|do it|confirm(?:ed)?|please do|no|nope|"
    r"cancel|don'?t|stop)\b[\s,.!]*(?:please|thanks|thank you|go ahead|do it)?[\s.!]*$",
    re.IGNORECASE,
)
_ACTION_INTENTS = {
    "add_to_cart": "add_to_cart",
    "set_quantity": "add_to_cart",
    "remove_from_cart": "add_to_cart",
    "view_cart": "view_cart",
    "show_menu": "browse_menu",
    "show_slots": "book",
    "pick_slot": "book",
    "choose_address": "search",
    "request_checkout": "checkout",
    "reorder": "add_to_cart",
}
# Checked in order: the first match names the intent.
_INTENTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "checkout",
        re.compile(
            r"\b(?:check\s?out|place (?:the |my |this )?order|pay(?: now)?|"
            r"confirm (?:the |my )?order|buy (?:it|them|now))\b",
            re.IGNORECASE,
        ),
    ),
    ("book", re.compile(r"\b(?:book|reserve|reservation)\b", re.IGNORECASE)),
    (
        "add_to_cart",
        re.compile(
            r"\b(?:add|remove|delete|increase|decrease|reduce|put|make it|change the quantity)\b",
            re.IGNORECASE,
        ),
    ),
    ("view_cart", re.compile(r"\b(?:cart|basket|bill)\b", re.IGNORECASE)),
    (
        "browse_menu",
        re.compile(r"\b(?:menu|dishes|what do they (?:have|serve))\b", re.IGNORECASE),
    ),
    (
        "advice",
        re.compile(
            r"\b(?:suggest|recommend|routine|meal plan|diet plan|recipes?|what should i|"
            r"ideas?|advi[cs]e|help me (?:choose|pick|decide)|which is better|plan)\b",
            re.IGNORECASE,
        ),
    ),
)


def build_session_state_summary(
    *,
    vertical_id: str,
    messages: Sequence[ChatMessage],
    address: Any = None,
    now: datetime | None = None,
    pending_confirmation: str | None = None,
) -> str:
    """`slots=...; intent=...; confirm=...; datetime=...; restaurant=...; location=...`."""
    vertical = get_vertical(vertical_id)
    told = _told_in(messages, vertical)
    slots = chosen_slots(told.slots, vertical.id)
    values: dict[str, str] = {
        "slots": ", ".join(f"{k}:{v}" for k, v in slots.items()) or NONE,
        "intent": _intent(*told.last_said) if told.last_said else NONE,
        "confirm": f"pending:{pending_confirmation}" if pending_confirmation else NONE,
        "datetime": format_moment(local_now(now)),
        "restaurant": format_place(*told.locked) if told.locked else NONE,
        "location": _location(address),
    }
    return _render(values)


@dataclass(frozen=True, slots=True)
class _Told:
    """What a history has told so far, read message by message."""

    vertical_id: str
    slots: dict[str, str]  # every slot's latest value the person gave
    last_said: tuple[ChatMessage, str] | None  # their newest words, with the message
    names: dict[str, str]  # restaurant id → name, from tool calls that named both
    locked: tuple[str | None, str | None] | None  # (name, id) of the newest named restaurant


# Per history: what its seen messages told (only new messages are read on the next turn).
_told: PrefixMemo[_Told] = PrefixMemo()


def _told_in(messages: Sequence[ChatMessage], vertical: Vertical) -> _Told:
    start, told = 0, _Told(vertical.id, {}, None, {}, None)
    resumed = _told.resume(messages)
    if resumed is not None and resumed[1].vertical_id == vertical.id:
        start, told = resumed
    slots, names = dict(told.slots), dict(told.names)
    last_said, locked = told.last_said, told.locked
    for message in messages[start:]:
        # Hidden <card_action> payloads carry ids, not words the person chose: skip them.
        if message.role == "user" and (text := _said(message)).strip():
            slots.update(slots_said(text, vertical.id))
            last_said = (message, text)
        if vertical.tracks_restaurant:
            locked = _restaurant_named(message, names) or locked
    told = _Told(vertical.id, slots, last_said, names, locked)
    _told.remember(messages, len(messages), told)
    return told


def _said(message: ChatMessage) -> str:
    """The message's visible text, read once per stored message (they are never edited)."""
    hit = _said_memo.get(id(message))
    if hit is not None and hit[0] is message:  # the entry keeps the message, so ids stay apart
        return hit[1]
    text = visible_text(message)
    with _said_lock:
        _said_memo[id(message)] = (message, text)
        while len(_said_memo) > _SAID_ENTRIES:  # the oldest entries go first
            _said_memo.pop(next(iter(_said_memo)))
    return text


def _render(values: dict[str, str]) -> str:
    # Slots hold several values and are bounded below as a whole; others get one cap each.
    clean = {key: _clean(values[key], key != "slots") for key in SUMMARY_FIELDS}
    text = "; ".join(f"{key}={clean[key]}" for key in SUMMARY_FIELDS)
    overflow = len(text) - SESSION_SUMMARY_MAX_CHARS
    if overflow > 0:  # slots are the only field that grows with the chat
        slots = clean["slots"]
        clean["slots"] = slots[: max(len(slots) - overflow - 1, 0)] + "…"
        text = "; ".join(f"{key}={clean[key]}" for key in SUMMARY_FIELDS)
    return text[:SESSION_SUMMARY_MAX_CHARS]


def _clean(value: str, capped: bool) -> str:
    value = _UNSAFE.sub(" ", value).strip()
    if not capped or len(value) <= _VALUE_MAX:
        return value
    return value[: _VALUE_MAX - 1] + "…"


def _intent(message: ChatMessage, text: str) -> str:
    action = parse_action(message)
    if action is not None:
        return _action_intent(action)
    if _YES_NO.match(text):
        return "reply"
    for label, pattern in _INTENTS:
        if pattern.search(text):
            return label
    return "search"


def _action_intent(action: CardAction) -> str:
    return _ACTION_INTENTS.get(action.kind, "reply")


def _restaurant_named(
    message: ChatMessage, names: dict[str, str]
) -> tuple[str | None, str | None] | None:
    """(name, id) of the message's last tool call that named a restaurant; `names` learns
    the names calls give (menu calls carry only the id)."""
    locked: tuple[str | None, str | None] | None = None
    for block in message.content if isinstance(message.content, list) else ():
        if not isinstance(block, McpToolUseBlock | ToolUseBlock):
            continue
        restaurant_id = _first(block.input, _RESTAURANT_ID_KEYS)
        name = _first(block.input, _RESTAURANT_NAME_KEYS)
        if restaurant_id and name:
            names[restaurant_id] = name
        if restaurant_id or name:
            locked = (name or names.get(restaurant_id or ""), restaurant_id)
    return locked


def _location(address: Any) -> str:
    view = address_view(address)
    if view is None:
        return NONE
    return format_place(view.label or None, view.id, view.lat, view.lng)


def _first(data: dict[str, Any], keys: tuple[str, ...]) -> str | None:
    for key in keys:
        value = data.get(key)
        if value not in (None, ""):
            return str(value)
    return None
