"""Instamart: product search with live stock, a replace-only cart, coupons, COD checkout.

Results follow Swiggy's documented shapes (SearchProduct, InstamartCart, checkout's
single-order result). Order history and tracking live in `im_orders`.
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
    cash_only,
    fit_lines,
    item_total,
    sold_counts,
    take_stock,
)
from swiggy_sandbox.shop.tracking import iso

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
        """Place a COD order for the whole cart at the cart's toPay, take stock, empty the cart."""
        method = cash_only(payment_method, intent_app, generate_qr)
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
            placed_at = self._clock().timestamp()
            order_id = f"IM{number}"
            record = {
                "orderId": order_id,
                "placedAt": iso(placed_at),
                "paymentMethod": method,
                "address": {
                    "id": address.id,
                    "addressLine": address.address_line,
                    "phoneNumber": address.phone,
                    "label": address.label,
                    "locality": address.locality,
                    "lat": address.lat,
                    "lng": address.lng,
                },
                "lines": [self._order_line(spin, quantity) for spin, quantity in lines],
                "bill": {
                    "itemTotal": charges.item_total,
                    "deliveryFee": charges.delivery,
                    "handlingFee": charges.handling,
                    "smallCartFee": charges.small_cart,
                    "discount": charges.discount,
                    "coupon": charges.coupon,
                    "toPay": charges.to_pay,
                },
            }
            conn.execute(
                db.orders.insert().values(
                    order_id=order_id,
                    user_id=user_id,
                    kind="instamart",
                    placed_at=placed_at,
                    payload=record,
                )
            )
            for spin_id, quantity in lines:
                take_stock(conn, spin_id, quantity)
            conn.execute(db.im_carts.delete().where(db.im_carts.c.user_id == user_id))
            set_coupon(conn, user_id, None)
        return {
            "orderId": order_id,
            "status": "CONFIRMED",
            "paymentMethod": method,
            "cartTotal": charges.to_pay,
            "addressId": address.id,
            "deliveryAddress": address.address_line,
            "deliveryLabel": address.label,
        }

    def _order_line(self, spin_id: str, quantity: int) -> dict[str, Any]:
        found = self._catalog.variation(spin_id)
        assert found is not None  # checked by _fit in the same transaction
        product, v = found
        return {
            "spinId": spin_id,
            "skuId": v.sku_id,
            "productId": product.product_id,
            "itemName": product.display_name,
            "itemVariant": v.quantity_description,
            "quantity": quantity,
            "mrp": v.mrp,
            "price": v.offer_price,
        }
