"""Dineout payloads in the shapes Swiggy documents (SWIGGY_REFERENCE.md), small parsers.

Every venue offers two prebooking deals per slot: a FREE table reservation (`isFree: true`,
`bookingPrice: 0`) and a PAID prime deal (`isFree: false`, `bookingPrice > 0`). Only the free
one can be booked here: a paid deal needs an online payment, which the sandbox never takes.
"""

from __future__ import annotations

import hashlib
from datetime import date, datetime
from typing import Any

from swiggy_core.constants import SWIGGY_TZ
from swiggy_core.formatting import rupees
from swiggy_sandbox.catalog import SavedAddress, Slot, Venue, haversine_km
from swiggy_sandbox.catalog.slots import MEAL_WINDOWS
from swiggy_sandbox.catalog.wire import image_url
from swiggy_sandbox.shop.errors import ShopError

CONFIRMED, CANCELLED, COMPLETED = "CONFIRMED", "CANCELLED", "COMPLETED"


def parse_day(text: str) -> date:
    """'YYYY-MM-DD' or epoch seconds as a string (both accepted by the real tool)."""
    text = str(text).strip()
    try:
        if text.isdigit():
            return datetime.fromtimestamp(int(text), SWIGGY_TZ).date()
        return date.fromisoformat(text)
    except (ValueError, OverflowError, OSError) as exc:
        raise ShopError(f"Invalid date '{text}': use YYYY-MM-DD.") from exc


def clock_label(hhmm: str) -> str:
    """'20:00' → '8:00 PM'."""
    return datetime.strptime(hhmm, "%H:%M").strftime("%I:%M %p").lstrip("0")


def location_wire(index: int, address: SavedAddress) -> dict[str, Any]:
    """A saved location as get_saved_locations documents it.

    No coordinates, as documented: a search by `addressId` answers with the latitude and
    longitude that details, slots and booking reuse.
    """
    return {
        "index": index,
        "id": address.id,
        "addressLine": address.address_line,
        "phoneNumber": address.phone,
        "addressCategory": address.category,
        "addressTag": address.label,
    }


def _ticket(item_id: str) -> str:
    """The ticket part of an itemId ('<restaurantId>-<ticketId>')."""
    return item_id.rsplit("-", 1)[-1]


def _rating_count(venue: Venue) -> int:
    return 150 + int(hashlib.sha1(venue.id.encode()).hexdigest()[:6], 16) % 4850


def free_title(venue: Venue) -> str:
    """What the free deal says."""
    extra = f" + {venue.free_offer_percent}% off the bill" if venue.free_offer_percent else ""
    return f"Free table reservation{extra}"


def _prime_percent(venue: Venue) -> int:
    return venue.free_offer_percent + 15


def prime_title(venue: Venue) -> str:
    """What the paid prime deal says (a discount title, yet it costs money to book)."""
    return f"Prime deal: {_prime_percent(venue)}% off the bill"


def _distance(venue: Venue, origin: tuple[float, float]) -> str:
    return f"{haversine_km(origin[0], origin[1], venue.lat, venue.lng):.1f} km"


def venue_card(venue: Venue, base_url: str, origin: tuple[float, float]) -> dict[str, Any]:
    """One restaurant of search_restaurants_dineout."""
    offers = []
    if venue.free_offer_percent:
        offers.append(
            {
                "offerTitle": f"Flat {venue.free_offer_percent}% off on total bill",
                "offerDescription": "With a free table reservation",
            }
        )
    return {
        "id": venue.id,
        "name": venue.name,
        "cuisine": list(venue.cuisines),
        "locality": venue.locality,
        "area": venue.locality,
        "rating": {"value": f"{venue.avg_rating:.1f}", "count": _rating_count(venue)},
        "costForTwo": f"{rupees(venue.cost_for_two)} for two",
        "imageUrl": image_url(base_url, "dineout", venue.id),
        "distance": _distance(venue, origin),
        "highlights": [tag.capitalize() for tag in venue.tags],
        "offers": offers,
        "availableDeals": [
            {"dealTitle": free_title(venue), "ticketId": int(_ticket(venue.free_ticket_id))},
            {"dealTitle": prime_title(venue), "ticketId": int(_ticket(venue.prime_ticket_id))},
        ],
    }


def _timings(venue: Venue) -> str:
    windows = (MEAL_WINDOWS[meal] for meal in venue.meals)
    return ", ".join(f"{clock_label(start)} - {clock_label(end)}" for start, end, _ in windows)


def _meal_groups(venue: Venue) -> str:
    return ", ".join(MEAL_WINDOWS[meal][2] for meal in venue.meals)


def _detail_deals(venue: Venue) -> list[dict[str, Any]]:
    groups = _meal_groups(venue)
    return [
        {
            "id": _ticket(venue.free_ticket_id),
            "title": free_title(venue),
            "description": "Reserve a table for free; pay your bill at the restaurant.",
            "discountPercentage": venue.free_offer_percent,
            "coverCharge": 0,
            "slotGroupName": groups,
            "offerCategory": "prebooking",
        },
        {
            "id": _ticket(venue.prime_ticket_id),
            "title": prime_title(venue),
            "description": f"Pay ₹{venue.prime_price} online now to book this deal.",
            "discountPercentage": _prime_percent(venue),
            "coverCharge": venue.prime_price,
            "slotGroupName": groups,
            "offerCategory": "prebooking",
        },
    ]


