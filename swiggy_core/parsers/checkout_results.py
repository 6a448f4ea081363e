"""Cards of checkout: the cart with its bill, and the order or booking it became.

Quantities are whole units; prices rupees as floats whatever the source unit.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from swiggy_core.parsers.card_base import CardModel, ToolResultCard


class CartLine(CardModel):
    """One line of a cart; quantities are whole units, prices rupees (`unit_price` as charged)."""

    name: str
    quantity: int = 1
    spin_id: str | None = None
    sku_id: str | None = None
    product_id: str | None = None
    menu_item_id: str | None = None
    unit_price: float | None = None
    line_total: float | None = None
    mrp: float | None = None
    quantity_description: str | None = None
    image_url: str | None = None
    restaurant_id: str | None = None
    restaurant_name: str | None = None
    in_stock: bool = True

    @property
    def key(self) -> str:
        """A stable identity for merging lines (the most specific id, else the name)."""
        return self.spin_id or self.menu_item_id or self.sku_id or self.product_id or self.name


BillKind = Literal["item_total", "fee", "tax", "discount", "total", "other"]


class BillLine(CardModel):
    """One line of the server's bill, exactly as reported."""

    label: str
    amount: float
    kind: BillKind = "other"


class CartResult(ToolResultCard):
    """A cart snapshot with the server's bill."""

    type: Literal["cart"] = "cart"
    items: list[CartLine] = Field(default_factory=list)
    bill: list[BillLine] = Field(default_factory=list)
    to_pay: float | None = None
    restaurant_id: str | None = None
    restaurant_name: str | None = None
    message: str | None = None
    notices: list[str] = Field(default_factory=list)
    payment_methods: list[str] = Field(default_factory=list)


class OrderPlacedResult(ToolResultCard):
    """An order the server accepted (it has an order id).

    A multi-store checkout lists every placed id in `order_ids` and what failed in
    `failures`: a partial success is still an order that must never be placed again.
    """

    type: Literal["order_placed"] = "order_placed"
    order_id: str
    status: str | None = None
    message: str | None = None
    amount: float | None = None
    payment_method: str | None = None
    eta: str | None = None
    order_ids: list[str] = Field(default_factory=list)
    failures: list[str] = Field(default_factory=list)


class BookingConfirmedResult(ToolResultCard):
    """A table booking the server confirmed (it has a booking id)."""

    type: Literal["booking_confirmed"] = "booking_confirmed"
    booking_id: str
    status: str | None = None
    message: str | None = None
    restaurant_name: str | None = None
    date_time: str | None = None
    guest_count: int | None = None
