"""Dineout: venue search, details, seven days of slots and free table bookings."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, func, select

from swiggy_sandbox.catalog import (
    BOOKING_WINDOW_DAYS,
    IST,
    Catalog,
    Venue,
    find_slot,
    slots_for_day,
)
from swiggy_sandbox.catalog.slots import MEAL_WINDOWS
from swiggy_sandbox.catalog.wire import venue_wire
from swiggy_sandbox.shop import db
from swiggy_sandbox.shop.dineout_wire import (
    CANCELLED,
    COMPLETED,
    CONFIRMED,
    booking_wire,
    check_item,
    deals,
    parse_day,
    slot_wire,
)
from swiggy_sandbox.shop.errors import ShopError

MAX_GUESTS = 20
MAX_LIMIT = 30
_VISIT_HOURS = 2


class DineoutShop:
    """Table reservations over the shared database."""

    def __init__(
        self, database: db.Database, catalog: Catalog, clock: Callable[[], datetime], base_url: str
    ) -> None:
        self._db, self._catalog, self._clock, self._base_url = database, catalog, clock, base_url

    def _venue(self, venue_id: str) -> Venue:
        venue = self._catalog.venue(str(venue_id))
        if venue is None:
            raise ShopError(f"Invalid restaurantId '{venue_id}': use an id from search.")
        return venue

    def search(
        self, query: str, origin: tuple[float, float], limit: int, offset: int
    ) -> dict[str, Any]:
        """Venues matching the query (all, nearest first, for an empty query)."""
        if not 1 <= limit <= MAX_LIMIT:
            raise ShopError(f"Invalid limit {limit}: use 1 to {MAX_LIMIT}.")
        if offset < 0:
            raise ShopError(f"Invalid offset {offset}: use 0 or a previous nextOffset.")
        cards = [venue_wire(v, self._base_url, origin) for v in self._catalog.search_venues(query)]
        if not query.strip():
            cards.sort(key=lambda card: card["distanceKm"])
        shown = cards[offset : offset + limit]
        next_offset = offset + limit if offset + limit < len(cards) else None
        return {"restaurants": shown, "nextOffset": next_offset, "totalResults": len(cards)}

    def details(self, venue_id: str, origin: tuple[float, float]) -> dict[str, Any]:
        """A venue card plus timings and its deals."""
        venue = self._venue(venue_id)
        timings = {MEAL_WINDOWS[m][2]: "-".join(MEAL_WINDOWS[m][:2]) for m in venue.meals}
        return {
            **venue_wire(venue, self._base_url, origin),
            "timings": timings,
            "deals": deals(venue, None),
            "bookingWindowDays": BOOKING_WINDOW_DAYS,
        }

    def _today(self) -> date:
        return self._clock().astimezone(IST).date()

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

    def slots(self, venue_id: str, day_text: str) -> dict[str, Any]:
        """Slots from `day_text` to the end of the seven-day booking window."""
        venue = self._venue(venue_id)
        first, today = parse_day(day_text), self._today()
        last = today + timedelta(days=BOOKING_WINDOW_DAYS - 1)
        if not today <= first <= last:
            raise ShopError(f"Invalid date '{day_text}': slots exist from {today} to {last}.")
        now = self._clock().timestamp()
        days = [first + timedelta(days=i) for i in range((last - first).days + 1)]
        per_day = {d: slots_for_day(venue, d) for d in days}
        with self._db.tx() as conn:
            booked = self._booked(
                conn, venue.id, [s.slot_id for ss in per_day.values() for s in ss]
            )
        out = [
            {
                "dateStr": d.isoformat(),
                "slots": [
                    slot_wire(venue, s, s.tables - booked.get(s.slot_id, 0), now) for s in ss
                ],
            }
            for d, ss in per_day.items()
        ]
        return {"restaurantId": venue.id, "restaurantName": venue.name, "days": out}

    def book(
        self,
        user_id: str,
        venue_id: str,
        slot_id: int,
        item_id: str,
        reservation_time: int,
        guest_count: int,
    ) -> dict[str, Any]:
        """Book a free table; refuses taken, past, unknown or paid slots."""
        venue = self._venue(venue_id)
        if not 1 <= guest_count <= MAX_GUESTS:
            raise ShopError(f"Invalid guestCount {guest_count}: book for 1 to {MAX_GUESTS} guests.")
        slot = find_slot(venue, slot_id)
        if slot is None:
            raise ShopError(f"Invalid slotId {slot_id}: not a slot of {venue.name}.")
        if reservation_time != slot.reservation_time:
            raise ShopError(f"Invalid reservationTime {reservation_time} for slot {slot_id}.")
        if slot.reservation_time <= self._clock().timestamp():
            raise ShopError(f"That slot ({slot.day} {slot.time}) is in the past.")
        if slot.day > self._today() + timedelta(days=BOOKING_WINDOW_DAYS - 1):
            raise ShopError(f"Bookings open {BOOKING_WINDOW_DAYS} days ahead only.")
        check_item(venue, item_id)
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
                raise ShopError(f"{venue.name} is fully booked at {slot.time}; pick another slot.")
            number = self._db.next_id(conn, "booking", 5_520_001)
            booking = booking_wire(f"DO{number}", venue, slot, guest_count, item_id)
            conn.execute(
                db.bookings.insert().values(
                    booking_id=booking["bookingId"],
                    user_id=user_id,
                    venue_id=venue.id,
                    slot_id=slot_id,
                    reservation_time=slot.reservation_time,
                    guest_count=guest_count,
                    status=CONFIRMED,
                    created_at=self._clock().timestamp(),
                    payload=booking,
                )
            )
        return booking

    def _rows(self, conn: Connection, user_id: str) -> list[Any]:
        return list(
            conn.execute(
                select(db.bookings)
                .where(db.bookings.c.user_id == user_id)
                .order_by(db.bookings.c.reservation_time, db.bookings.c.booking_id)
            )
        )

    def _status(self, row: Any) -> dict[str, Any]:
        status = row.status
        if (
            status == CONFIRMED
            and row.reservation_time + _VISIT_HOURS * 3600 < self._clock().timestamp()
        ):
            status = COMPLETED
        return {**row.payload, "status": status}

    def status(self, user_id: str, booking_id: str | None) -> dict[str, Any]:
        """One booking, or all of the user's bookings when no id is given."""
        with self._db.tx() as conn:
            rows = self._rows(conn, user_id)
        if not booking_id:
            return {"bookings": [self._status(r) for r in rows]}
        row = next((r for r in rows if r.booking_id == booking_id), None)
        if row is None:
            raise ShopError(f"Invalid bookingId '{booking_id}': no such booking for you.")
        return self._status(row)

    def cancel(self, user_id: str, booking_id: str) -> dict[str, Any]:
        """Cancel an upcoming booking (frees the table)."""
        with self._db.tx() as conn:
            row = next((r for r in self._rows(conn, user_id) if r.booking_id == booking_id), None)
            if row is None:
                raise ShopError(f"Invalid bookingId '{booking_id}': no such booking for you.")
            if row.status != CONFIRMED:
                raise ShopError(f"Booking {booking_id} is already {row.status.lower()}.")
            if row.reservation_time <= self._clock().timestamp():
                raise ShopError(
                    f"Booking {booking_id} has already started; it cannot be cancelled."
                )
            conn.execute(
                db.bookings.update()
                .where(db.bookings.c.booking_id == booking_id)
                .values(status=CANCELLED)
            )
        return {**row.payload, "status": CANCELLED}
