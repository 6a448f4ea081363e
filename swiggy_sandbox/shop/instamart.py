"""Instamart: product search with live stock, a replace-only cart, coupons, checkout by cash
or UPI.

Results follow Swiggy's documented shapes (SearchProduct, InstamartCart, checkout's
single-order and UPI pending results). Order history and tracking live in `im_orders`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from sqlalchemy import Connection, select

from swiggy_sandbox.catalog import Product
from swiggy_sandbox.catalog.wire import address_details_wire, cart_item_wire, product_wire
from swiggy_sandbox.shop import db
from swiggy_sandbox.shop.common import amount_text, page, require_offset
from swiggy_sandbox.shop.errors import ShopError
from swiggy_sandbox.shop.im_coupons import (
    COUPONS,
    applied_coupon,
    coupon_wire,
    find_coupon,
    priced,
    set_coupon,
)
from swiggy_sandbox.shop.im_orders import InstamartOrders
from swiggy_sandbox.shop.im_rules import (
    PAYMENT_METHOD,
    CartLine,
    cash_method,
    fit_lines,
    item_total,
    sold_counts,
)
from swiggy_sandbox.shop.upi import NewPayment, start_payment
from swiggy_sandbox.shop.upi_request import upi_choice

__all__ = ["CartLine", "InstamartShop"]

# Shown by your_go_to_items before a user has ordered anything.
_POPULAR_COUNT = 8
_POPULAR_SUBCATEGORIES = (
    "toned milk", "white sandwich bread", "farm fresh eggs", "onion",
    "fresh curd", "robusta banana", "tomato hybrid", "whole wheat atta",
)  # fmt: skip


class InstamartShop(InstamartOrders):
    """Instamart behaviour over the shared database."""

    def _wire(self, conn: Connection, products: list[Product]) -> list[dict[str, Any]]:
        sold = sold_counts(conn, (v.spin_id for p in products for v in p.variations))
        return [
            product_wire(p, self._base_url, lambda v: v.stock - sold.get(v.spin_id, 0))
            for p in products
        ]

    def search(self, user_id: str, address_id: str, query: str, offset: int) -> dict[str, Any]:
        """A page of ranked products, similar products and the next offset ("" on the last)."""
        require_offset(offset)
        if not query.strip():
            raise ShopError("Missing query: say what to look for, e.g. 'toned milk 1 L'.")
        with self._db.tx() as conn:
            self._addresses.get(conn, user_id, address_id)
            matches = self._catalog.search_products(query)
            shown, next_offset = page(matches, offset)
            similar: list[Product] = []
            if shown:
                exclude = {p.product_id for p in matches}
                similar = self._catalog.similar_products(shown[0], exclude, limit=4)
            return {
                "nextOffset": "" if next_offset is None else str(next_offset),
                "products": self._wire(conn, shown),
                "similarProducts": self._wire(conn, similar),
            }

    def go_to_items(self, user_id: str, address_id: str, offset: int) -> dict[str, Any]:
        """What the user orders most (popular staples before any order), search-shaped."""
        require_offset(offset)
        with self._db.tx() as conn:
            self._addresses.get(conn, user_id, address_id)
            counts: Counter[str] = Counter()
            for record in self._records(conn, user_id):
                for line in record["lines"]:
                    counts[line["productId"]] += line["quantity"]
            products = [p for pid, _ in counts.most_common() if (p := self._catalog.product(pid))]
            if not products:
                popular = self._catalog.products
                staples = [p for p in popular if p.sub_category in _POPULAR_SUBCATEGORIES]
                products = staples[:_POPULAR_COUNT]
            shown, next_offset = page(products, offset)
            return {
                "nextOffset": "" if next_offset is None else str(next_offset),
                "products": self._wire(conn, shown),
            }

    def _lines(self, conn: Connection, user_id: str) -> tuple[str | None, list[tuple[str, int]]]:
        row = conn.execute(select(db.im_carts).where(db.im_carts.c.user_id == user_id)).first()
        return (row.address_id, [(str(s), int(q)) for s, q in row.lines]) if row else (None, [])

    def _cart_view(self, conn: Connection, user_id: str) -> dict[str, Any]:
        """The documented InstamartCart (plus availablePaymentMethods)."""
        address_id, lines = self._lines(conn, user_id)
        sold = sold_counts(conn, (spin for spin, _ in lines))
        items, total = [], 0
        for spin_id, quantity in lines:
            found = self._catalog.variation(spin_id)
            if found is None:
                continue
            product, v = found
            left = v.stock - sold.get(spin_id, 0)
            items.append(cart_item_wire(product, v, quantity, self._base_url, left))
            total += v.offer_price * quantity
        charges = priced(total, applied_coupon(conn, user_id))
        cart: dict[str, Any] = {
            "cartTotalAmount": amount_text(charges.to_pay),
            "items": items,
            "billBreakdown": charges.wire(),
            "availablePaymentMethods": [PAYMENT_METHOD],
        }
        if address_id:
            known = {a.id: a for a in self._addresses.saved(conn, user_id)}
            if address_id in known:
                cart["selectedAddress"] = address_id
                cart["selectedAddressDetails"] = address_details_wire(known[address_id])
            else:
                cart["addressWarning"] = "The cart's address was deleted; choose another one."
        if not items:
            cart.update(cartAbsent=True, cartAbsentReason="Your cart is empty.")
        return cart

    def cart(self, user_id: str) -> dict[str, Any]:
        """The user's cart with its bill."""
        with self._db.tx() as conn:
            return self._cart_view(conn, user_id)

    def update_cart(self, user_id: str, address_id: str, lines: list[CartLine]) -> dict[str, Any]:
        """Replace the whole cart with `lines` (quantity 0 drops a line; caps are reported)."""
        with self._db.tx() as conn:
            self._addresses.get(conn, user_id, address_id)
            fitted = fit_lines(self._catalog, conn, lines, self._base_url)
            conn.execute(db.im_carts.delete().where(db.im_carts.c.user_id == user_id))
            conn.execute(
                db.im_carts.insert().values(
                    user_id=user_id, address_id=address_id, lines=fitted.kept
                )
            )
            warning = None
            coupon = applied_coupon(conn, user_id)
            if coupon and (blocker := coupon.blocker(item_total(self._catalog, fitted.kept))):
                set_coupon(conn, user_id, None)
                warning = {"statusCode": 409, "message": f"Coupon {coupon.code} removed: {blocker}"}
            cart = self._cart_view(conn, user_id)
        if warning:
            cart["cartWarning"] = warning
        if fitted.removed:
            cart["removedOutOfStockItems"] = fitted.removed
        if fitted.reduced:
            cart["reducedQuantityItems"] = fitted.reduced
        return cart

    def clear_cart(self, user_id: str) -> dict[str, Any]:
        """Empty the cart (and drop its coupon)."""
        with self._db.tx() as conn:
            conn.execute(db.im_carts.delete().where(db.im_carts.c.user_id == user_id))
            set_coupon(conn, user_id, None)
            return self._cart_view(conn, user_id)

    def _require_items(self, conn: Connection, user_id: str, doing: str) -> list[tuple[str, int]]:
        _, lines = self._lines(conn, user_id)
        if not lines:
            raise ShopError(f"Your cart is empty: add items with update_cart before {doing}.")
        return lines

    def coupons(self, user_id: str, address_id: str) -> dict[str, Any]:
        """Every Instamart coupon, marked applicable or not for the current cart."""
        with self._db.tx() as conn:
            self._addresses.get(conn, user_id, address_id)
            lines = self._require_items(conn, user_id, "listing coupons")
            total = item_total(self._catalog, lines)
            applied = applied_coupon(conn, user_id)
            code = applied.code if applied else None
            return {"availableCoupons": [coupon_wire(c, total, code) for c in COUPONS]}

    def apply_coupon(self, user_id: str, coupon_code: str) -> dict[str, Any]:
        """Put a coupon on the cart; the discount shows in billBreakdown.lineItems."""
        coupon = find_coupon(coupon_code)
        if coupon is None:
            raise ShopError(
                f"Invalid couponCode '{coupon_code}': no such Instamart coupon; "
                "call list_coupons for the ones you can use."
            )
        with self._db.tx() as conn:
            lines = self._require_items(conn, user_id, "applying a coupon")
            if blocker := coupon.blocker(item_total(self._catalog, lines)):
                raise ShopError(f"Coupon {coupon.code} can't be applied: {blocker}")
            set_coupon(conn, user_id, coupon)
            return self._cart_view(conn, user_id)

    def checkout(
        self,
        user_id: str,
        address_id: str,
        payment_method: str | None,
        intent_app: str | None = None,
        generate_qr: bool = False,
    ) -> dict[str, Any]:
        """Order the whole cart at its toPay: cash places it now (stock taken, cart emptied);
        UPI answers the pending payment and places nothing until the payment is confirmed."""
        upi = upi_choice(payment_method, intent_app, generate_qr)
        method = "UPI" if upi else cash_method(payment_method)
        with self._db.tx() as conn:
            address = self._addresses.get(conn, user_id, address_id)
            lines = self._require_items(conn, user_id, "checkout")
            fitted = fit_lines(
                self._catalog, conn, [CartLine(s, None, q) for s, q in lines], self._base_url
            )
            changed = [i["itemName"] for i in fitted.removed + fitted.reduced]
            if changed:
                raise ShopError(
                    f"Not enough stock for {', '.join(changed)}. Check the cart with get_cart "
                    "and update it. No order was placed."
                )
            charges = priced(item_total(self._catalog, lines), applied_coupon(conn, user_id))
            number = self._db.next_id(conn, "instamart_order", 410_001)
            now = self._clock().timestamp()
            record = self._order_record(f"IM{number}", now, method, address, lines, charges)
            placed = {
                "cartTotal": charges.to_pay,
                "addressId": address.id,
                "deliveryAddress": address.address_line,
                "deliveryLabel": address.label,
            }
            if upi:
                payment = NewPayment(
                    user_id, "im", record["orderId"], charges.to_pay, now, record, upi
                )
                return {**start_payment(self._db, conn, payment, self._base_url), **placed}
            self._store_order(conn, user_id, record, now)
        return {
            "orderId": record["orderId"],
            "status": "CONFIRMED",
            "paymentMethod": method,
            **placed,
        }
