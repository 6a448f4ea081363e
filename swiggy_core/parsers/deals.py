"""Dineout deals: free reservations versus paid prebooks, and seats left.

Swiggy documents `isFree=false` or `bookingPrice>0` as a paid prebook, even when the
title reads like a discount; restaurant details carry `coverCharge` for the same. This
app books free tables only, so a paid deal is never offered as a booking.
"""

from __future__ import annotations

import re
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
    to_float,
    to_id,
    to_int,
    to_str,
)
from swiggy_core.parsers.shapes import AVAILABILITY_KEYS

DEAL_KEYS = ("deals", "items", "offers")
_DEAL_KEYS = Keys(*DEAL_KEYS)
_PRICE_KEYS = Keys("bookingPrice", "booking_price", "coverCharge", "cover_charge", "displayFee")
_SEAT_KEYS = Keys("availableInventory", "availableInventoryCount", "available_inventory")
_MAX_DEALS = 10
_FREE_KEYS = Keys("isFree", "is_free")
_ITEM_ID_KEYS = Keys("itemId", "item_id", "dealId")
_AVAILABILITY_KEYS = Keys(*AVAILABILITY_KEYS)
# Keys that can make a slot paid, full or deal-bound; a slot with none is plainly free.
_TERM_KEYS = frozenset().union(_FREE_KEYS, _SEAT_KEYS, _DEAL_KEYS, _PRICE_KEYS, {"price"})
_UNAVAILABLE_WORDS = ("unavail", "not avail", "sold", "full", "closed", "booked", "blocked")
_UNAVAILABLE_RE = re.compile("|".join(map(re.escape, _UNAVAILABLE_WORDS)))  # one linear scan


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


def slot_terms(record: dict[str, Any]) -> dict[str, Any]:
    """A slot's `available`, `seats_left`, `free`, `item_id`, `deal_title`, `paid_price`.

    The free deal's itemId is the only one ever offered for booking.
    """
    if not _TERM_KEYS.isdisjoint(record):
        return _deal_terms(record)
    # No seats, deals, price or free flag stated: a free slot, available as it says.
    item_id = first(record, _ITEM_ID_KEYS)
    return {
        "available": _available(record),
        "seats_left": None,
        "free": True,
        "item_id": None if item_id is None else to_id(item_id),
        "paid_price": None,
    }


def _deal_terms(record: dict[str, Any]) -> dict[str, Any]:
    """Seats, deals, price and free flag as the slot states them."""
    seats = seats_left(record)
    available = _available(record) and seats != 0
    deals = slot_deals(record)
    if deals:
        free = free_deal(deals)
        paid = cheapest_paid(deals)
        if all(d.seats_left == 0 for d in deals):
            available = False
        return {
            "available": available,
            "seats_left": seats,
            "free": free is not None,
            "item_id": free.item_id if free else None,
            "deal_title": (free.title if free else None) or (paid.title if paid else None),
            "paid_price": paid.price if paid and free is None else None,
        }
    price = deal_price(record)
    if not price:
        price = money(record["price"]) if "price" in record else None
    free_flag = first(record, _FREE_KEYS)
    paid_slot = (free_flag is not None and to_bool(free_flag) is False) or bool(price and price > 0)
    item_id = None if paid_slot else first(record, _ITEM_ID_KEYS)
    return {
        "available": available,
        "seats_left": seats,
        "free": not paid_slot,
        "item_id": None if item_id is None else to_id(item_id),
        "paid_price": price if paid_slot else None,
    }


def _available(record: dict[str, Any]) -> bool:
    if record.keys().isdisjoint(_AVAILABILITY_KEYS):
        status = record.get("status")
        return not (isinstance(status, str) and _says_unavailable(status))
    for key in AVAILABILITY_KEYS:
        if key not in record:
            continue
        value = record[key]
        if key in ("soldOut", "sold_out"):
            return to_bool(value) is not True
        if key == "availableSeats":
            seats = to_float(value)
            return seats is None or seats > 0
        flag = to_bool(value)
        if flag is not None:
            return flag
        if isinstance(value, str):
            return not _says_unavailable(value)
    status = record.get("status")
    return not (isinstance(status, str) and _says_unavailable(status))


def _says_unavailable(text: str) -> bool:
    return _UNAVAILABLE_RE.search(text[:60].lower().replace("_", " ")) is not None
