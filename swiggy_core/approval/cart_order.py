"""An order of the cart: read afresh for the chosen address, shown line by line, paid in
cash on delivery or by UPI (a way the shop offers for this order)."""

from __future__ import annotations

from typing import Any

from swiggy_core.approval.payment import (
    CASH,
    CASH_CHOICE,
    QR_CHOICE,
    PaymentChoice,
    chosen_id,
    offered_choices,
    with_payment,
)
from swiggy_core.approval.records import (
    AddressChoice,
    ApprovalInvalid,
    ApprovalView,
    Prepared,
    Spend,
    digest_of,
)
from swiggy_core.conversation._context import address_view
from swiggy_core.mcp.client import McpCallError
from swiggy_core.parsers import AddressItem, CartResult, parse_tool_result
from swiggy_core.saved_addresses import default_address, saved_addresses

CASH_ON_DELIVERY = CASH
_ORDER_NOTES = ("Orders cannot be cancelled once placed.",)
_NOTE_CHARS = 200


def prepare_cart_order(spend: Spend) -> Prepared:
    """The cart as it is now, to the chosen address, paid the way asked (cash by default)."""
    chosen = address_view(spend.address)
    # The dialog offers the saved addresses (the order can go elsewhere in one step); with
    # none chosen yet it starts from the one the request names, or the first.
    choices = saved_addresses(spend.read) if spend.offer_addresses else []
    if chosen is None:
        hint = spend.arguments.get("addressId")
        chosen = address_view(default_address(choices, hint if isinstance(hint, str) else None))
        if chosen is None:
            raise ApprovalInvalid(
                "You have no saved delivery address yet: add one in the Swiggy app first."
            )
    arguments: dict[str, Any] = {"addressId": chosen.id}
    payments = _payment_choices(spend, arguments) if spend.offer_addresses else None
    paid_by = _paid_by(chosen_id(spend.arguments), payments)
    arguments = with_payment(arguments, paid_by)
    reader = spend.shop.cart
    if reader is None:
        raise ApprovalInvalid("This shop has no cart to order from.")
    read_args = {key: arguments.get(key) for key in reader.copies}
    cart = parse_tool_result(
        reader.tool, spend.read(reader.tool, read_args), spend.vertical_id, read_args
    )
    if not isinstance(cart, CartResult) or not cart.items:
        raise ApprovalInvalid("Your cart is empty, so there is nothing to order.")
    unavailable = [line.name for line in cart.items if not line.in_stock]
    if unavailable:
        raise ApprovalInvalid(
            f"Out of stock in your cart: {', '.join(unavailable)}. Remove or replace it first."
        )
    note_key = spend.tool.note_argument
    note = spend.arguments.get(note_key) if note_key else None
    if note_key and isinstance(note, str) and note.strip():
        arguments[note_key] = note.strip()[:_NOTE_CHARS]
    view = ApprovalView(
        kind="order",
        tool=spend.tool.name,
        title="Place this order?",
        lines=cart.items,
        bill=cart.bill,
        to_pay=cart.to_pay,
        restaurant_name=cart.restaurant_name,
        address_id=chosen.id,
        address_label=chosen.label or None,
        address_text=chosen.text or None,
        payment=paid_by.label,
        note_to_restaurant=arguments.get(note_key) if note_key else None,
        notes=list(_ORDER_NOTES),
        address_choices=[_choice(item) for item in choices],
        payment_choices=payments or [],
    )
    facts = {
        "tool": spend.tool.name,
        "arguments": arguments,
        "lines": [[line.key, line.name, line.quantity, line.line_total] for line in cart.items],
        "to_pay": cart.to_pay,
        "restaurant": cart.restaurant_id,
    }
    return Prepared(arguments=arguments, digest=digest_of(facts), view=view)


def _choice(item: AddressItem) -> AddressChoice:
    return AddressChoice(
        address_id=str(item.address_id), label=item.label or "", text=item.address or ""
    )


def _payment_choices(spend: Spend, arguments: dict[str, Any]) -> list[PaymentChoice]:
    """The ways to pay this order the shop offers now (cash alone when it cannot say)."""
    reader = spend.shop.payment_options
    read_args = reader.arguments(arguments) if reader else None
    if reader is None or read_args is None:
        return [CASH_CHOICE]
    try:
        return offered_choices(spend.read(reader.tool, read_args)) or [CASH_CHOICE]
    except McpCallError:
        return [CASH_CHOICE]


def _paid_by(wanted: str, offered: list[PaymentChoice] | None) -> PaymentChoice:
    """The choice `wanted` names among those offered (a re-check, offered None, keeps the
    one confirmed); ApprovalInvalid for a way of paying that is not offered."""
    if wanted == CASH_ON_DELIVERY:
        return CASH_CHOICE
    if offered is None:
        return PaymentChoice(id=wanted, kind="qr" if wanted == QR_CHOICE else "app", label="UPI")
    match = next((choice for choice in offered if choice.id == wanted), None)
    if match is None:
        raise ApprovalInvalid(
            "That way of paying is not offered for this order: choose another.",
            for_model=(
                "That payment method is not offered. Ask again without one: the person "
                "chooses how to pay in the confirmation."
            ),
        )
    return match
