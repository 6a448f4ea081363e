"""Summary-only results as cards, where the tool makes the kind of record clear.

A connector may pass only the prose of a summary result. Its numbered lines still carry
names, prices and `(ID: …)`, so products, restaurants, dishes, slots and addresses become
cards whose buttons act on those ids. Anything else (a cart, an order, a confirmation)
is shown as the prose itself: an honest text card, never a guessed confirmation.
"""

from __future__ import annotations

import re
from typing import Any

from swiggy_core.parsers._values import to_float, to_int
from swiggy_core.parsers.catalog_results import (
    ProductItem,
    ProductsResult,
    RestaurantItem,
    RestaurantsResult,
)
from swiggy_core.parsers.choice_results import (
    AddressesResult,
    AddressItem,
    TimeSlot,
    TimeSlotsResult,
)
from swiggy_core.parsers.clock import clock_minutes, iso_date_in
from swiggy_core.parsers.results import ParsedToolResult
from swiggy_core.parsers.routing import Route, is_menu_tool, route_for
from swiggy_core.parsers.slots import slot_moment, slots_result
from swiggy_core.parsers.summary import SummaryLine, read_summary
from swiggy_core.verticals.catalog import search_lists_of

_RESTAURANT_NAME_RE = re.compile(r"restaurant|dineout", re.IGNORECASE)
_RATING_RE = re.compile(r"^(\d(?:\.\d{1,2})?)\s*★$|^★\s*(\d(?:\.\d{1,2})?)$")
_MINUTES_RE = re.compile(r"^(\d{1,3})(?:\s*[-–]\s*\d{1,3})?\s*min", re.IGNORECASE)
_DISTANCE_RE = re.compile(r"^(\d{1,3}(?:\.\d{1,2})?)\s*km$", re.IGNORECASE)
_SEATS_RE = re.compile(r"^(\d{1,4})\s+(?:left|seats?|tables?)", re.IGNORECASE)
_PACK_RE = re.compile(
    r"^\d[\d.,]*\s*(?:x\s*\d+\s*)?(?:ml|l|g|kg|gm|pcs?|pieces?|pack|units?)\b", re.I
)
_MAX_TEXT_LINES = 2_000  # as many as read_summary reads
_MAX_LINE_CHARS = 1_000
_CLOSED_WORDS = frozenset({"closed", "closed now", "unavailable", "not delivering"})
_OUT_OF_STOCK_WORDS = ("out of stock", "sold out", "unavailable")
_FULL_WORDS = ("full", "sold out", "unavailable", "no seats")


def summary_result(
    tool_name: str, text: str, vertical_id: str, tool_input: dict[str, Any] | None
) -> ParsedToolResult | None:
    """Cards from a summary's numbered lines, or None (the caller shows the prose)."""
    lines = read_summary(text)
    if not lines:
        return None
    route = route_for(tool_name)
    if route is Route.SLOTS:
        # Per-date meal windows ("2026-11-21 — Dinner 7–10 PM") carry no bookable time.
        timed = [line for line in lines if _is_clock_name(line.name)]
        return _slots(text, timed, tool_input or {}) if timed else None
    if route is Route.ADDRESS:
        return AddressesResult(items=[_address(line) for line in lines])
    if route is not Route.SEARCH:
        return None
    if _lists_restaurants(tool_name, vertical_id, lines):
        return RestaurantsResult(items=[_restaurant(line) for line in lines])
    if search_lists_of(vertical_id) == "dishes":
        return ProductsResult(kind="menu", items=[_dish(line) for line in lines])
    return ProductsResult(kind="grocery", items=[_product(line) for line in lines])


def _lists_restaurants(tool_name: str, vertical_id: str, lines: list[SummaryLine]) -> bool:
    if search_lists_of(vertical_id) == "restaurants":
        return True
    if is_menu_tool(tool_name):
        return False
    if _RESTAURANT_NAME_RE.search(tool_name[:128]):
        return True
    return all("for two" in " ".join(line.details).lower() for line in lines)


def _id(line: SummaryLine, *names: str) -> str | None:
    """A named id of the line, matched without case or spaces (`SKU`, `Item`, `restaurantId`)."""
    wanted = {name.lower() for name in names}
    for key, value in line.ids.items():
        if key.replace(" ", "").lower() in wanted:
            return value
    return None


def _lowered(line: SummaryLine) -> list[str]:
    return [detail.lower() for detail in line.details]


