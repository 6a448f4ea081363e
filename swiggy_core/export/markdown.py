"""The export as Markdown: every text goes through `safe_markdown` (no HTML, no images)."""

from __future__ import annotations

from typing import Any, Final

from swiggy_core.export.chat import ChatExport
from swiggy_core.formatting import rupees
from swiggy_core.safe_markdown import markdown_text, plain

ROLE_NAMES: Final = {"user": "You", "assistant": "Assistant"}


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
