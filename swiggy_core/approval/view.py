"""What an approval acts on: the exact arguments, what the person is shown, and its digest.

The app reads the current cart (or the slot) itself through its MCP client; the digest of
those facts is stored with the approval and compared again right before executing, so
a confirmation can never apply to something the person did not see.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from swiggy_core.approval_tool import ApprovalRequest, spending_tool_for
from swiggy_core.conversation._context import LOCAL_TZ, address_view, long_date
from swiggy_core.errors import ErrorCode, SwiggyAssistantError
from swiggy_core.limits import Budget, check_spend, paise
from swiggy_core.parsers import AddressItem, BillLine, CartLine, CartResult, parse_tool_result
from swiggy_core.parsers.deals import read_deal, seats_left
from swiggy_core.parsers.records import iter_nodes
from swiggy_core.parsers.unwrap import NOT_JSON, read_envelope, structured_envelope, unwrap_content
from swiggy_core.saved_addresses import default_address, saved_addresses
from swiggy_core.verticals import Vertical

# Calls a read tool of the vertical's server: (tool name, arguments) → result text.
Reader = Callable[[str, dict[str, Any]], str]
CASH_ON_DELIVERY = "COD"
MAX_GUESTS = 20
_CART_READERS = {"instamart": "get_cart", "food": "get_food_cart"}
_ORDER_NOTES = ("Orders cannot be cancelled once placed.",)
_BOOKING_NOTES = ("Free table booking: nothing is charged now.",)
_PAID_MESSAGE = (
    "That deal is a paid prebook{price}: it is not bookable here, since this app books "
    "free tables only. Offer the slot's free deal, or another slot that has one."
)


class ApprovalInvalid(SwiggyAssistantError):
    """The request cannot be approved as asked; the message tells the model why."""

    code = ErrorCode.APPROVAL_INVALID


class AddressChoice(BaseModel):
    """One saved address the dialog offers."""

    address_id: str
    label: str = ""
    text: str = ""


class ApprovalView(BaseModel):
    """Exactly what the Confirm dialog shows (stored with the approval)."""

    kind: Literal["order", "booking", "action"]
    tool: str
    title: str
    lines: list[CartLine] = Field(default_factory=list)
    bill: list[BillLine] = Field(default_factory=list)
    to_pay: float | None = None
    restaurant_name: str | None = None
    address_id: str | None = None
    address_label: str | None = None
    address_text: str | None = None
    date_text: str | None = None
    time_text: str | None = None
    guests: int | None = None
    payment: str | None = None
    note_to_restaurant: str | None = None
    notes: list[str] = Field(default_factory=list)
    # A person's own server's tool: which server, and the exact arguments as shown.
    server_label: str | None = None
    arguments_text: str | None = None
    # No address was chosen before asking: the saved ones, for the dialog to choose from
    # (the view is for `address_label` / `address_text`, the first or the request's).
    address_choices: list[AddressChoice] = Field(default_factory=list)


class Prepared(BaseModel):
    """An approval ready to store: arguments, digest and view."""

    arguments: dict[str, Any]
    digest: str
    view: ApprovalView


def prepare(
    vertical: Vertical,
    request: ApprovalRequest,
    address: Any,
    read: Reader,
    budget: Budget | None = None,
) -> Prepared:
    """Validate the model's request against the current state and the person's limits.

    Raises ApprovalInvalid, or SpendingLimitExceeded when a limit is in the way.
    """
    spender = spending_tool_for(vertical)
    if request.tool != spender:
        raise ApprovalInvalid(f"Only {spender} can be approved here, not {request.tool!r}.")
    if vertical.server_key == "dineout":
        prepared = _prepare_booking(vertical, request, read)
    else:
        prepared = _prepare_order(vertical, request, address, read)
    if budget is not None:
        check_spend(budget, approval_amount(prepared.view))
    return prepared


def recheck(
    vertical: Vertical,
    tool: str,
    arguments: dict[str, Any],
    read: Reader,
    budget: Budget | None = None,
) -> str:
    """The digest of the same action against the state now (ApprovalInvalid if it is gone).

    The limits are checked again too: they may have changed since the person was asked.
    """
    request = ApprovalRequest(tool=tool, arguments=arguments)
    if vertical.server_key == "dineout":
        prepared = _prepare_booking(vertical, request, read)
    else:
        fixed = {"address_id": arguments.get("addressId"), "label": "", "address": ""}
        prepared = _prepare_order(vertical, request, fixed, read, offer_addresses=False)
    if budget is not None:
        check_spend(budget, approval_amount(prepared.view))
    return prepared.digest


def approval_amount(view: ApprovalView) -> int | None:
    """What the action spends, in paise: the cart's to-pay; a free table booking is 0.

    None when an order's total cannot be read (no to-pay and a line without a price).
    """
    if view.kind in ("booking", "action"):
        # Only free deals are ever approved (paid prebooks are refused above); a person's
        # own server's tool spends nothing the app can see.
        return 0
    if view.to_pay is not None:
        return paise(view.to_pay)
    totals = [line.line_total for line in view.lines]
    if not totals or any(total is None for total in totals):
        return None
    return sum(paise(total) for total in totals if total is not None)


def _prepare_order(
    vertical: Vertical,
    request: ApprovalRequest,
    address: Any,
    read: Reader,
    *,
    offer_addresses: bool = True,
) -> Prepared:
    chosen = address_view(address)
    # The dialog offers the saved addresses (the order can go elsewhere in one step); with
    # none chosen yet it starts from the one the request names, or the first.
    choices = saved_addresses(read) if offer_addresses else []
    if chosen is None:
        hint = request.arguments.get("addressId")
        chosen = address_view(default_address(choices, hint if isinstance(hint, str) else None))
        if chosen is None:
            raise ApprovalInvalid(
                "You have no saved delivery address yet: add one in the Swiggy app first."
            )
    reader = _CART_READERS[vertical.server_key]
    read_args = {"addressId": chosen.id} if reader == "get_food_cart" else {}
    cart = parse_tool_result(reader, read(reader, read_args), vertical.id, read_args)
    if not isinstance(cart, CartResult) or not cart.items:
        raise ApprovalInvalid("The cart is empty, so there is nothing to order.")
    unavailable = [line.name for line in cart.items if not line.in_stock]
    if unavailable:
        raise ApprovalInvalid(
            f"Out of stock in the cart: {', '.join(unavailable)}. Remove or replace it first."
        )
    arguments: dict[str, Any] = {"addressId": chosen.id, "paymentMethod": CASH_ON_DELIVERY}
    note = request.arguments.get("noteToRestaurant")
    if request.tool == "place_food_order" and isinstance(note, str) and note.strip():
        arguments["noteToRestaurant"] = note.strip()[:200]
    view = ApprovalView(
        kind="order",
        tool=request.tool,
        title="Place this order?",
        lines=cart.items,
        bill=cart.bill,
        to_pay=cart.to_pay,
        restaurant_name=cart.restaurant_name,
        address_id=chosen.id,
        address_label=chosen.label or None,
        address_text=chosen.text or None,
        payment="Cash on delivery",
        note_to_restaurant=arguments.get("noteToRestaurant"),
        notes=list(_ORDER_NOTES),
        address_choices=[_choice(item) for item in choices],
    )
    facts = {
        "tool": request.tool,
        "arguments": arguments,
        "lines": [[line.key, line.name, line.quantity, line.line_total] for line in cart.items],
        "to_pay": cart.to_pay,
        "restaurant": cart.restaurant_id,
    }
    return Prepared(arguments=arguments, digest=_digest(facts), view=view)


_BOOKING_KEYS = (
    "restaurantId",
    "slotId",
    "itemId",
    "reservationTime",
    "guestCount",
    "latitude",
    "longitude",
)


def _prepare_booking(vertical: Vertical, request: ApprovalRequest, read: Reader) -> Prepared:
    missing = [key for key in _BOOKING_KEYS if request.arguments.get(key) in (None, "")]
    if missing:
        raise ApprovalInvalid(f"book_table needs {', '.join(missing)} from get_available_slots.")
    arguments = {key: request.arguments[key] for key in _BOOKING_KEYS}
    guests = _int(arguments["guestCount"])
    when = _int(arguments["reservationTime"])
    if guests is None or not 1 <= guests <= MAX_GUESTS:
        raise ApprovalInvalid(f"guestCount must be a whole number from 1 to {MAX_GUESTS}.")
    if when is None:
        raise ApprovalInvalid("reservationTime must be the slot's unix time in seconds.")
    local = datetime.fromtimestamp(when, UTC).astimezone(LOCAL_TZ)
    slots_args = {
        "restaurantId": str(arguments["restaurantId"]),
        "date": local.date().isoformat(),
        "latitude": arguments["latitude"],
        "longitude": arguments["longitude"],
    }
    payload = _payload(read("get_available_slots", slots_args))
    slot = _find_slot(payload, arguments["slotId"])
    if slot is None:
        raise ApprovalInvalid("That slot is not in get_available_slots for this restaurant.")
    if not _available(slot):
        raise ApprovalInvalid(
            "That slot is full or no longer available: offer the nearest free times."
        )
    if _int(slot.get("reservationTime")) not in (None, when):
        raise ApprovalInvalid("reservationTime does not match the chosen slot.")
    _check_free_deal(slot, str(arguments["itemId"]))
    arguments["guestCount"] = guests
    arguments["reservationTime"] = when
    name = _restaurant_name(payload)
    view = ApprovalView(
        kind="booking",
        tool=request.tool,
        title="Book this table?",
        restaurant_name=name,
        date_text=long_date(local.date()),
        time_text=_clock(local),
        guests=guests,
        notes=list(_BOOKING_NOTES),
    )
    facts = {"tool": request.tool, "arguments": arguments, "slot": _slot_facts(slot)}
    return Prepared(arguments=arguments, digest=_digest(facts), view=view)


def _digest(facts: dict[str, Any]) -> str:
    canonical = json.dumps(facts, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


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
            raise ApprovalInvalid(_PAID_MESSAGE.format(price=""))
        return  # older shapes carry no deals: the slot itself is the free booking
    deal = next((d for d in deals if d.item_id == item_id), None)
    if deal is None:
        raise ApprovalInvalid("itemId is not one of this slot's deals: use its free deal.")
    if deal.paid:
        price = f" (₹{deal.price:g})" if deal.price else ""
        raise ApprovalInvalid(_PAID_MESSAGE.format(price=price))
    if deal.seats_left == 0:
        raise ApprovalInvalid("That deal has no tables left: offer the nearest free times.")


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


def _choice(item: AddressItem) -> AddressChoice:
    return AddressChoice(
        address_id=str(item.address_id), label=item.label or "", text=item.address or ""
    )


def same_order(first: ApprovalView, second: ApprovalView) -> bool:
    """Whether two views ask to pay for the same lines and the same total."""

    def lines(view: ApprovalView) -> list[tuple[str, int, float | None]]:
        return [(line.name, line.quantity, line.line_total) for line in view.lines]

    return lines(first) == lines(second) and first.to_pay == second.to_pay
