"""What each card showed, in plain fields: names, quantities, prices, bills, ids."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from swiggy_core.formatting import date_time_label, day_label, time_label
from swiggy_core.parsers import (
    AddressesResult,
    BookingConfirmedResult,
    CartResult,
    InfoResult,
    OrderPlacedResult,
    ParsedToolResult,
    ProductsResult,
    RestaurantsResult,
    StatusResult,
    TimeSlotsResult,
)

# A long search result is summarised by its first few items (the page shows a grid of them).
MAX_LISTED: Final = 20


def essentials_of(card: ParsedToolResult) -> dict[str, Any] | None:
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


def last_cart_only(cards: Sequence[ParsedToolResult]) -> list[ParsedToolResult]:
    """The cards of one reply as the page shows them: of several carts, only the last."""
    last_cart = max((i for i, card in enumerate(cards) if card.type == "cart"), default=-1)
    return [card for i, card in enumerate(cards) if card.type != "cart" or i == last_cart]


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
