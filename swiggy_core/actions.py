"""Structured actions from card buttons, and typed text that can never pose as one.

A card button's action travels as data (`ChatMessage.meta.action`); the model also gets
the ids in a second text block wrapped in `<card_action>` tags, so it never has to guess
which variation or slot was meant. Nothing here confirms anything: spending happens only
through a stored approval (see `swiggy_core.approval`).

A reply may offer requests to tap (after a miss, the nearest things the shop can do) as
`<suggest>…</suggest>` tags at its end; the page draws them as chips and sends a tapped one
exactly as if it had been typed, so a suggestion can never carry more than its words.
"""

from __future__ import annotations

import json
import re
import unicodedata

from swiggy_core.constants import MAX_MESSAGE_CHARS
from swiggy_core.errors import ErrorCode, InputError
from swiggy_core.models import ActionKind, CardAction, ChatMessage, MessageMeta, TextBlock

__all__ = [
    "ACTION_TAG_RE",
    "REDO_TAG",
    "REDO_TAG_RE",
    "ActionKind",
    "CardAction",
    "action_message",
    "check_typed",
    "escape_markup",
    "parse_action",
    "suggestion_markup",
    "suggestions",
    "typed_message",
    "visible_text",
    "without_suggestions",
]

ACTION_TAG = "card_action"
# The hidden block of a card button's message, its JSON payload in group 1 (the planner
# reads it back the same way).
ACTION_TAG_RE = re.compile(rf"<{ACTION_TAG}>(.*?)</{ACTION_TAG}>", re.S)
# The app's note to the model on a message asked again (edited, or for a fresh reply).
REDO_TAG = "redo_note"
REDO_TAG_RE = re.compile(rf"<{REDO_TAG}>(.*?)</{REDO_TAG}>", re.S)
# Angle brackets and the look-alikes a model or a tokenizer may read as one.
_ANGLE_LIKE = {
    "<": "&lt;",
    ">": "&gt;",
    "\uff1c": "&lt;",  # fullwidth
    "\uff1e": "&gt;",
    "\ufe64": "&lt;",  # small form
    "\ufe65": "&gt;",
    "\u2039": "&lt;",  # single angle quotation marks
    "\u203a": "&gt;",
    "\u2329": "&lt;",  # angle brackets
    "\u232a": "&gt;",
    "\u27e8": "&lt;",  # mathematical angle brackets
    "\u27e9": "&gt;",
    "\u3008": "&lt;",  # CJK angle brackets
    "\u3009": "&gt;",
}
_ANGLE_RE = re.compile("[" + re.escape("".join(_ANGLE_LIKE)) + "]")
_INVISIBLE = re.compile("[\u200b-\u200f\u2060-\u2064\ufeff\u00ad]")
SUGGEST_TAG = "suggest"
_SUGGEST_RE = re.compile(rf"\s*<{SUGGEST_TAG}>(.*?)</{SUGGEST_TAG}>", re.S)
# A row of chips, each a short request: more, or longer, is a paragraph, not a chip.
MAX_SUGGESTIONS = 4
MAX_SUGGESTION_CHARS = 60


def action_message(action: CardAction) -> ChatMessage:
    """A user message carrying the visible label and, as data, the action."""
    payload = action.model_dump(mode="json", exclude_none=True)
    hidden = f"<{ACTION_TAG}>{json.dumps(payload, separators=(',', ':'))}</{ACTION_TAG}>"
    return ChatMessage(
        role="user",
        content=[TextBlock(text=escape_markup(action.label)), TextBlock(text=hidden)],
        meta=MessageMeta(action=action),
    )


def parse_action(message: ChatMessage) -> CardAction | None:
    """The action a user message carries: only ever its data, never its text."""
    return message.meta.action if message.role == "user" else None


def visible_text(message: ChatMessage) -> str:
    """What the person typed or pressed, without the hidden action block."""
    blocks = [block for block in message.blocks() if isinstance(block, TextBlock)]
    if message.meta.action is not None:
        blocks = [block for block in blocks if not ACTION_TAG_RE.fullmatch(block.text)]
    if message.meta.redo is not None:
        blocks = [block for block in blocks if not REDO_TAG_RE.fullmatch(block.text)]
    return "\n".join(block.text for block in blocks)


def escape_markup(text: str) -> str:
    """Text with every angle bracket (and look-alike) escaped, invisible characters removed.

    Escaping rather than stripping: nested or partial tags cannot rebuild a valid tag, and
    Markdown still shows the person exactly the brackets they typed.
    """
    cleaned = _INVISIBLE.sub("", unicodedata.normalize("NFC", text))
    return _ANGLE_RE.sub(lambda match: _ANGLE_LIKE[match.group(0)], cleaned)


def typed_message(text: str) -> ChatMessage:
    """A message the person typed: plain text, never an action (see `check_typed`)."""
    return ChatMessage(role="user", content=escape_markup(text.strip()))


# Markup that carries no words: tags, markdown image/link shells, directives, symbols.
_MARKUP_RE = re.compile(r"<[^>]*>|!?\[[^\]]*\]\([^)]*\)|:[\w/-]+(?:\[[^\]]*\])?:?")


def check_typed(text: str) -> None:
    """Refuse what should not be sent: over the length limit, or nothing but markup."""
    if len(text) > MAX_MESSAGE_CHARS:
        raise InputError(
            f"That message is {len(text):,} characters; the limit is {MAX_MESSAGE_CHARS:,}. "
            "Shorten it and send again (your text is kept below).",
            code=ErrorCode.MESSAGE_TOO_LONG,
        )
    words = _MARKUP_RE.sub(" ", unicodedata.normalize("NFKC", text))
    if not any(ch.isalnum() for ch in words):
        raise InputError(
            "There is nothing to send: the message has no words, only markup or symbols.",
            code=ErrorCode.EMPTY_MESSAGE,
        )


def suggestion_markup(requests: list[str]) -> str:
    """Requests a reply offers as chips, written the way `suggestions` reads them back."""
    tags = [f"<{SUGGEST_TAG}>{_ANGLE_RE.sub('', r).strip()}</{SUGGEST_TAG}>" for r in requests]
    return " ".join(tags)


def suggestions(text: str) -> list[str]:
    """The requests a reply offers as chips: distinct, one short line each, a few at most."""
    found: list[str] = []
    for raw in _SUGGEST_RE.findall(text):
        request = " ".join(_INVISIBLE.sub("", raw).split())
        if request and len(request) <= MAX_SUGGESTION_CHARS and request not in found:
            found.append(request)
    return found[:MAX_SUGGESTIONS]


def without_suggestions(text: str) -> str:
    """A reply's words without its chip tags (the page draws those as buttons)."""
    return _SUGGEST_RE.sub("", text).rstrip()
