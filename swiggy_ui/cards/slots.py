"""Time-slot chips grouped by day; picking one asks for a booking (confirmed later).

Only a slot with tables left and a free deal is a chip that books. A full slot is a
greyed chip; a slot offered only as a paid prebook gets no button at all, just a line
saying it is not bookable here (this app books free tables only).
"""

from __future__ import annotations

import streamlit as st

from swiggy_core.actions import CardAction
from swiggy_core.formatting import price_known, rupees
from swiggy_core.parsers import SlotDay, TimeSlot, TimeSlotsResult
from swiggy_ui.cards.context import CardContext
from swiggy_ui.safe_text import plain
from swiggy_ui.state import queue_action

CHIPS_PER_ROW = 6
DAYS_SHOWN = 3
MAX_CHIPS_PER_DAY = 24  # a whole day of half-hour slots, so the asked-for time is there
PAID_NOTE = " — paid prebook, not bookable here"


def render_time_slots(result: TimeSlotsResult, ctx: CardContext) -> None:
    if not result.days:
        st.caption("No slots were returned.")
        return
    if result.requested_available is False and result.requested_time:
        st.warning(
            f"{plain(result.requested_time)} is not available; the nearest times come first."
        )
    with st.container(border=True):
        for day_index, day in enumerate(result.days[:DAYS_SHOWN]):
            _day_row(day, result, f"{ctx.key}-d{day_index}")
        if len(result.days) > DAYS_SHOWN:
            st.caption(f"{len(result.days) - DAYS_SHOWN} more days available: ask for a date.")


def _day_row(day: SlotDay, result: TimeSlotsResult, key: str) -> None:
    st.markdown(f"**{plain(day.date)}**")
    shown = day.slots[:MAX_CHIPS_PER_DAY]
    chips = [slot for slot in shown if slot.free]
    for start in range(0, len(chips), CHIPS_PER_ROW):
        row = chips[start : start + CHIPS_PER_ROW]
        for offset, (column, slot) in enumerate(zip(st.columns(CHIPS_PER_ROW), row, strict=False)):
            with column:
                _chip(slot, day, result, f"{key}-{start + offset}")
    # No free table: a full slot is just full; one with seats but only a paid deal says so.
    full = [slot for slot in shown if not slot.free and not slot.available]
    paid = [slot for slot in shown if not slot.free and slot.available]
    if full:
        st.caption("Full: " + ", ".join(plain(slot.time) for slot in full))
    if paid:
        st.caption(" · ".join(_paid_text(slot) for slot in paid) + PAID_NOTE)


def _paid_text(slot: TimeSlot) -> str:
    price = f" {rupees(slot.paid_price)}" if price_known(slot.paid_price) else ""
    return f"{plain(slot.time)}{price}"


def _help(slot: TimeSlot) -> str | None:
    """What the chip's tooltip says: tables left, meal and the free deal."""
    left = None
    if slot.seats_left is not None:
        left = "full" if slot.seats_left == 0 else f"{slot.seats_left} left"
    parts = [part for part in (slot.meal, left, slot.deal_title) if part]
    return plain(" · ".join(parts)) if parts else None


def _chip(slot: TimeSlot, day: SlotDay, result: TimeSlotsResult, key: str) -> None:
    action = CardAction(
        kind="pick_slot",
        label=f"Book the {slot.time} slot on {day.date}",
        ids={
            name: value
            for name, value in {
                "restaurantId": result.restaurant_id,
                "slotId": slot.slot_id,
                "itemId": slot.item_id,
                "reservationTime": slot.reservation_time,
                "date": day.date,
                "time": slot.time,
            }.items()
            if value is not None
        },
    )
    st.button(
        plain(slot.time) or "—",
        key=key,
        help=_help(slot),
        disabled=not slot.bookable,
        type="primary" if slot.requested else "secondary",
        on_click=queue_action,
        args=(action,),
        width="stretch",
    )
