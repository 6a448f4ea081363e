"""Structured actions from card buttons, sent through the same chat loop.

The person sees a human sentence ("Add 1 × Amul Taaza Milk 1 L"); the model also gets
the ids in a second text block wrapped in `<card_action>` tags, so it never has to guess
which variation or slot was meant. A `confirm` action is the only way a money-spending
tool is switched on for a turn.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

from swiggy_core.models import ChatMessage, TextBlock

ActionKind = Literal[
    "add_to_cart",
    "set_quantity",
    "remove_from_cart",
    "view_cart",
    "request_checkout",
    "show_menu",
    "show_slots",
    "pick_slot",
    "choose_address",
    "confirm",
    "cancel",
]
_TAG_RE = re.compile(r"<card_action>(.*?)</card_action>", re.S)


class CardAction(BaseModel):
    """One button press: what it means and the ids the tools need."""

    kind: ActionKind
    label: str = Field(description="The human sentence shown in the chat.")
    ids: dict[str, Any] = Field(default_factory=dict)
    tool_name: str | None = Field(default=None, description="For confirm: the tool allowed.")


def action_message(action: CardAction) -> ChatMessage:
    """A user message carrying the visible label and the machine-readable action."""
    payload = action.model_dump(mode="json", exclude_none=True)
    hidden = f"<card_action>{json.dumps(payload, separators=(',', ':'))}</card_action>"
    return ChatMessage(
        role="user",
        content=[TextBlock(text=action.label), TextBlock(text=hidden)],
        meta={"action": payload},
    )


def parse_action(message: ChatMessage) -> CardAction | None:
    """The action a user message carries, if any (malformed tags are ignored)."""
    if message.role != "user":
        return None
    for block in message.blocks():
        if not isinstance(block, TextBlock):
            continue
        match = _TAG_RE.search(block.text)
        if match is None:
            continue
        try:
            return CardAction.model_validate_json(match.group(1))
        except ValidationError:
            return None
    return None


def visible_text(message: ChatMessage) -> str:
    """What the person typed or pressed, without hidden action blocks."""
    parts = [
        block.text
        for block in message.blocks()
        if isinstance(block, TextBlock) and not _TAG_RE.search(block.text)
    ]
    return "\n".join(parts)


def confirmed_tools(message: ChatMessage | None) -> frozenset[str]:
    """Tools the person explicitly confirmed in this message (enabled for one turn)."""
    if message is None:
        return frozenset()
    action = parse_action(message)
    if action is None or action.kind != "confirm" or not action.tool_name:
        return frozenset()
    return frozenset({action.tool_name})


def typed_message(text: str) -> ChatMessage:
    """A message the person typed; action tags are stripped so typing cannot forge one."""
    cleaned = _TAG_RE.sub("", text).replace("<card_action>", "").replace("</card_action>", "")
    return ChatMessage(role="user", content=cleaned.strip())
