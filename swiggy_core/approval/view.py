"""What an approval acts on: the exact arguments, what the person is shown, and its digest.

The app reads the current cart (or the slot) itself through its MCP client; the digest of
those facts is stored with the approval and compared again right before executing, so
a confirmation can never apply to something the person did not see. Which reads those are
is the shop's say: each spending tool names its preparation.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, Final

from swiggy_core.approval.booking import prepare_booking
from swiggy_core.approval.cart_order import CASH_ON_DELIVERY, prepare_cart_order
from swiggy_core.approval.limits import AMOUNT_KEY, DAY_KEY, Budget, check_spend, india_day, paise
from swiggy_core.approval.records import (
    AddressChoice,
    ApprovalInvalid,
    ApprovalView,
    Prepared,
    Reader,
    Spend,
)
from swiggy_core.approval.request_tool import ApprovalRequest
from swiggy_core.shops import Preparation, shop_for
from swiggy_core.store import ApprovalRecord
from swiggy_core.verticals import Vertical

# How each kind of spending tool is prepared (and, with the same reads, re-checked).
PREPARATIONS: Final[dict[Preparation, Callable[[Spend], Prepared]]] = {
    Preparation.CART_ORDER: prepare_cart_order,
    Preparation.FREE_TABLE: prepare_booking,
}


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
    spend = _spend(vertical, request, read, address=address)
    prepared = PREPARATIONS[spend.tool.preparation](spend)
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
    # The address confirmed is kept: the saved ones are not offered again.
    fixed = {"address_id": arguments.get("addressId"), "label": "", "address": ""}
    spend = _spend(vertical, request, read, address=fixed, offer_addresses=False)
    prepared = PREPARATIONS[spend.tool.preparation](spend)
    if budget is not None:
        check_spend(budget, approval_amount(prepared.view))
    return prepared.digest


def _spend(
    vertical: Vertical,
    request: ApprovalRequest,
    read: Reader,
    *,
    address: Any,
    offer_addresses: bool = True,
) -> Spend:
    """The request as its shop's spending tool; ApprovalInvalid for any other tool."""
    shop = shop_for(vertical.server_key)
    tool = shop.spender(request.tool)
    if tool is None:
        allowed = " or ".join(shop.spender_names)
        raise ApprovalInvalid(
            "That can't be confirmed here.",
            for_model=f"Only {allowed} can be approved here, not {request.tool!r}.",
        )
    return Spend(
        vertical_id=vertical.id,
        shop=shop,
        tool=tool,
        arguments=request.arguments,
        read=read,
        address=address,
        offer_addresses=offer_addresses,
    )


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


def same_order(first: ApprovalView, second: ApprovalView) -> bool:
    """Whether two views ask to pay for the same lines and the same total."""

    def lines(view: ApprovalView) -> list[tuple[str, int, float | None]]:
        return [(line.name, line.quantity, line.line_total) for line in view.lines]

    return lines(first) == lines(second) and first.to_pay == second.to_pay


__all__ = [
    "CASH_ON_DELIVERY",
    "PREPARATIONS",
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


def spend_facts(record: ApprovalRecord, now: datetime) -> dict[str, Any]:
    """What a running spend counts against the daily limit (paise, India date): stored on
    the approval in the compare-and-set that confirms it, before its call runs."""
    return {AMOUNT_KEY: spend_amount(record) or 0, DAY_KEY: india_day(now)}


def spend_amount(record: ApprovalRecord) -> int | None:
    """What the approval spends, in paise (None when its total could not be read)."""
    return approval_amount(ApprovalView.model_validate(record.view))