def _product(line: SummaryLine) -> ProductItem:
    sku = _id(line, "sku", "skuid")
    spin = _id(line, "spin", "spinid") or (line.record_id if sku else None)
    pack = next((d for d in line.details if _PACK_RE.match(d)), None)
    first = line.details[0] if line.details else None
    brand = first if first and first != pack and not any(c.isdigit() for c in first) else None
    return ProductItem(
        name=line.name,
        product_id=_id(line, "product", "productid") or (None if spin else line.record_id),
        spin_id=spin,
        sku_id=sku,
        brand=brand,
        quantity_description=pack,
        price=line.price,
        mrp=_mrp(line),
        in_stock=not any(w in d for d in _lowered(line) for w in _OUT_OF_STOCK_WORDS),
    )


def _mrp(line: SummaryLine) -> float | None:
    for detail in line.details:
        position = detail.upper().find("MRP")
        if position >= 0:
            return to_float(detail[position + 3 :].lstrip(" :₹"))
    return None


def _dish(line: SummaryLine) -> ProductItem:
    lowered = _lowered(line)
    veg = True if "veg" in lowered else False if {"non-veg", "nonveg"} & set(lowered) else None
    return ProductItem(
        name=line.name,
        menu_item_id=_id(line, "item", "itemid", "menuitemid") or line.record_id,
        price=line.price,
        is_veg=veg,
        in_stock=not any(w in d for d in lowered for w in _OUT_OF_STOCK_WORDS),
        restaurant_id=_id(line, "restaurantid", "restaurant"),
        bestseller="bestseller" in lowered,
    )


def _restaurant(line: SummaryLine) -> RestaurantItem:
    rating = minutes = distance = None
    cost = is_open = None
    plain: list[str] = []
    for detail in line.details:
        lowered = detail.lower()
        if (match := _RATING_RE.match(detail)) is not None:
            rating = to_float(match.group(1) or match.group(2))
        elif (match := _MINUTES_RE.match(detail)) is not None:
            minutes = to_int(match.group(1))
        elif (match := _DISTANCE_RE.match(detail)) is not None:
            distance = to_float(match.group(1))
        elif "₹" in detail:
            cost = to_float(detail[detail.find("₹") :])
        elif lowered in _CLOSED_WORDS:
            is_open = False
        elif lowered in ("open", "open now"):
            is_open = True
        elif not any(c.isdigit() for c in detail):
            plain.append(detail)
    return RestaurantItem(
        name=line.name,
        restaurant_id=line.record_id,
        cuisines=[c.strip() for c in plain[0].split(",") if c.strip()] if plain else [],
        rating=rating if rating is not None and 0 <= rating <= 5 else None,
        cost_for_two=cost,
        delivery_time_minutes=minutes,
        locality=plain[1] if len(plain) > 1 else None,
        is_open=is_open,
        distance_km=distance,
    )


def _address(line: SummaryLine) -> AddressItem:
    if not line.details:
        return AddressItem(address=line.name, address_id=line.record_id)
    return AddressItem(
        address=", ".join(line.details), address_id=line.record_id, label=line.name[:60]
    )


def _slots(text: str, lines: list[SummaryLine], tool_input: dict[str, Any]) -> TimeSlotsResult:
    dates = _line_dates(text, lines)
    slots = [_slot(line, date, tool_input) for line, date in zip(lines, dates, strict=True)]
    restaurant = tool_input.get("restaurantId")
    restaurant_id = str(restaurant) if restaurant is not None else None
    return slots_result([slot.model_dump() for slot in slots], tool_input, restaurant_id)


def _is_clock_name(name: str) -> bool:
    return iso_date_in(name) is None and clock_minutes(name[:40]) is not None


def _line_dates(text: str, lines: list[SummaryLine]) -> list[str | None]:
    """The date each record falls under: the last ISO date written above it (or in it)."""
    dates: list[str | None] = []
    current: str | None = None
    for raw in text.splitlines()[:_MAX_TEXT_LINES]:
        line = raw.strip()[:_MAX_LINE_CHARS]
        current = iso_date_in(line) or current
        if len(dates) < len(lines) and lines[len(dates)].raw == line:
            dates.append(current)
    return dates + [None] * (len(lines) - len(dates))


def _slot(line: SummaryLine, date: str | None, tool_input: dict[str, Any]) -> TimeSlot:
    lowered = _lowered(line)
    seats = next((to_int(m.group(1)) for d in lowered if (m := _SEATS_RE.match(d))), None)
    full = any(w in d for d in lowered for w in _FULL_WORDS) or seats == 0
    paid = any("paid" in d for d in lowered) or bool(line.price and line.price > 0)
    minutes, requested = slot_moment(line.name, date, tool_input)
    return TimeSlot(
        time=line.name[:40],
        slot_id=line.record_id,
        item_id=None if paid else _id(line, "item", "itemid"),
        date=date,
        available=not full,
        free=not paid,
        seats_left=seats,
        paid_price=line.price if paid else None,
        meal=line.details[0] if line.details and not line.details[0][:1].isdigit() else None,
        minutes=minutes,
        requested=requested,
    )
