"""Instamart rules: fees and the bill, cash or UPI, stock and per-order caps on cart lines.

Amounts are whole rupees inside the shop; the documented wire shows bill values as strings
("₹54.00") and item prices as numbers.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, select

from swiggy_sandbox.catalog import Catalog
from swiggy_sandbox.catalog.wire import cart_item_wire
from swiggy_sandbox.shop import db
from swiggy_sandbox.shop.common import amount_text
from swiggy_sandbox.shop.errors import ShopError

FREE_DELIVERY_ABOVE = 199
DELIVERY_FEE = 30
HANDLING_FEE = 9
SMALL_CART_BELOW = 99
SMALL_CART_FEE = 20
ETA_MINUTES = 12
# Swiggy asks clients not to poll tracking faster than every 10 s.
POLLING_INTERVAL_SECONDS = 30
TO_PAY_LABEL = "To Pay"
MAX_CART_LINES = 50
PAYMENT_METHOD = "COD"
_CASH = frozenset({"", "cash", "cod", "cash on delivery", "cash_on_delivery", "cashondelivery"})
_SWIGGY_PAY = frozenset({"swiggypay", "swiggy pay", "swiggy_pay", "swiggy money"})


@dataclass(frozen=True, slots=True)
class CartLine:
    """One requested cart line (the update_cart input)."""

    spin_id: str
    sku_id: str | None
    quantity: int


@dataclass
class Fitted:
    """Requested lines after stock and per-order caps: what the cart keeps, and what changed."""

    kept: list[tuple[str, int]] = field(default_factory=list)
    removed: list[dict[str, Any]] = field(default_factory=list)
    reduced: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Bill:
    """What an Instamart cart costs: item total, fees, coupon discount and the total."""

    item_total: int
    delivery: int
    handling: int
    small_cart: int
    discount: int
    coupon: str | None

    @property
    def to_pay(self) -> int:
        """The amount to pay (never below zero)."""
        fees = self.delivery + self.handling + self.small_cart
        return max(0, self.item_total + fees - self.discount)

    def wire(self) -> dict[str, Any]:
        """The documented `billBreakdown`: labelled string values and `toPay`."""
        if not self.item_total:
            lines: list[dict[str, str]] = []
        else:
            lines = [
                {"label": "Item Total", "value": amount_text(self.item_total)},
                {"label": "Delivery Fee", "value": amount_text(self.delivery)},
                {"label": "Handling Fee", "value": amount_text(self.handling)},
            ]
        if self.small_cart:
            lines.append({"label": "Small Cart Fee", "value": amount_text(self.small_cart)})
        if self.discount:
            label = f"Coupon Discount ({self.coupon})"
            lines.append({"label": label, "value": amount_text(-self.discount)})
        return {
            "lineItems": lines,
            "toPay": {"label": TO_PAY_LABEL, "value": amount_text(self.to_pay)},
        }


def bill(item_total: int, discount: int = 0, coupon: str | None = None) -> Bill:
    """Fees for this item total (an empty cart costs nothing), less a coupon's discount."""
    empty = item_total == 0
    return Bill(
        item_total=item_total,
        delivery=0 if empty or item_total >= FREE_DELIVERY_ABOVE else DELIVERY_FEE,
        handling=0 if empty else HANDLING_FEE,
        small_cart=SMALL_CART_FEE if 0 < item_total < SMALL_CART_BELOW else 0,
        discount=discount,
        coupon=coupon if discount else None,
    )


def cash_method(payment_method: str | None) -> str:
    """The method of a checkout that is not UPI: cash on delivery; SwiggyPay is refused."""
    key = (payment_method or "").strip().lower()
    if key in _SWIGGY_PAY:
        raise ShopError(
            "SwiggyPay payments are not supported in the sandbox: pay by UPI or cash on "
            'delivery (paymentMethod "UPI" or "Cash"). No order was placed.'
        )
    if key not in _CASH:
        raise ShopError(
            f'Invalid paymentMethod \'{payment_method}\': use "UPI", "Cash" or "COD" '
            "(SwiggyPay is not supported in the sandbox)."
        )
    return PAYMENT_METHOD


def item_total(catalog: Catalog, lines: Iterable[tuple[str, int]]) -> int:
    """What the lines cost at offer prices (unknown packs cost nothing)."""
    total = 0
    for spin_id, quantity in lines:
        found = catalog.variation(spin_id)
        total += found[1].offer_price * quantity if found else 0
    return total


def fit_lines(catalog: Catalog, conn: Connection, lines: list[CartLine], base_url: str) -> Fitted:
    """Check every line; cap quantities to the per-order limit and the stock left."""
    if len(lines) > MAX_CART_LINES:
        raise ShopError(f"Invalid items: at most {MAX_CART_LINES} different items per cart.")
    sold = sold_counts(conn, (line.spin_id for line in lines))
    fitted, seen = Fitted(), set()
    for line in lines:
        found = catalog.variation(line.spin_id)
        if found is None:
            raise ShopError(
                f"Invalid spinId '{line.spin_id}': not found; use one from search_products."
            )
        product, v = found
        name = f"{product.display_name} ({v.quantity_description})"
        if line.sku_id and line.sku_id != v.sku_id:
            raise ShopError(f"Invalid skuId '{line.sku_id}' for spinId '{line.spin_id}'.")
        if line.spin_id in seen:
            raise ShopError(f"Invalid items: {name} is listed twice; send one line per item.")
        seen.add(line.spin_id)
        if line.quantity < 0:
            raise ShopError(f"Invalid quantity {line.quantity} for {name}: use 0 to remove it.")
        left = v.stock - sold.get(v.spin_id, 0)
        cap = min(v.max_quantity, left)
        if line.quantity == 0:
            continue
        if cap <= 0:
            fitted.removed.append(cart_item_wire(product, v, line.quantity, base_url, left))
            continue
        if line.quantity > cap:
            reason = (
                f"Only {left} left in stock"
                if left < v.max_quantity
                else f"At most {v.max_quantity} per order"
            )
            fitted.reduced.append(
                {
                    "spinId": v.spin_id,
                    "itemName": product.display_name,
                    "requestedQuantity": line.quantity,
                    "cappedQuantity": cap,
                    "reason": reason,
                }
            )
        fitted.kept.append((line.spin_id, min(line.quantity, cap)))
    return fitted


def sold_counts(conn: Connection, spin_ids: Iterable[str]) -> dict[str, int]:
    """Units already sold per spinId (stock left = catalog stock - sold)."""
    rows = conn.execute(select(db.stock_sold).where(db.stock_sold.c.spin_id.in_(list(spin_ids))))
    return {r.spin_id: r.quantity for r in rows}


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
