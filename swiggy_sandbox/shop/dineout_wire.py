"""Dineout payload shapes and small parsers: deals, slots, bookings, dates."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from swiggy_sandbox.catalog import IST, Slot, Venue
from swiggy_sandbox.shop.errors import ShopError
from swiggy_sandbox.shop.tracking import iso

CONFIRMED, CANCELLED, COMPLETED = "CONFIRMED", "CANCELLED", "COMPLETED"


def parse_day(text: str) -> date:
    """'YYYY-MM-DD' or epoch seconds as a string (both accepted by the real tool)."""
    text = str(text).strip()
    try:
        if text.isdigit():
            return datetime.fromtimestamp(int(text), IST).date()
        return date.fromisoformat(text)
    except (ValueError, OverflowError, OSError) as exc:
        raise ShopError(f"Invalid date '{text}': use YYYY-MM-DD.") from exc


def deals(venue: Venue, slot_id: int | None) -> list[dict[str, Any]]:
    """The free reservation deal and the paid prime deal (which book_table refuses)."""
    free_percent = venue.free_offer_percent
    prime_percent = free_percent + 15
    return [
        {
            "slotId": slot_id,
            "itemId": venue.free_ticket_id,
            "isFree": True,
            "bookingPrice": 0,
            "displayFee": "₹0",
            "discountPercentage": free_percent,
            "title": "Free table reservation"
            + (f" + {free_percent}% off the bill" if free_percent else ""),
        },
        {
            "slotId": slot_id,
            "itemId": venue.prime_ticket_id,
            "isFree": False,
            "bookingPrice": venue.prime_price,
            "displayFee": f"₹{venue.prime_price}",
            "discountPercentage": prime_percent,
            "title": f"Prime deal: {prime_percent}% off the bill",
        },
    ]


def slot_wire(venue: Venue, slot: Slot, tables_left: int, now: float) -> dict[str, Any]:
    """A slot as get_available_slots returns it; past or full slots are unavailable."""
    available = tables_left > 0 and slot.reservation_time > now
    clock = datetime.strptime(slot.time, "%H:%M")
    return {
        "slotId": slot.slot_id,
        "dateStr": slot.day.isoformat(),
        "time": slot.time,
        "displayTime": clock.strftime("%I:%M %p").lstrip("0"),
        "slotGroupName": slot.group,
        "reservationTime": slot.reservation_time,
        "available": available,
        "availableTables": max(0, tables_left) if available else 0,
        "deals": deals(venue, slot.slot_id),
    }


def check_item(venue: Venue, item_id: str) -> None:
    """Only the venue's free deal can be booked."""
    if item_id == venue.prime_ticket_id:
        raise ShopError(
            "Paid deals need create_cart and payment, which the sandbox does not offer; "
            f"book the free deal (itemId {venue.free_ticket_id})."
        )
    if item_id != venue.free_ticket_id:
        raise ShopError(f"Invalid itemId '{item_id}': use a deal itemId from get_available_slots.")


def booking_wire(
    booking_id: str, venue: Venue, slot: Slot, guests: int, item_id: str
) -> dict[str, Any]:
    """A booking confirmation."""
    return {
        "bookingId": booking_id,
        "orderId": booking_id,
        "status": CONFIRMED,
        "restaurant": {
            "id": venue.id,
            "name": venue.name,
            "address": venue.address,
            "locality": venue.locality,
        },
        "dateStr": slot.day.isoformat(),
        "time": slot.time,
        "slotId": slot.slot_id,
        "reservationTime": slot.reservation_time,
        "reservationAt": iso(slot.reservation_time),
        "guestCount": guests,
        "itemId": item_id,
        "bookingPrice": 0,
        "offer": f"{venue.free_offer_percent}% off the bill" if venue.free_offer_percent else None,
    }