def venue_details(
    venue: Venue, base_url: str, origin: tuple[float, float], booking_days: int
) -> dict[str, Any]:
    """get_restaurant_details: `{statusCode, statusMessage, data}` plus the coordinates used."""
    image = image_url(base_url, "dineout", venue.id)
    restaurant = {
        "id": venue.id,
        "restaurantId": venue.id,
        "name": venue.name,
        "cuisines": list(venue.cuisines),
        "locality": venue.locality,
        "area": venue.locality,
        "address": venue.address,
        "avgRating": venue.avg_rating,
        "totalRatings": _rating_count(venue),
        "costForTwo": f"{rupees(venue.cost_for_two)} for two",
        "distance": _distance(venue, origin),
        "imageUrl": image,
        "description": f"{', '.join(venue.cuisines)} in {venue.locality}. "
        f"Tables can be reserved up to {booking_days} days ahead.",
        "timings": _timings(venue),
        "deals": _detail_deals(venue),
        "partnerType": "PR",
    }
    return {
        "statusCode": 0,
        "statusMessage": "done successfully",
        "data": {
            "restaurantId": venue.id,
            "restaurant": restaurant,
            "menuImages": [{"imageUrl": image, "label": "Menu"}],
            "menuImageGroups": [{"title": "Menu", "images": [{"imageUrl": image}]}],
            "amenities": ["Table reservation", *(tag.capitalize() for tag in venue.tags)],
        },
        "latitude": origin[0],
        "longitude": origin[1],
    }


def _slot_deals(venue: Venue, slot_id: int, inventory: int) -> list[dict[str, Any]]:
    free, paid = venue.free_ticket_id, venue.prime_ticket_id
    return [
        {
            "itemId": free,
            "ticketId": _ticket(free),
            "slotId": slot_id,
            "title": free_title(venue),
            "discountPercentage": venue.free_offer_percent,
            "coverCharge": 0,
            "displayFee": "Free",
            "bookingPrice": 0,
            "isFree": True,
            "availableInventory": inventory,
        },
        {
            "itemId": paid,
            "ticketId": _ticket(paid),
            "slotId": slot_id,
            "title": prime_title(venue),
            "discountPercentage": _prime_percent(venue),
            "coverCharge": venue.prime_price,
            "displayFee": f"₹{venue.prime_price}",
            "bookingPrice": venue.prime_price,
            "isFree": False,
            "availableInventory": inventory,
        },
    ]


def slot_wire(venue: Venue, slot: Slot, inventory: int) -> dict[str, Any]:
    """A flat slot of get_available_slots; `inventory` 0 means full."""
    inventory = max(0, inventory)
    return {
        "slotId": slot.slot_id,
        "displayTime": clock_label(slot.time),
        "reservationTime": slot.reservation_time,
        "slotGroupName": slot.group,
        "availableInventory": inventory,
        "dateStr": slot.day.isoformat(),
        "isFree": True,
        "deals": _slot_deals(venue, slot.slot_id, inventory),
    }


def check_free_item(venue: Venue, item_id: str) -> str:
    """The free deal's title when `item_id` is the venue's free deal; refuses paid or unknown."""
    if item_id == venue.prime_ticket_id:
        raise ShopError(
            f"Paid deal: '{prime_title(venue)}' costs ₹{venue.prime_price} and needs online "
            "payment (create_cart, then UPI), which the sandbox does not take. Book the free "
            f"deal instead (itemId {venue.free_ticket_id})."
        )
    if item_id != venue.free_ticket_id:
        raise ShopError(f"Invalid itemId '{item_id}': use a deal itemId from get_available_slots.")
    return free_title(venue)


def booking_record(
    order_id: str, venue: Venue, slot: Slot, guests: int, deal_title: str
) -> dict[str, Any]:
    """What the shop keeps about a booking (get_booking_status reads it)."""
    return {
        "orderId": order_id,
        "restaurantId": venue.id,
        "restaurantName": venue.name,
        "restaurantLocation": venue.address,
        "reservationDate": slot.day.isoformat(),
        "reservationTime": clock_label(slot.time),
        "guestCount": guests,
        "dealTitle": deal_title,
    }


def booked_wire(record: dict[str, Any]) -> dict[str, Any]:
    """book_table's answer for a free deal: orderId and status, no bookingId."""
    return {
        "orderId": record["orderId"],
        "isDineout": True,
        "restaurantId": record["restaurantId"],
        "restaurantName": record["restaurantName"],
        "restaurantLocation": record["restaurantLocation"],
        "reservationDate": record["reservationDate"],
        "reservationTime": record["reservationTime"],
        "guestCount": record["guestCount"],
        "status": CONFIRMED,
    }


def status_wire(record: dict[str, Any], status: str, can_cancel: bool) -> dict[str, Any]:
    """get_booking_status's answer."""
    return {
        "orderId": record["orderId"],
        "restaurantId": record["restaurantId"],
        "restaurantName": record["restaurantName"],
        "reservationDate": record["reservationDate"],
        "reservationTime": record["reservationTime"],
        "guestCount": record["guestCount"],
        "dealTitle": record["dealTitle"],
        "status": status,
        "canCancel": can_cancel,
    }
