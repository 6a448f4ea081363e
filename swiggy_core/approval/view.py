"""What an approval acts on: the exact arguments, what the person is shown, and its digest.

The app reads the current cart (or the slot) itself through its MCP client; the digest of
those facts is stored with the approval and compared again right before executing, so
a confirmation can never apply to something the person did not see.
"""

from __future__ import annotations

from typing import Any

from swiggy_core.approval.booking import prepare_booking
from swiggy_core.approval.records import (
    AddressChoice,
    ApprovalInvalid,
    ApprovalView,
    Prepared,
    Reader,
    digest_of,
)
from swiggy_core.approval_tool import ApprovalRequest, spending_tool_for
from swiggy_core.conversation._context import address_view
from swiggy_core.limits import Budget, check_spend, paise
from swiggy_core.parsers import AddressItem, CartResult, parse_tool_result
from swiggy_core.saved_addresses import default_address, saved_addresses
from swiggy_core.verticals import Vertical

CASH_ON_DELIVERY = "COD"
_CART_READERS = {"instamart": "get_cart", "food": "get_food_cart"}
_ORDER_NOTES = ("Orders cannot be cancelled once placed.",)


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
        raise ApprovalInvalid(
            "That can't be confirmed here.",
            for_model=f"Only {spender} can be approved here, not {request.tool!r}.",
        )
    if vertical.server_key == "dineout":
        prepared = prepare_booking(vertical, request, read)
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
        prepared = prepare_booking(vertical, request, read)
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
        raise ApprovalInvalid("Your cart is empty, so there is nothing to order.")
    unavailable = [line.name for line in cart.items if not line.in_stock]
    if unavailable:
        raise ApprovalInvalid(
            f"Out of stock in your cart: {', '.join(unavailable)}. Remove or replace it first."
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
    return Prepared(arguments=arguments, digest=digest_of(facts), view=view)


def _choice(item: AddressItem) -> AddressChoice:
    return AddressChoice(
        address_id=str(item.address_id), label=item.label or "", text=item.address or ""
    )


def same_order(first: ApprovalView, second: ApprovalView) -> bool:
    """Whether two views ask to pay for the same lines and the same total."""

    def lines(view: ApprovalView) -> list[tuple[str, int, float | None]]:
        return [(line.name, line.quantity, line.line_total) for line in view.lines]

    return lines(first) == lines(second) and first.to_pay == second.to_pay


__all__ = [
    "CASH_ON_DELIVERY",
    "AddressChoice",
    "ApprovalInvalid",
    "ApprovalView",
    "Prepared",
    "Reader",
    "approval_amount",
    "prepare",
    "recheck",
    "same_order",
]
