"""Dineout's create_cart and the payment rules of book_table.

A paid prebook deal (or paying the bill) starts with create_cart and continues with an
online (UPI) payment. The sandbox takes no online payment, so such a cart is summarised
with no payment method and the flow stops there; free deals are booked with book_table.
"""

from __future__ import annotations

from typing import Any

from swiggy_sandbox.catalog import Venue
from swiggy_sandbox.shop.common import money
from swiggy_sandbox.shop.errors import ShopError

DEAL_TICKET_PURCHASE, PAY_BILL = "DEAL_TICKET_PURCHASE", "DINEOUT"
NO_ONLINE_PAYMENT = (
    "Online payment (UPI) is not available in the sandbox, so this cannot be paid here. "
    "Free table reservations need no payment: book them with book_table."
)


def check_payment(payment_method: str | None, upi_requested: bool) -> None:
    """Free deals take no payment: only no method or "Cash" is accepted."""
    if payment_method == "UPI" or upi_requested:
        raise ShopError(
            "Invalid paymentMethod: the sandbox takes no online payment (UPI). A free deal "
            'needs none: omit paymentMethod or send "Cash".'
        )


def deal_cart(venue: Venue, number: int, item_id: str, guests: int) -> tuple[dict[str, Any], str]:
    """create_cart(DEAL_TICKET_PURCHASE) for one of the venue's deals, and its message."""
    if item_id == venue.free_ticket_id:
        cart = _cart(venue, number, DEAL_TICKET_PURCHASE, 0, skip_payment=True)
        return cart, "Free deal: nothing to pay. Book it with book_table (no paymentMethod)."
    if item_id != venue.prime_ticket_id:
        raise ShopError(f"Invalid itemId '{item_id}': use a deal itemId from get_available_slots.")
    cart = _cart(venue, number, DEAL_TICKET_PURCHASE, venue.prime_price, skip_payment=False)
    message = (
        f"Paid deal at {venue.name} for {guests}: ₹{venue.prime_price} to pay now. "
        f"{NO_ONLINE_PAYMENT}"
    )
    return cart, message


def bill_cart(venue: Venue, number: int, bill_amount: float) -> tuple[dict[str, Any], str]:
    """create_cart(DINEOUT): pay a restaurant bill (in rupees) with the venue's offer."""
    if bill_amount <= 0:
        raise ShopError(f"Invalid billAmount {bill_amount}: give the bill in rupees.")
    to_pay = money(bill_amount * (100 - venue.free_offer_percent) / 100)
    cart = _cart(venue, number, PAY_BILL, to_pay, skip_payment=False)
    return cart, f"Bill at {venue.name}: ₹{to_pay} to pay. {NO_ONLINE_PAYMENT}"


def _cart(
    venue: Venue, number: int, cart_type: str, to_pay: float, *, skip_payment: bool
) -> dict[str, Any]:
    key = f"do-cart-{number}"
    data: dict[str, Any] = {
        "cart": {
            "cartId": f"DOC{number}",
            "cartKey": key,
            "cartType": cart_type,
            "restaurantId": venue.id,
            "bill": {
                "billToPay": to_pay,
                "skipPayment": skip_payment,
                "dineoutPricingInfo": {"billToPay": to_pay},
            },
        },
        "cartKey": key,
        "availablePaymentMethods": [],
        "paymentOptions": None,
    }
    if not skip_payment:
        data["gpoError"] = NO_ONLINE_PAYMENT
    return data
