"""The compact session-state line sent each turn: what is known, wanted and pending."""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from swiggy_core.actions import CardAction, parse_action, visible_text
from swiggy_core.constants import SESSION_SUMMARY_MAX_CHARS, SUMMARY_FIELDS
from swiggy_core.conversation._context import address_view, local_now
from swiggy_core.conversation._slots import extract_slots
from swiggy_core.conversation.summary_read import NONE, format_moment, format_place
from swiggy_core.models import ChatMessage, McpToolUseBlock, ToolUseBlock
from swiggy_core.verticals import get_vertical

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
    # Hidden <card_action> payloads carry ids, not words the person chose: skip them.
    said = [(m, text) for m in messages if m.role == "user" and (text := _said(m)).strip()]
    slots = extract_slots([text for _, text in said], vertical.id)
    values: dict[str, str] = {
        "slots": ", ".join(f"{k}:{v}" for k, v in slots.items()) or NONE,
        "intent": _intent(*said[-1]) if said else NONE,
        "confirm": f"pending:{pending_confirmation}" if pending_confirmation else NONE,
        "datetime": format_moment(local_now(now)),
        "restaurant": _restaurant(messages) if vertical.tracks_restaurant else NONE,
        "location": _location(address),
    }
    return _render(values)


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


def _restaurant(messages: Sequence[ChatMessage]) -> str:
    """The locked restaurant: the latest tool call that named one."""
    names: dict[str, str] = {}  # menu calls carry only the id: remember earlier names
    locked: tuple[str | None, str | None] | None = None
    for message in messages:
        for block in message.blocks():
            if not isinstance(block, McpToolUseBlock | ToolUseBlock):
                continue
            restaurant_id = _first(block.input, _RESTAURANT_ID_KEYS)
            name = _first(block.input, _RESTAURANT_NAME_KEYS)
            if restaurant_id and name:
                names[restaurant_id] = name
            if restaurant_id or name:
                locked = (name or names.get(restaurant_id or ""), restaurant_id)
    return format_place(*locked) if locked else NONE


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
