"""The cards of an imported chat file, read as typed records and told back as plain words.

A chat file's cards are what another copy of the app says it showed: they are not this
person's Swiggy data. So a card is read field by field into a small typed record (unknown
card kinds, extra fields and wrong types are left out), and shown only as a line of text
beginning "From the file": never as a live card with buttons, an order, a booking or a
cart of this account. (Only a search or a menu comes back as a real card, and only
re-parsed from the stored result the file carries: file_results.py.)
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from swiggy_core.formatting import rupees

# Words kept of one card field, items named per card, cards read per message.
FIELD_CHARS: Final = 120
NAMED_ITEMS: Final = 6
MAX_CARDS: Final = 20

Words = Annotated[str, Field(max_length=FIELD_CHARS)]
Amount = Annotated[float, Field(ge=0, le=1_000_000, allow_inf_nan=False)]
CardKind = Literal[
    "products",
    "restaurants",
    "cart",
    "time_slots",
    "addresses",
    "order_placed",
    "booking_confirmed",
    "status",
    "info",
]
_KIND_LABELS: Final[dict[str, str]] = {
    "products": "Products shown",
    "restaurants": "Restaurants shown",
    "cart": "Cart",
    "time_slots": "Delivery times were offered",
    "addresses": "Addresses shown",
    "order_placed": "An order, as the file tells it",
    "booking_confirmed": "A table booking, as the file tells it",
    "status": "A note",
    "info": "Details shown",
}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True, frozen=True)


class CardItem(_Strict):
    name: Words | None = None
    label: Words | None = None
    quantity: Annotated[int, Field(ge=0, le=999)] | None = None
    price: Amount | None = None
    total: Amount | None = None


class FileCard(_Strict):
    """The fields of an exported card this app reads back; everything else is dropped."""

    type: CardKind
    restaurant: Words | None = None
    title: Words | None = None
    message: Words | None = None
    order_id: Words | None = None
    booking_id: Words | None = None
    items: list[CardItem] = Field(default_factory=list, max_length=50)
    to_pay: Amount | None = None
    amount: Amount | None = None


def read_cards(raw: list[Any]) -> tuple[list[FileCard], int]:
    """The readable cards of one message and how many were left out."""
    cards: list[FileCard] = []
    for item in raw[:MAX_CARDS]:
        try:
            cards.append(FileCard.model_validate(item))
        except ValidationError:
            continue
    return cards, len(raw) - len(cards)


def card_line(card: FileCard) -> str:
    """One plain line saying what the card showed, marked as coming from the file."""
    parts = [_KIND_LABELS[card.type]]
    if card.restaurant:
        parts.append(f"from {card.restaurant}")
    head = " ".join(parts)
    details = [text for text in (card.title, card.message, _ids(card), _items(card)) if text]
    money = card.to_pay if card.to_pay is not None else card.amount
    if money is not None:
        details.append(f"to pay {rupees(money)}")
    return f"From the file: {head}" + (f": {'; '.join(details)}" if details else "") + "."


def _ids(card: FileCard) -> str:
    if card.order_id:
        return f"order {card.order_id}"
    return f"booking {card.booking_id}" if card.booking_id else ""


def _items(card: FileCard) -> str:
    named = [_item(item) for item in card.items[:NAMED_ITEMS]]
    named = [name for name in named if name]
    more = len(card.items) - NAMED_ITEMS
    return ", ".join(named) + (f" and {more} more" if more > 0 else "")


def _item(item: CardItem) -> str:
    name = item.name or item.label or ""
    if not name:
        return ""
    if item.quantity is not None:
        name = f"{item.quantity} × {name}"
    price = item.total if item.total is not None else item.price
    return f"{name} {rupees(price)}" if price is not None else name
