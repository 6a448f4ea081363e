"""A conversation as the person saw it, for download: Markdown to read, JSON to keep.

Only what was on the page goes out: the words typed or pressed, the replies, and each card's
essentials (names, quantities, prices, bills, order and booking ids). Tool inputs, raw tool
output, internal ids, tokens and usage never do.

The Markdown is opened in other viewers, so every text from the model, a tool or the
person goes through `safe_markdown`: no raw HTML, no images (each reads "[image: alt]"),
links only to https. The JSON keeps the words as they were: it is data, not a page.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime
from typing import Any, Final

from swiggy_core.actions import visible_text
from swiggy_core.constants import APPROVAL_TOOL_NAME, SWIGGY_TZ
from swiggy_core.formatting import clock_label, date_time_label, day_label, rupees, time_label
from swiggy_core.models import (
    ChatMessage,
    McpToolResultBlock,
    TextBlock,
    ToolResultBlock,
    tool_pairs,
)
from swiggy_core.parsers import ParsedToolResult, parse_tool_result
from swiggy_core.parsers.results import (
    AddressesResult,
    BookingConfirmedResult,
    CartResult,
    InfoResult,
    OrderPlacedResult,
    ProductsResult,
    RestaurantsResult,
    StatusResult,
    TimeSlotsResult,
)
from swiggy_core.safe_markdown import markdown_text, plain
from swiggy_core.store.records import ConversationInfo, StoredMessage

# Dates and times are shown as a person in India reads them.
LOCAL_ZONE: Final = SWIGGY_TZ
EXPORT_FORMAT: Final = "swiggy-assistant-chat/1"
ROLE_NAMES: Final = {"user": "You", "assistant": "Assistant"}
# The same words asked again for a fresh reply read as that, not as a second message.
REGENERATED_NOTE: Final = "(Asked again for a fresh reply.)"
# A long search result is summarised by its first few items (the page shows a grid of them).
MAX_LISTED: Final = 20
_SLUG_RE: Final = re.compile(r"[^a-z0-9]+")
SLUG_CHARS: Final = 40


@dataclass(frozen=True, slots=True)
class ExportedMessage:
    role: str
    text: str
    # When it was stored ("Mon 23 Nov, 8:05 PM"); None for chats older than message times.
    time: str | None = None
    cards: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class ChatExport:
    title: str
    shop: str
    started: str | None
    updated: str
    messages: list[ExportedMessage]


def local_day(moment: datetime) -> str:
    """ "Mon 23 Nov" in India's time."""
    return day_label(moment.astimezone(LOCAL_ZONE).date().isoformat())


def local_when(moment: datetime) -> str:
    """ "Mon 23 Nov, 8:05 PM" in India's time."""
    local = moment.astimezone(LOCAL_ZONE)
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


def to_markdown(export: ChatExport) -> str:
    lines = [f"# {plain(export.title)}", "", f"{plain(export.shop)} · last active {export.updated}"]
    if export.started:
        lines[-1] += f" · started {export.started}"
    for message in export.messages:
        when = f" · {message.time}" if message.time else ""
        lines += ["", f"**{ROLE_NAMES.get(message.role, message.role)}:**{when}"]
        if message.text:
            lines += ["", markdown_text(message.text, image_text=_image_note)]
        for card in message.cards:
            lines += ["", *_card_markdown(card)]
    return "\n".join(lines) + "\n"


def _exported(message: ChatMessage, cards: dict[str, ParsedToolResult]) -> ExportedMessage | None:
    blocks = message.blocks()
    answers = [b for b in blocks if isinstance(b, ToolResultBlock)]
    if message.role == "user" and blocks and len(answers) == len(blocks):
        # An approval's outcome is shown as the app's own reply; other answers are not shown.
        if message.meta.approval_id is None:
            return None
        outcome = [_essentials(cards[b.tool_use_id]) for b in answers if b.tool_use_id in cards]
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
    results = [b for b in message.blocks() if isinstance(b, McpToolResultBlock)]
    found = [cards[b.tool_use_id] for b in results if b.tool_use_id in cards]
    # Several cart snapshots in one reply: only the last was shown (as on the page).
    last_cart = max((i for i, card in enumerate(found) if card.type == "cart"), default=-1)
    shown = [c for i, c in enumerate(found) if c.type != "cart" or i == last_cart]
    if message.meta.error is not None:
        texts.append(f"(Problem {message.meta.error.code}: {message.meta.error.message})")
    if message.meta.stopped:
        texts.append("(Stopped: the rest of this reply was not fetched.)")
    essentials = [_essentials(card) for card in shown]
    return ExportedMessage("assistant", "\n\n".join(texts), cards=[c for c in essentials if c])


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


