"""Dineout deals: free reservations versus paid prebooks, and seats left.

Swiggy documents `isFree=false` or `bookingPrice>0` as a paid prebook, even when the
title reads like a discount; restaurant details carry `coverCharge` for the same. This
app books free tables only, so a paid deal is never offered as a booking.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from swiggy_core.parsers._values import (
    Keys,
    as_dict,
    as_list,
    first,
    money,
    pick,
    to_bool,
    to_id,
    to_int,
    to_str,
)

DEAL_KEYS = ("deals", "items", "offers")
_DEAL_KEYS = Keys(*DEAL_KEYS)
_PRICE_KEYS = Keys("bookingPrice", "booking_price", "coverCharge", "cover_charge", "displayFee")
_SEAT_KEYS = Keys("availableInventory", "availableInventoryCount", "available_inventory")
_MAX_DEALS = 10


@dataclass(frozen=True, slots=True)
class Deal:
    """One deal of a slot or a restaurant, read leniently."""

    item_id: str | None
    title: str | None
    paid: bool
    price: float | None
    seats_left: int | None


def read_deal(record: dict[str, Any]) -> Deal:
    """A deal's id, title, whether it is paid, its price and the seats it has left."""
    price = deal_price(record)
    free_flag = to_bool(pick(record, "isFree", "is_free"))
    return Deal(
        item_id=to_id(pick(record, "itemId", "item_id", "dealId", "id")),
        title=to_str(pick(record, "title", "dealTitle", "name"), 120),
        paid=free_flag is False or (price is not None and price > 0),
        price=price,
        seats_left=seats_left(record),
    )


def deal_price(record: dict[str, Any]) -> float | None:
    """The prebook price of a deal (₹), when it states one."""
    if record.keys().isdisjoint(_PRICE_KEYS):
        return None
    for key in _PRICE_KEYS.order:
        if key in record:
            amount = money(record[key])
            if amount is not None:
                return amount
    return None


def seats_left(record: dict[str, Any]) -> int | None:
    """`availableInventory` of a slot or a deal; None when not stated."""
    seats = first(record, _SEAT_KEYS)
    return None if seats is None else to_int(seats)


def slot_deals(record: dict[str, Any]) -> list[Deal]:
    """The deals listed on a slot (dicts only, a bounded number)."""
    listed = first(record, _DEAL_KEYS)
    if listed is None:
        return []
    entries = as_list(listed)[:_MAX_DEALS]
    return [read_deal(entry) for entry in entries if as_dict(entry) is not None]


def free_deal(deals: list[Deal]) -> Deal | None:
    """The first free deal that still has seats (an explicit 0 means full)."""
    return next((d for d in deals if not d.paid and d.seats_left != 0), None)


def cheapest_paid(deals: list[Deal]) -> Deal | None:
    """The paid deal with the lowest stated price (to say what booking would cost)."""
    paid = [d for d in deals if d.paid]
    priced = [d for d in paid if d.price is not None]
    return min(priced, key=lambda d: d.price or 0.0) if priced else (paid[0] if paid else None)
