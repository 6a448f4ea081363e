"""A stored conversation as the person saw it, as JSON: messages, their times and cards,
and the stored tool results each reply's cards came from (so an import re-parses them)."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime
from typing import Any, Final

from swiggy_core.actions import visible_text
from swiggy_core.basket_reply import review_for_person
from swiggy_core.constants import APPROVAL_TOOL_NAME, SWIGGY_TZ
from swiggy_core.export.card_essentials import essentials_of, last_cart_only
from swiggy_core.export.file_results import exported_results
from swiggy_core.formatting import clock_label, day_label
from swiggy_core.models import (
    ChatMessage,
    McpToolResultBlock,
    TextBlock,
    ToolResultBlock,
    tool_pairs,
)
from swiggy_core.parsers import (
    ParsedToolResult,
    parse_tool_result,
)
from swiggy_core.store.records import ConversationInfo, StoredMessage

EXPORT_FORMAT: Final = "swiggy-assistant-chat/2"
# The first format: words and card essentials only, no stored results (still imported).
WORDS_ONLY_FORMAT: Final = "swiggy-assistant-chat/1"
# The same words asked again for a fresh reply read as that, not as a second message.
REGENERATED_NOTE: Final = "(Asked again for a fresh reply.)"
_SLUG_RE: Final = re.compile(r"[^a-z0-9]+")
SLUG_CHARS: Final = 40


@dataclass(frozen=True, slots=True)
class ExportedMessage:
    role: str
    text: str
    # When it was stored ("Mon 23 Nov, 8:05 PM"); None for chats older than message times.
    time: str | None = None
    cards: list[dict[str, Any]] = field(default_factory=list)
    # The stored MCP results the cards came from: {"tool", "input", "result", "is_error"}.
    results: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class ChatExport:
    title: str
    shop: str
    started: str | None
    updated: str
    messages: list[ExportedMessage]


def local_day(moment: datetime) -> str:
    """ "Mon 23 Nov" in India's time."""
    return day_label(moment.astimezone(SWIGGY_TZ).date().isoformat())


def local_when(moment: datetime) -> str:
    """ "Mon 23 Nov, 8:05 PM" in India's time."""
    local = moment.astimezone(SWIGGY_TZ)
    return f"{local_day(moment)}, {clock_label(local.hour * 60 + local.minute)}"


def build_export(info: ConversationInfo, stored: Sequence[StoredMessage], shop: str) -> ChatExport:
    """The conversation as shown: person and assistant turns with their cards and times."""
    messages = [item.message for item in stored]
    cards = _cards(messages, info.vertical_id)
    shown: list[ExportedMessage] = []
    for item in stored:
        exported = _exported(item.message, cards)
        if exported is not None:
            when = local_when(item.at) if item.at is not None else None
            shown.append(replace(exported, time=when))
    return ChatExport(
        title=info.title or "Untitled chat",
        shop=shop,
        started=local_when(info.created_at) if info.created_at else None,
        updated=local_when(info.updated_at),
        messages=shown,
    )


def export_file_name(shop: str, title: str | None, updated: datetime) -> str:
    """The file's name without extension, after the shop the chat was with:
    `nutricart-high-protein-snacks-20261127`."""
    return f"{_slug(shop, 'shop')}-{_slug(title or '', 'chat')}-{updated:%Y%m%d}"


def _slug(text: str, fallback: str) -> str:
    slug = _SLUG_RE.sub("-", text.lower()).strip("-")[:SLUG_CHARS].strip("-")
    return slug or fallback


def to_json(export: ChatExport) -> str:
    return json.dumps({"format": EXPORT_FORMAT, **asdict(export)}, ensure_ascii=False, indent=2)


def _exported(message: ChatMessage, cards: dict[str, ParsedToolResult]) -> ExportedMessage | None:
    blocks = message.blocks()
    answers = [b for b in blocks if isinstance(b, ToolResultBlock)]
    if message.role == "user" and blocks and len(answers) == len(blocks):
        # An approval's outcome is shown as the app's own reply; other answers are not shown.
        if message.meta.approval_id is None:
            return None
        outcome = [essentials_of(cards[b.tool_use_id]) for b in answers if b.tool_use_id in cards]
        return ExportedMessage("assistant", "", cards=[c for c in outcome if c])
    if message.role == "user" and message.meta.redo == "regenerate":
        return ExportedMessage("user", REGENERATED_NOTE)
    if message.role == "user":
        return ExportedMessage("user", visible_text(message).strip())
    return _assistant(message, cards)


def _assistant(message: ChatMessage, cards: dict[str, ParsedToolResult]) -> ExportedMessage:
    texts = [
        b.text.strip() for b in message.blocks() if isinstance(b, TextBlock) and b.text.strip()
    ]
    if message.meta.basket is not None:  # its text is the model's; you saw the review
        texts = [review_for_person(message.meta.basket)]
    results = [b for b in message.blocks() if isinstance(b, McpToolResultBlock)]
    shown = last_cart_only([cards[b.tool_use_id] for b in results if b.tool_use_id in cards])
    if message.meta.error is not None:
        texts.append(f"(Problem {message.meta.error.code}: {message.meta.error.message})")
    if message.meta.stopped:
        texts.append("(Stopped: the rest of this reply was not fetched.)")
    essentials = [essentials_of(card) for card in shown]
    return ExportedMessage(
        "assistant",
        "\n\n".join(texts),
        cards=[c for c in essentials if c],
        results=exported_results(message),
    )


def _cards(messages: Sequence[ChatMessage], vertical_id: str) -> dict[str, ParsedToolResult]:
    """Cards by tool_use_id: stored with the message, else parsed as the page would."""
    cards: dict[str, ParsedToolResult] = {}
    for message in messages:
        cards.update(message.meta.cards)
    for pair in tool_pairs(messages):
        if pair.use.name == APPROVAL_TOOL_NAME or pair.result is None or pair.use.id in cards:
            continue
        cards[pair.use.id] = parse_tool_result(
            pair.use.name,
            pair.result.content,
            vertical_id,
            pair.use.input,
            is_error=pair.result.is_error,
        )
    return cards
