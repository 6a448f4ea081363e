"""Instamart pricing and stock rules: fees, the bill, availability checks, stock taken by orders."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import Connection, select

from swiggy_sandbox.catalog import Variation
from swiggy_sandbox.shop import db
from swiggy_sandbox.shop.common import bill_line, money, require_quantity
from swiggy_sandbox.shop.errors import ShopError

FREE_DELIVERY_ABOVE = 199
DELIVERY_FEE = 30
HANDLING_FEE = 9
SMALL_CART_BELOW = 99
SMALL_CART_FEE = 20
ETA_MINUTES = 12


def sold_counts(conn: Connection, spin_ids: Iterable[str]) -> dict[str, int]:
    """Units already sold per spinId (stock left = catalog stock - sold)."""
    rows = conn.execute(select(db.stock_sold).where(db.stock_sold.c.spin_id.in_(list(spin_ids))))
    return {r.spin_id: r.quantity for r in rows}


def check_available(quantity: int, name: str, v: Variation, left: int) -> None:
    """Reject quantities above the per-order cap or the stock left."""
    require_quantity(quantity, name, v.max_quantity)
    if quantity and left <= 0:
        raise ShopError(f"{name} is out of stock. Try a similar product.")
    if quantity > left:
        raise ShopError(f"Only {left} left in stock for {name}.")


def take_stock(conn: Connection, spin_id: str, quantity: int) -> None:
    """Record units sold by an order."""
    current = conn.execute(
        select(db.stock_sold.c.quantity).where(db.stock_sold.c.spin_id == spin_id)
    ).scalar()
    if current is None:
        conn.execute(db.stock_sold.insert().values(spin_id=spin_id, quantity=quantity))
    else:
        conn.execute(
            db.stock_sold.update()
            .where(db.stock_sold.c.spin_id == spin_id)
            .values(quantity=current + quantity)
        )


def bill(item_total: int, mrp_total: int) -> dict[str, Any]:
    """Item total, fees and amount to pay (rupees); an empty cart costs nothing."""
    empty = item_total == 0
    delivery = 0 if empty or item_total >= FREE_DELIVERY_ABOVE else DELIVERY_FEE
    handling = 0 if empty else HANDLING_FEE
    small_cart = SMALL_CART_FEE if 0 < item_total < SMALL_CART_BELOW else 0
    to_pay = item_total + delivery + handling + small_cart
    lines = [
        bill_line("Item Total", item_total, mrp=money(mrp_total)),
        bill_line("Delivery Fee", delivery),
        bill_line("Handling Fee", handling),
    ]
    if small_cart:
        lines.append(bill_line("Small Cart Fee", small_cart))
    lines.append(bill_line("To Pay", to_pay))
    return {
        "lineItems": lines,
        "itemTotal": money(item_total),
        "deliveryFee": delivery,
        "handlingFee": handling,
        "smallCartFee": small_cart,
        "savings": money(mrp_total - item_total),
        "toPay": money(to_pay),
    }