def _essentials(card: ParsedToolResult) -> dict[str, Any] | None:
    """What a card showed, in plain fields; None for a card with nothing worth keeping."""
    if isinstance(card, ProductsResult):
        items = [
            _compact(name=i.name, size=i.quantity_description, price=i.price, in_stock=i.in_stock)
            for i in card.items[:MAX_LISTED]
        ]
        return {"type": "products", "restaurant": card.restaurant_name, "items": items}
    if isinstance(card, RestaurantsResult):
        items = [
            _compact(
                name=r.name,
                cuisines=", ".join(r.cuisines) or None,
                rating=r.rating,
                cost_for_two=r.cost_for_two,
                delivery_minutes=r.delivery_time_minutes,
            )
            for r in card.items[:MAX_LISTED]
        ]
        return {"type": "restaurants", "items": items}
    if isinstance(card, CartResult):
        return _cart(card)
    if isinstance(card, TimeSlotsResult):
        days = [
            {
                "day": day_label(d.date),
                "times": [time_label(s.time) for s in d.slots if s.available],
            }
            for d in card.days
        ]
        return {"type": "time_slots", "days": days}
    if isinstance(card, AddressesResult):
        items = [_compact(label=a.label, address=a.address) for a in card.items]
        return {"type": "addresses", "items": items}
    return _outcome(card)


def _cart(card: CartResult) -> dict[str, Any]:
    lines = [
        _compact(name=line.name, quantity=line.quantity, total=line.line_total)
        for line in card.items
    ]
    bill = [{"label": line.label, "amount": line.amount} for line in card.bill]
    return _compact(
        type="cart", restaurant=card.restaurant_name, items=lines, bill=bill, to_pay=card.to_pay
    )


def _outcome(card: ParsedToolResult) -> dict[str, Any] | None:
    if isinstance(card, OrderPlacedResult):
        return _compact(
            type="order_placed",
            order_id=card.order_id,
            status=card.status,
            amount=card.amount,
            payment=card.payment_method,
            eta=card.eta,
        )
    if isinstance(card, BookingConfirmedResult):
        return _compact(
            type="booking_confirmed",
            booking_id=card.booking_id,
            status=card.status,
            restaurant=card.restaurant_name,
            when=date_time_label(card.date_time) or None,
            guests=card.guest_count,
        )
    if isinstance(card, StatusResult):
        return {"type": "status", "success": card.success, "message": card.message}
    if isinstance(card, InfoResult) and card.fields:
        return _compact(type="info", title=card.title, fields=dict(card.fields))
    return None  # raw tool output stays out of the export


def _compact(**values: Any) -> dict[str, Any]:
    return {key: value for key, value in values.items() if value is not None}


def _image_note(alt: str) -> str:
    """What an image in a reply becomes in the file: a note, never a picture to fetch."""
    alt = " ".join(alt.split())
    return f"[image: {alt}]" if alt else "[image]"


def _card_markdown(card: dict[str, Any]) -> list[str]:
    """A card's lines; every value from a tool goes through `plain` (literal text)."""
    kind = card["type"]
    if kind == "cart":
        lines = [
            f"- {i['quantity']} × {plain(i['name'])}" + _amount(i.get("total"))
            for i in card["items"]
        ]
        lines += [
            f"- {plain(b['label'])}: {rupees(b['amount'], allow_negative=True)}"
            for b in card["bill"]
        ]
        if "to_pay" in card:
            lines.append(f"- **To pay: {rupees(card['to_pay'])}**")
        return ["*Cart*", "", *lines]
    if kind in ("products", "restaurants", "addresses"):
        return [f"*{kind.capitalize()}*", "", *[_item_line(item) for item in card["items"]]]
    if kind == "time_slots":
        days = [f"- {plain(d['day'])}: {plain(', '.join(d['times']))}" for d in card["days"]]
        return ["*Times*", "", *days]
    if kind == "order_placed":
        return [f"*Order placed*: {plain(card['order_id'])}" + _amount(card.get("amount"))]
    if kind == "booking_confirmed":
        when = f", {plain(card['when'])}" if "when" in card else ""
        return [f"*Table booked*: {plain(card['booking_id'])}{when}"]
    if kind == "status":
        return [f"*{'Done' if card['success'] else 'Not done'}*: {plain(card['message'])}"]
    return [
        f"*{plain(card.get('title')) or 'Details'}*",
        "",
        *[f"- {plain(str(k))}: {plain(str(v))}" for k, v in card["fields"].items()],
    ]


def _item_line(item: dict[str, Any]) -> str:
    name = item.get("name") or item.get("label") or ""
    details = [str(v) for k, v in item.items() if k not in ("name", "label", "price", "in_stock")]
    # Joined first: a detail such as "4.5" must not be escaped as if it began a line.
    text = f"- {plain(name)}" + (f" ({plain(', '.join(details))})" if details else "")
    if item.get("in_stock") is False:
        text += " (out of stock)"
    return text + _amount(item.get("price"))


def _amount(value: float | None) -> str:
    return f" · {rupees(value)}" if value is not None else ""
