"""Dineout: venue search, details, seven days of slots and free table bookings."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, func, select

from swiggy_core.constants import SWIGGY_TZ
from swiggy_sandbox.catalog import BOOKING_WINDOW_DAYS, Catalog, Slot, Venue, find_slot
from swiggy_sandbox.catalog.search import tokens
from swiggy_sandbox.catalog.slots import slots_for_day
from swiggy_sandbox.shop import db
from swiggy_sandbox.shop.dineout_cart import (
    DEAL_TICKET_PURCHASE,
    bill_cart,
    check_payment,
    deal_cart,
)
from swiggy_sandbox.shop.dineout_wire import (
    CANCELLED,
    COMPLETED,
    CONFIRMED,
    booked_wire,
    booking_record,
    check_free_item,
    clock_label,
    parse_day,
    slot_wire,
    status_wire,
    venue_card,
    venue_details,
)
from swiggy_sandbox.shop.errors import ShopError
from swiggy_sandbox.shop.tracking import iso

MAX_GUESTS = 20
MAX_LIMIT = 30
_VISIT_HOURS = 2
# entityType narrows the search to one field of the venue.
_ENTITY_FIELDS: dict[str, Callable[[Venue], str]] = {
    "locality": lambda v: v.locality,
    "CUISINE": lambda v: " ".join(v.cuisines),
    "RESTAURANT_CATEGORY": lambda v: " ".join([v.name, *v.tags]),
    "ambience_tags": lambda v: " ".join(v.tags),
}


class DineoutShop:
    """Table reservations over the shared database."""

    def __init__(
        self, database: db.Database, catalog: Catalog, clock: Callable[[], datetime], base_url: str
    ) -> None:
        self._db, self._catalog, self._clock, self._base_url = database, catalog, clock, base_url

    def venue(self, venue_id: str) -> Venue:
        """A venue by id (ShopError when unknown)."""
        venue = self._catalog.venue(str(venue_id))
        if venue is None:
            raise ShopError(f"Invalid restaurantId '{venue_id}': use an id from search.")
        return venue

    def search(
        self,
        query: str,
        entity_type: str | None,
        origin: tuple[float, float],
        limit: int,
        offset: int,
    ) -> dict[str, Any]:
        """Venues matching one search term, ranked; the coordinates used come back too."""
        if not query.strip():
            raise ShopError("Missing query: give one term (a cuisine, locality or name).")
        if not 1 <= limit <= MAX_LIMIT:
            raise ShopError(f"Invalid limit {limit}: use 1 to {MAX_LIMIT}.")
        if offset < 0:
            raise ShopError(f"Invalid offset {offset}: use 0 or a previous nextOffset.")
        venues = self._catalog.search_venues(query)
        if entity_type is not None:
            wanted = set(tokens(query))
            field = _ENTITY_FIELDS[entity_type]
            venues = [v for v in venues if wanted & set(tokens(field(v)))]
        shown = venues[offset : offset + limit]
        data: dict[str, Any] = {
            "restaurants": [venue_card(v, self._base_url, origin) for v in shown],
            "latitude": origin[0],
            "longitude": origin[1],
            "total": len(venues),
            "offset": offset,
        }
        if offset + limit < len(venues):
            data["nextOffset"] = offset + limit
        return data

    def details(self, venue_id: str, origin: tuple[float, float]) -> dict[str, Any]:
        """Details, timings and the venue's deals (free and paid)."""
        return venue_details(self.venue(venue_id), self._base_url, origin, BOOKING_WINDOW_DAYS)

    def _today(self) -> date:
        return self._clock().astimezone(SWIGGY_TZ).date()

    def _booked(self, conn: Connection, venue_id: str, slot_ids: list[int]) -> dict[int, int]:
        rows = conn.execute(
            select(db.bookings.c.slot_id, func.count())
            .where(
                (db.bookings.c.venue_id == venue_id)
                & (db.bookings.c.status == CONFIRMED)
                & db.bookings.c.slot_id.in_(slot_ids)
            )
            .group_by(db.bookings.c.slot_id)
        )
        return {slot_id: count for slot_id, count in rows}

    def slots(self, venue_id: str, day_text: str, origin: tuple[float, float]) -> dict[str, Any]:
        """Flat slots for up to seven days from `day_text` (inside the booking window).

        Past slots are left out; full ones stay listed with `availableInventory: 0`.
        """
        venue = self.venue(venue_id)
        first, today = parse_day(day_text), self._today()
        last = today + timedelta(days=BOOKING_WINDOW_DAYS - 1)
        if not today <= first <= last:
            raise ShopError(f"Invalid date '{day_text}': slots exist from {today} to {last}.")
        now = self._clock().timestamp()
        days = [first + timedelta(days=i) for i in range((last - first).days + 1)]
        offered = [s for d in days for s in slots_for_day(venue, d) if s.reservation_time > now]
        with self._db.tx() as conn:
            booked = self._booked(conn, venue.id, [s.slot_id for s in offered])
        return {
            "slots": [slot_wire(venue, s, s.tables - booked.get(s.slot_id, 0)) for s in offered],
            "restaurantId": venue.id,
            "date": first.isoformat(),
            "restaurantName": venue.name,
            "latitude": origin[0],
            "longitude": origin[1],
        }

    def bookable_slot(self, venue: Venue, slot_id: int, reservation_time: int) -> Slot:
        """The slot to book; refuses unknown, mismatched, past or too-far slots."""
        slot = find_slot(venue, slot_id)
        if slot is None:
            raise ShopError(f"Invalid slotId {slot_id}: not a slot of {venue.name}.")
        if reservation_time != slot.reservation_time:
            raise ShopError(f"Invalid reservationTime {reservation_time} for slot {slot_id}.")
        if slot.reservation_time <= self._clock().timestamp():
            raise ShopError(f"That slot ({slot.day} {clock_label(slot.time)}) is in the past.")
        if slot.day > self._today() + timedelta(days=BOOKING_WINDOW_DAYS - 1):
            raise ShopError(f"Bookings open {BOOKING_WINDOW_DAYS} days ahead only.")
        return slot

    def tables_left(self, venue: Venue, slot: Slot) -> int:
        """Tables still free in a slot."""
        with self._db.tx() as conn:
            return slot.tables - self._booked(conn, venue.id, [slot.slot_id]).get(slot.slot_id, 0)

    def cart(
        self,
        venue_id: str,
        cart_type: str,
        deal: tuple[int, str, int, int] | None,
        bill_amount: float | None,
    ) -> tuple[dict[str, Any], str]:
        """create_cart: `deal` is (slotId, itemId, reservationTime, guestCount)."""
        venue = self.venue(venue_id)
        if cart_type == DEAL_TICKET_PURCHASE:
            if deal is None:
                raise ShopError(
                    "Missing slotId, itemId, reservationTime or guestCount: all four are "
                    "needed for DEAL_TICKET_PURCHASE."
                )
            slot_id, item_id, reservation_time, guests = deal
            self._check_guests(guests)
            slot = self.bookable_slot(venue, slot_id, reservation_time)
            if self.tables_left(venue, slot) <= 0:
                raise ShopError(self._full(venue, slot))
            with self._db.tx() as conn:
                number = self._db.next_id(conn, "dineout_cart", 7001)
            return deal_cart(venue, number, item_id, guests)
        if bill_amount is None:
            raise ShopError("Missing billAmount: the bill in rupees is needed for DINEOUT.")
        with self._db.tx() as conn:
            number = self._db.next_id(conn, "dineout_cart", 7001)
        return bill_cart(venue, number, bill_amount)

    @staticmethod
    def _check_guests(guests: int) -> None:
        if not 1 <= guests <= MAX_GUESTS:
            raise ShopError(f"Invalid guestCount {guests}: book for 1 to {MAX_GUESTS} guests.")

    @staticmethod
    def _full(venue: Venue, slot: Slot) -> str:
        return (
            f"Slot unavailable: {venue.name} has no table left at "
            f"{clock_label(slot.time)} on {slot.day}; pick another slot."
        )

    def book(
        self,
        user_id: str,
        venue_id: str,
        slot_id: int,
        item_id: str,
        reservation_time: int,
        guest_count: int,
        payment_method: str | None = None,
        upi_requested: bool = False,
    ) -> dict[str, Any]:
        """Book a free deal; refuses paid deals, full, taken, past or unknown slots."""
        venue = self.venue(venue_id)
        self._check_guests(guest_count)
        slot = self.bookable_slot(venue, slot_id, reservation_time)
        deal_title = check_free_item(venue, item_id)
        check_payment(payment_method, upi_requested)
        with self._db.tx() as conn:
            mine = conn.execute(
                select(db.bookings.c.booking_id).where(
                    (db.bookings.c.user_id == user_id)
                    & (db.bookings.c.venue_id == venue.id)
                    & (db.bookings.c.slot_id == slot_id)
                    & (db.bookings.c.status == CONFIRMED)
                )
            ).scalar()
            if mine:
                raise ShopError(f"You already have booking {mine} at {venue.name} for this slot.")
            if slot.tables - self._booked(conn, venue.id, [slot_id]).get(slot_id, 0) <= 0:
                raise ShopError(self._full(venue, slot))
            number = self._db.next_id(conn, "booking", 5_520_001)
            record = booking_record(f"DO{number}", venue, slot, guest_count, deal_title)
            conn.execute(
                db.bookings.insert().values(
                    booking_id=record["orderId"],
                    user_id=user_id,
                    venue_id=venue.id,
                    slot_id=slot_id,
                    reservation_time=slot.reservation_time,
                    guest_count=guest_count,
                    status=CONFIRMED,
                    created_at=self._clock().timestamp(),
                    payload=record,
                )
            )
        return booked_wire(record)

    def _rows(self, conn: Connection, user_id: str) -> list[Any]:
        return list(
            conn.execute(
                select(db.bookings)
                .where(db.bookings.c.user_id == user_id)
                .order_by(db.bookings.c.reservation_time, db.bookings.c.booking_id)
            )
        )

    def _row(self, conn: Connection, user_id: str, order_id: str) -> Any:
        row = next((r for r in self._rows(conn, user_id) if r.booking_id == order_id), None)
        if row is None:
            raise ShopError(f"Invalid orderId '{order_id}': no such booking for you.")
        return row

    def _status(self, row: Any) -> dict[str, Any]:
        status, now = row.status, self._clock().timestamp()
        if status == CONFIRMED and row.reservation_time + _VISIT_HOURS * 3600 < now:
            status = COMPLETED
        can_cancel = status == CONFIRMED and row.reservation_time > now
        return status_wire(row.payload, status, can_cancel)

    def status(self, user_id: str, order_id: str) -> dict[str, Any]:
        """One booking's status (get_booking_status)."""
        with self._db.tx() as conn:
            return self._status(self._row(conn, user_id, order_id))

    def bookings(self, user_id: str) -> list[dict[str, Any]]:
        """Every booking of the user, soonest first (for tests and the shop's own use)."""
        with self._db.tx() as conn:
            return [self._status(row) for row in self._rows(conn, user_id)]

    def cancel(self, user_id: str, order_id: str, reason: str | None) -> dict[str, Any]:
        """Cancel an upcoming booking (frees the table)."""
        now = self._clock().timestamp()
        with self._db.tx() as conn:
            row = self._row(conn, user_id, order_id)
            if row.status != CONFIRMED:
                raise ShopError(f"Booking {order_id} is already {row.status.lower()}.")
            if row.reservation_time <= now:
                raise ShopError(f"Booking {order_id} has already started; it cannot be cancelled.")
            cancelled_at = iso(now)
            payload = {**row.payload, "cancelledAt": cancelled_at, "cancellationReason": reason}
            conn.execute(
                db.bookings.update()
                .where(db.bookings.c.booking_id == order_id)
                .values(status=CANCELLED, payload=payload)
            )
        return {"orderId": order_id, "status": CANCELLED, "cancelledAt": cancelled_at}
