"""A free table: the exact slot and deal, checked against the venue's slots right now."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from swiggy_core.approval.records import ApprovalInvalid, ApprovalView, Prepared, Spend, digest_of
from swiggy_core.constants import SWIGGY_TZ
from swiggy_core.conversation._context import long_date
from swiggy_core.formatting import rupees
from swiggy_core.parsers.deals import read_deal, seats_left
from swiggy_core.parsers.records import iter_nodes
from swiggy_core.parsers.unwrap import NOT_JSON, read_envelope, structured_envelope, unwrap_content

MAX_GUESTS = 20
_BOOKING_NOTES = ("Free table booking: nothing is charged now.",)
_PAID = "That deal is a paid prebook{price}: only free tables can be booked here."
_PAID_FOR_MODEL = (
    "That deal is a paid prebook{price}: it is not bookable here, since this app books "
    "free tables only. Offer the slot's free deal, or another slot that has one."
)
_NOT_A_SLOT = "That time is not one of this restaurant's slots: pick one of them."
_NEAREST_FOR_MODEL = " Offer the nearest free times."


_BOOKING_KEYS = (
    "restaurantId",
    "slotId",
    "itemId",
    "reservationTime",
    "guestCount",
    "latitude",
    "longitude",
)


def prepare_booking(spend: Spend) -> Prepared:
    """The table as asked, if the venue lists that slot now with a free deal and seats."""
    if spend.shop.slots is None:
        raise ApprovalInvalid("This shop lists no slots to book.")
    slots_tool = spend.shop.slots.tool
    missing = [key for key in _BOOKING_KEYS if spend.arguments.get(key) in (None, "")]
    if missing:
        raise ApprovalInvalid(
            _NOT_A_SLOT,
            for_model=f"{spend.tool.name} needs {', '.join(missing)} from {slots_tool}.",
        )
    arguments = {key: spend.arguments[key] for key in _BOOKING_KEYS}
    guests = _int(arguments["guestCount"])
    when = _int(arguments["reservationTime"])
    if guests is None or not 1 <= guests <= MAX_GUESTS:
        raise ApprovalInvalid(
            f"A table is for 1 to {MAX_GUESTS} guests.",
            for_model=f"guestCount must be a whole number from 1 to {MAX_GUESTS}.",
        )
    if when is None:
        raise ApprovalInvalid(
            _NOT_A_SLOT, for_model="reservationTime must be the slot's unix time in seconds."
        )
    local = datetime.fromtimestamp(when, UTC).astimezone(SWIGGY_TZ)
    slots_args = {
        "restaurantId": str(arguments["restaurantId"]),
        "date": local.date().isoformat(),
        "latitude": arguments["latitude"],
        "longitude": arguments["longitude"],
    }
    payload = _payload(spend.read(slots_tool, slots_args))
    slot = _find_slot(payload, arguments["slotId"])
    if slot is None:
        raise ApprovalInvalid(
            _NOT_A_SLOT,
            for_model=f"That slot is not in {slots_tool} for this restaurant.",
        )
    if not _available(slot):
        full = "That slot is full or no longer available."
        raise ApprovalInvalid(full, for_model=full + _NEAREST_FOR_MODEL)
    if _int(slot.get("reservationTime")) not in (None, when):
        raise ApprovalInvalid(
            _NOT_A_SLOT, for_model="reservationTime does not match the chosen slot."
        )
    _check_free_deal(slot, str(arguments["itemId"]))
    arguments["guestCount"] = guests
    arguments["reservationTime"] = when
    name = _restaurant_name(payload)
    view = ApprovalView(
        kind="booking",
        tool=spend.tool.name,
        title="Book this table?",
        restaurant_name=name,
        date_text=long_date(local.date()),
        time_text=_clock(local),
        guests=guests,
        notes=list(_BOOKING_NOTES),
    )
    facts = {"tool": spend.tool.name, "arguments": arguments, "slot": _slot_facts(slot)}
    return Prepared(arguments=arguments, digest=digest_of(facts), view=view)


def _payload(result: Any) -> Any:
    """The data of a read result in either form (structuredContent, JSON text)."""
    unwrapped = unwrap_content(result)
    if unwrapped.value is NOT_JSON:
        raise ApprovalInvalid("Swiggy's answer could not be read; try again.")
    if unwrapped.structured:
        envelope = structured_envelope(unwrapped.value)
    else:
        envelope = read_envelope(unwrapped.value)
    if envelope.ok is False:
        raise ApprovalInvalid(envelope.error or envelope.message or "Swiggy refused the read.")
    return envelope.data


def _find_slot(payload: Any, slot_id: Any) -> dict[str, Any] | None:
    wanted = str(slot_id)
    return next(
        (r for r in iter_nodes(payload) if "slotId" in r and str(r["slotId"]) == wanted), None
    )


def _available(slot: dict[str, Any]) -> bool:
    """Seats left (`availableInventory` 0 is full) and not flagged unavailable."""
    inventory = seats_left(slot)
    if inventory is not None:
        return inventory > 0
    return slot.get("available") is not False


def _check_free_deal(slot: dict[str, Any], item_id: str) -> None:
    """The chosen itemId must be a free deal of this slot with seats; paid is refused."""
    deals = [read_deal(d) for d in slot.get("deals") or [] if isinstance(d, dict)]
    if not deals:
        if slot.get("isFree") is False:
            raise _paid("")
        return  # older shapes carry no deals: the slot itself is the free booking
    deal = next((d for d in deals if d.item_id == item_id), None)
    if deal is None:
        raise ApprovalInvalid(
            "That offer is not one of this slot's deals.",
            for_model="itemId is not one of this slot's deals: use its free deal.",
        )
    if deal.paid:
        price = f" ({rupees(deal.price)})" if deal.price else ""
        raise _paid(price)
    if deal.seats_left == 0:
        gone = "That deal has no tables left."
        raise ApprovalInvalid(gone, for_model=gone + _NEAREST_FOR_MODEL)


def _paid(price: str) -> ApprovalInvalid:
    return ApprovalInvalid(_PAID.format(price=price), for_model=_PAID_FOR_MODEL.format(price=price))


def _slot_facts(slot: dict[str, Any]) -> dict[str, Any]:
    keys = ("slotId", "reservationTime", "available", "availableInventory", "time", "isFree")
    facts = {key: slot.get(key) for key in keys}
    deals = [read_deal(d) for d in slot.get("deals") or [] if isinstance(d, dict)]
    facts["deals"] = [[d.item_id, d.paid, d.price] for d in deals]
    return facts


def _restaurant_name(payload: Any) -> str | None:
    for record in iter_nodes(payload):
        name = record.get("restaurantName") or record.get("restaurant_name")
        if isinstance(name, str) and name.strip():
            return name.strip()
    return None


def _int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


def _clock(moment: datetime) -> str:
    """'8:00 PM' (fixed English, whatever the process locale)."""
    hour = moment.hour % 12 or 12
    return f"{hour}:{moment.minute:02d} {'AM' if moment.hour < 12 else 'PM'}"
