"""The slot picker: a few days as tabs, each day's times grouped by meal.

Only a slot with tables left and a free deal is a chip that books. A slot whose free deal
has no tables left is a greyed chip; a full slot reads "Full"; a slot offered only as a paid
prebook gets no button at all, just a line saying it is not bookable here (this app books
free tables only). The asked-for time is the one filled chip (filled reads as chosen); its
nearest free neighbours are only outlined in the theme's colour. Chips wrap at their own
width, so a phone shows several on a line instead of one per row.

An older picker (`CardContext.live` False) is read-only: the times as grey text, no buttons.
"""

from __future__ import annotations

import re

import streamlit as st

from swiggy_core.actions import CardAction
from swiggy_core.formatting import (
    clock_label,
    day_label,
    meal_label,
    price_known,
    rupees,
    time_label,
)
from swiggy_core.parsers import SlotDay, TimeSlot, TimeSlotsResult
from swiggy_core.parsers.clock import clock_minutes
from swiggy_ui.cards.context import CardContext
from swiggy_ui.safe_text import plain
from swiggy_ui.state import queue_action

DAYS_SHOWN = 3
MAX_CHIPS_PER_DAY = 24  # a whole day of half-hour slots, so the asked-for time is there
NEIGHBOURS = 2  # free times outlined on each side of the asked-for one
MEAL_ORDER = ("Breakfast", "Lunch", "Dinner")
PAID_NOTE = " — paid prebook, not bookable here"
REQUESTED_ICON = ":material/star:"
DEFAULT_OUTLINE = "#FC8019"  # Swiggy orange, when the theme names no colour of its own
_HEX_COLOUR = re.compile(r"#[0-9A-Fa-f]{3,8}")
READ_ONLY_NOTE = "Earlier times, shown read-only: ask again for the current ones."
# A neighbour chip's key starts with this: the style below outlines it (Streamlit puts
# `st-key-<key>` on the element), without the fill that marks the asked-for time.
NEAR_KEY_PREFIX = "slotnear-"
_NEAR_STYLE = """<style>
[class*="st-key-{prefix}"] button {{ border-color: {color}; box-shadow: inset 0 0 0 1px {color}; }}
</style>"""


def render_time_slots(result: TimeSlotsResult, ctx: CardContext) -> None:
    if not result.days:
        st.caption("No slots were returned.")
        return
    asked = clock_minutes(result.requested_time or ctx.requested_time or "")
    asked_day = result.requested_date or result.days[0].date
    days = result.days[:DAYS_SHOWN]
    if ctx.live and asked is not None and not _open_at(result, asked_day, asked):
        st.warning(f"{clock_label(asked)} is not available; the nearest free times are outlined.")
    if ctx.live and asked is not None:
        # Style only: Streamlit keeps it out of the layout.
        st.html(_NEAR_STYLE.format(prefix=NEAR_KEY_PREFIX, color=_theme_colour()))
    with st.container(border=True):
        if not ctx.live:
            st.caption(READ_ONLY_NOTE)
        panes = st.tabs([plain(day_label(day.date)) or "—" for day in days])
        for index, (pane, day) in enumerate(zip(panes, days, strict=True)):
            with pane:
                when = asked if day.date == asked_day else None
                _day(day, result, f"{ctx.key}-d{index}", when, live=ctx.live)
        if len(result.days) > DAYS_SHOWN:
            st.caption(f"{len(result.days) - DAYS_SHOWN} more days available: ask for a date.")


def meal_groups(slots: list[TimeSlot]) -> list[tuple[str, list[TimeSlot]]]:
    """Slots by meal (breakfast, lunch, dinner, then any other name), each in time order."""
    groups: dict[str, list[TimeSlot]] = {}
    for slot in slots:
        groups.setdefault(meal_label(slot.meal, slot.minutes), []).append(slot)
    for members in groups.values():
        members.sort(key=lambda slot: (slot.minutes is None, slot.minutes or 0))

    def rank(name: str) -> tuple[int, int]:
        first = groups[name][0].minutes
        return (MEAL_ORDER.index(name) if name in MEAL_ORDER else len(MEAL_ORDER), first or 0)

    return [(name, groups[name]) for name in sorted(groups, key=rank)]


