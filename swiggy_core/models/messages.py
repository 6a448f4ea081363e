"""A chat message and what the app keeps about it: usage, an error, a card action, cards."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from swiggy_core.basket_records import BasketReview
from swiggy_core.models.blocks import ContentBlock, TextBlock, ToolResultBlock
from swiggy_core.models.usage import Usage
from swiggy_core.parsers.results import ParsedToolResult


class ErrorInfo(BaseModel):
    """An error as the UI shows it: stable code, category, short message, optional wait."""

    code: str
    category: str
    message: str
    status: int | None = None
    retry_after_seconds: float | None = None
    retryable: bool = False
    # A Swiggy tool kept failing: the person may send Swiggy a report_error about it.
    report_tool: str | None = None
    report_detail: str | None = None


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
    "clear_cart",
    # A reviewed basket (a past order's lines, or a shopping list) into the cart:
    # `ids["cart_tool"]` with `ids["arguments"]`.
    "reorder",
]


class CardAction(BaseModel):
    """One card button press: what it means and the ids the tools need.

    Actions never confirm anything: spending happens only through a stored approval.
    """

    kind: ActionKind
    label: str = Field(description="The human sentence shown in the chat.")
    ids: dict[str, Any] = Field(default_factory=dict)


class MessageMeta(BaseModel):
    """What the app keeps about a message besides its content; never sent to the API."""

    model_config = ConfigDict(extra="ignore")

    usage: Usage | None = None
    action: CardAction | None = None
    # Parsed cards by tool_use_id: each tool result is parsed once, when it arrives.
    cards: dict[str, ParsedToolResult] = Field(default_factory=dict)
    error: ErrorInfo | None = None
    stopped: bool = False
    # Kept on screen but not sent to the model (the partial reply of a failed turn).
    excluded: bool = False
    approval_id: str | None = None
    turn_id: str | None = None
    # The person asked again: their edited words ("edit"), or the same words for a fresh
    # reply ("regenerate"); the earlier turn stays (messages are only ever appended).
    redo: Literal["edit", "regenerate"] | None = None
    # The app's own reply to a shopping list: its basket review, drawn as the card.
    basket: BasketReview | None = None

    def merged(self, other: MessageMeta) -> MessageMeta:
        """Both messages' facts in one (used when two same-role messages are joined)."""
        usage = (
            self.usage + other.usage if self.usage and other.usage else self.usage or other.usage
        )
        return self.model_copy(
            update={
                "usage": usage,
                "action": self.action or other.action,
                "cards": {**self.cards, **other.cards},
                "error": other.error or self.error,
                "stopped": self.stopped or other.stopped,
                "excluded": self.excluded and other.excluded,
                "approval_id": self.approval_id or other.approval_id,
                "basket": self.basket or other.basket,
            }
        )


class ChatMessage(BaseModel):
    """One message of a conversation; `meta` stays local and is never sent to the API."""

    role: Literal["user", "assistant"]
    content: str | list[ContentBlock]
    meta: MessageMeta = Field(default_factory=MessageMeta)

    def blocks(self) -> list[ContentBlock]:
        if isinstance(self.content, str):
            return [TextBlock(text=self.content)]
        return list(self.content)

    def text(self) -> str:
        return "".join(b.text for b in self.blocks() if isinstance(b, TextBlock))

    def opens_turn(self) -> bool:
        """The person wrote it (or a card button sent it): a turn of the chat begins here.

        The app's answers to tool calls are user messages too, but nobody typed them.
        """
        if self.role != "user" or isinstance(self.content, str) or not self.content:
            return self.role == "user"
        return not all(isinstance(block, ToolResultBlock) for block in self.content)

    def to_param(self) -> dict[str, Any]:
        if isinstance(self.content, str):
            return {"role": self.role, "content": self.content}
        return {"role": self.role, "content": [b.to_param() for b in self.content]}


conversation_adapter: TypeAdapter[list[ChatMessage]] = TypeAdapter(list[ChatMessage])
