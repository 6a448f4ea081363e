"""Cards to choose from before ordering or booking: Dineout time slots, saved addresses."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from swiggy_core.parsers.card_base import CardModel, ToolResultCard


class TimeSlot(CardModel):
    """One time (Dineout); `item_id` and `slot_id` go back to `book_table`.

    `available` says there are seats; `free` says a free deal can book it. Only a slot
    that is both is bookable here: `item_id` is only ever a free deal's id, a slot with
    paid prebook deals alone keeps `item_id` None and its price in `paid_price`.
    """

    time: str
    slot_id: str | None = None
    item_id: str | None = None
    date: str | None = None
    available: bool = True
    free: bool = True
    seats_left: int | None = None
    paid_price: float | None = None
    deal_title: str | None = None
    meal: str | None = None
    reservation_time: int | None = None
    minutes: int | None = None
    requested: bool = False

    @property
    def bookable(self) -> bool:
        """Seats left and a free deal: the only slots this app books."""
        return self.available and self.free


class SlotDay(CardModel):
    """The slots of one date, requested/nearest time first when one was asked for."""

    date: str
    slots: list[TimeSlot] = Field(default_factory=list)


class TimeSlotsResult(ToolResultCard):
    """Slots grouped by date; the requested date comes first."""

    type: Literal["time_slots"] = "time_slots"
    days: list[SlotDay] = Field(default_factory=list)
    restaurant_id: str | None = None
    requested_date: str | None = None
    requested_time: str | None = None
    requested_available: bool | None = None


class AddressItem(CardModel):
    """A saved address or location."""

    address: str
    address_id: str | None = None
    label: str | None = None
    lat: float | None = None
    lng: float | None = None


class AddressesResult(ToolResultCard):
    """Saved addresses to choose from (one page of them when `has_more`)."""

    type: Literal["addresses"] = "addresses"
    items: list[AddressItem] = Field(default_factory=list)
    total: int | None = None
    has_more: bool = False