def highlighted(slots: list[TimeSlot], requested_minutes: int | None) -> set[int]:
    """Indexes (into `slots`) of the asked-for time and the nearest free times around it."""
    if requested_minutes is None:
        return set()
    free = [i for i, slot in enumerate(slots) if slot.bookable and slot.minutes is not None]
    free.sort(key=lambda i: slots[i].minutes or 0)
    before = [i for i in free if (slots[i].minutes or 0) < requested_minutes][-NEIGHBOURS:]
    after = [i for i in free if (slots[i].minutes or 0) > requested_minutes][:NEIGHBOURS]
    exact = {i for i, slot in enumerate(slots) if slot.minutes == requested_minutes}
    return exact | set(before) | set(after)


def _theme_colour() -> str:
    colour = str(st.get_option("theme.primaryColor") or "")
    return colour if _HEX_COLOUR.fullmatch(colour) else DEFAULT_OUTLINE


def _open_at(result: TimeSlotsResult, date: str, minutes: int) -> bool:
    """Whether the asked-for day has a bookable slot at exactly that time."""
    day = next((day for day in result.days if day.date == date), None)
    return day is not None and any(s.bookable and s.minutes == minutes for s in day.slots)


def _day(day: SlotDay, result: TimeSlotsResult, key: str, asked: int | None, *, live: bool) -> None:
    shown = day.slots[:MAX_CHIPS_PER_DAY]
    near = {id(shown[i]) for i in highlighted(shown, asked)}
    keys = {id(slot): f"{key}-{index}" for index, slot in enumerate(shown)}
    for meal, slots in meal_groups(shown):
        if live:
            _meal(meal, slots, day, result, keys, near, asked)
        else:
            times = ", ".join(plain(time_label(slot.time)) for slot in slots)
            st.caption(f"{plain(meal)}: {times}")


def _meal(
    meal: str,
    slots: list[TimeSlot],
    day: SlotDay,
    result: TimeSlotsResult,
    keys: dict[int, str],
    near: set[int],
    asked: int | None,
) -> None:
    st.caption(f"**{plain(meal)}**")
    chips = [slot for slot in slots if slot.free]
    if chips:
        with st.container(horizontal=True, wrap=True, gap="small"):
            for slot in chips:
                _chip(slot, day, result, keys[id(slot)], id(slot) in near, asked)
    # No free table: a full slot is just full; one with seats but only a paid deal says so.
    full = [slot for slot in slots if not slot.free and not slot.available]
    paid = [slot for slot in slots if not slot.free and slot.available]
    if full:
        st.caption("Full: " + ", ".join(plain(time_label(slot.time)) for slot in full))
    if paid:
        st.caption(" · ".join(_paid_text(slot) for slot in paid) + PAID_NOTE)


def _paid_text(slot: TimeSlot) -> str:
    price = f" {rupees(slot.paid_price)}" if price_known(slot.paid_price) else ""
    return f"{plain(time_label(slot.time))}{price}"


def _help(slot: TimeSlot) -> str | None:
    """What the chip's tooltip says: tables left, meal and the free deal."""
    left = None
    if slot.seats_left is not None:
        left = "Full" if slot.seats_left == 0 else f"{slot.seats_left} left"
    parts = [part for part in (slot.meal, left, slot.deal_title) if part]
    return plain(" · ".join(parts)) if parts else None


def _chip(
    slot: TimeSlot,
    day: SlotDay,
    result: TimeSlotsResult,
    key: str,
    near: bool,
    asked: int | None,
) -> None:
    when = time_label(slot.time)
    action = CardAction(
        kind="pick_slot",
        label=f"Book the {when} slot on {day_label(day.date)}",
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
    requested = asked is not None and slot.minutes == asked
    outlined = near and slot.bookable and not requested
    st.button(
        plain(when) or "—",
        key=NEAR_KEY_PREFIX + key if outlined else key,
        help=_help(slot),
        disabled=not slot.bookable,
        type="primary" if requested and slot.bookable else "secondary",
        icon=REQUESTED_ICON if requested else None,
        on_click=queue_action,
        args=(action,),
    )
