"""Instamart: product search with live stock, a replace-only cart, COD checkout, tracking."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, select

from swiggy_sandbox.catalog import Product
from swiggy_sandbox.catalog.wire import address_wire, product_wire, variation_wire
from swiggy_sandbox.shop import db
from swiggy_sandbox.shop.common import page, require_cod, require_offset
from swiggy_sandbox.shop.errors import ShopError
from swiggy_sandbox.shop.im_rules import ETA_MINUTES, bill, check_available, sold_counts, take_stock
from swiggy_sandbox.shop.part import ShopPart
from swiggy_sandbox.shop.tracking import INSTAMART_STAGES, interpolate, iso, progress, rider_for

MAX_CART_LINES = 50
# Shown by your_go_to_items before a user has ordered anything.
_POPULAR_SUBCATEGORIES = (
    "toned milk", "white sandwich bread", "farm fresh eggs", "onion",
    "fresh curd", "robusta banana", "tomato hybrid", "whole wheat atta",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class CartLine:
    """One requested cart line (the update_cart input)."""

    spin_id: str
    sku_id: str | None
    quantity: int


class InstamartShop(ShopPart):
    """Instamart behaviour over the shared database."""

    def _wire(self, conn: Connection, products: list[Product]) -> list[dict[str, Any]]:
        sold = sold_counts(conn, (v.spin_id for p in products for v in p.variations))
        return [
            product_wire(p, self._base_url, lambda v: v.stock - sold.get(v.spin_id, 0))
            for p in products
        ]

    def search(self, user_id: str, address_id: str, query: str, offset: int) -> dict[str, Any]:
        """Ranked products with packs, stock, nutrition; similar products; next page offset."""
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
                "query": query,
                "products": self._wire(conn, shown),
                "similarProducts": self._wire(conn, similar),
                "nextOffset": next_offset,
                "totalResults": len(matches),
            }

    def _lines(self, conn: Connection, user_id: str) -> tuple[str | None, list[tuple[str, int]]]:
        row = conn.execute(select(db.im_carts).where(db.im_carts.c.user_id == user_id)).first()
        return (row.address_id, [tuple(x) for x in row.lines]) if row else (None, [])

    def _cart_view(self, conn: Connection, user_id: str) -> dict[str, Any]:
        address_id, lines = self._lines(conn, user_id)
        sold = sold_counts(conn, (spin for spin, _ in lines))
        items, item_total, mrp_total = [], 0, 0
        for spin_id, quantity in lines:
            found = self._catalog.variation(spin_id)
            if found is None:
                continue
            product, v = found
            left = v.stock - sold.get(spin_id, 0)
            item = variation_wire(product, v, self._base_url, left)
            item.update(
                productId=product.product_id,
                displayName=product.display_name,
                brand=product.brand,
                quantity=quantity,
                totalPrice=v.offer_price * quantity,
                mrpTotal=v.mrp * quantity,
            )
            items.append(item)
            item_total += v.offer_price * quantity
            mrp_total += v.mrp * quantity
        return {
            "addressId": address_id,
            "items": items,
            "itemCount": sum(i["quantity"] for i in items),
            "billBreakdown": bill(item_total, mrp_total),
        }

    def cart(self, user_id: str) -> dict[str, Any]:
        """The user's cart with its bill."""
        with self._db.tx() as conn:
            return self._cart_view(conn, user_id)

    def _validate(self, conn: Connection, lines: list[CartLine]) -> list[tuple[str, int]]:
        if len(lines) > MAX_CART_LINES:
            raise ShopError(f"Invalid items: at most {MAX_CART_LINES} different items per cart.")
        seen: set[str] = set()
        sold = sold_counts(conn, (line.spin_id for line in lines))
        kept = []
        for line in lines:
            found = self._catalog.variation(line.spin_id)
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
            check_available(line.quantity, name, v, v.stock - sold.get(v.spin_id, 0))
            if line.quantity:
                kept.append((line.spin_id, line.quantity))
        return kept

    def update_cart(self, user_id: str, address_id: str, lines: list[CartLine]) -> dict[str, Any]:
        """Replace the whole cart with `lines` (quantity 0 drops a line)."""
        with self._db.tx() as conn:
            self._addresses.get(conn, user_id, address_id)
            kept = self._validate(conn, lines)
            conn.execute(db.im_carts.delete().where(db.im_carts.c.user_id == user_id))
            conn.execute(
                db.im_carts.insert().values(user_id=user_id, address_id=address_id, lines=kept)
            )
            return self._cart_view(conn, user_id)

    def clear_cart(self, user_id: str) -> dict[str, Any]:
        """Empty the cart."""
        with self._db.tx() as conn:
            conn.execute(db.im_carts.delete().where(db.im_carts.c.user_id == user_id))
            return self._cart_view(conn, user_id)

    def checkout(self, user_id: str, address_id: str, payment_method: str | None) -> dict[str, Any]:
        """Place a COD order for the whole cart, take the stock and empty the cart."""
        method = require_cod(payment_method)
        with self._db.tx() as conn:
            address = self._addresses.get(conn, user_id, address_id)
            _, lines = self._lines(conn, user_id)
            if not lines:
                raise ShopError("Your cart is empty: add items with update_cart before checkout.")
            self._validate(conn, [CartLine(s, None, q) for s, q in lines])
            view = self._cart_view(conn, user_id)
            number = self._db.next_id(conn, "instamart_order", 410_001)
            placed_at = self._clock().timestamp()
            order = {
                "orderId": f"IM{number}",
                "status": "CONFIRMED",
                "paymentMethod": method,
                "placedAt": iso(placed_at),
                "etaMinutes": ETA_MINUTES,
                "deliveryAddress": address_wire(address),
                "items": view["items"],
                "itemCount": view["itemCount"],
                "billBreakdown": view["billBreakdown"],
                "toPay": view["billBreakdown"]["toPay"],
            }
            conn.execute(
                db.orders.insert().values(
                    order_id=order["orderId"],
                    user_id=user_id,
                    kind="instamart",
                    placed_at=placed_at,
                    payload=order,
                )
            )
            for spin_id, quantity in lines:
                take_stock(conn, spin_id, quantity)
            conn.execute(db.im_carts.delete().where(db.im_carts.c.user_id == user_id))
            return order

    def _orders(self, conn: Connection, user_id: str) -> list[Any]:
        return list(
            conn.execute(
                select(db.orders)
                .where((db.orders.c.user_id == user_id) & (db.orders.c.kind == "instamart"))
                .order_by(db.orders.c.placed_at.desc(), db.orders.c.order_id.desc())
            )
        )

    def go_to_items(self, user_id: str) -> dict[str, Any]:
        """Products the user orders most (popular staples before any order)."""
        with self._db.tx() as conn:
            counts: Counter[str] = Counter()
            for row in self._orders(conn, user_id):
                for item in row.payload["items"]:
                    counts[item["productId"]] += item["quantity"]
            products = [p for pid, _ in counts.most_common(12) if (p := self._catalog.product(pid))]
            source = "order_history"
            if not products:
                source = "popular"
                products = [
                    p for p in self._catalog.products if p.sub_category in _POPULAR_SUBCATEGORIES
                ][:8]
            return {"source": source, "products": self._wire(conn, products)}

    def orders(self, user_id: str) -> dict[str, Any]:
        """Past orders, newest first, with their live status."""
        now = self._clock().timestamp()
        with self._db.tx() as conn:
            out = []
            for row in self._orders(conn, user_id):
                state = progress(INSTAMART_STAGES, row.placed_at, now, ETA_MINUTES, 0)
                p = row.payload
                out.append(
                    {
                        "orderId": p["orderId"],
                        "status": state.status,
                        "placedAt": p["placedAt"],
                        "itemCount": p["itemCount"],
                        "toPay": p["toPay"],
                        "paymentMethod": p["paymentMethod"],
                        "items": [f"{i['displayName']} x{i['quantity']}" for i in p["items"]],
                    }
                )
            return {"orders": out}

    def track(self, user_id: str, order_id: str, lat: float, lng: float) -> dict[str, Any]:
        """Live status and rider position of an order."""
        with self._db.tx() as conn:
            row = next((r for r in self._orders(conn, user_id) if r.order_id == order_id), None)
        if row is None:
            raise ShopError(f"Invalid orderId '{order_id}': no such Instamart order for you.")
        state = progress(INSTAMART_STAGES, row.placed_at, self._clock().timestamp(), ETA_MINUTES, 0)
        store = (lat + 0.012, lng - 0.009)  # the dark store sits ~1.5 km away
        return {
            "orderId": order_id,
            "status": state.status,
            "statusMessage": state.message,
            "etaMinutes": state.minutes_left,
            "deliveryLocation": {"lat": lat, "lng": lng},
            "deliveryPartner": {
                "name": rider_for(order_id),
                **interpolate(store, (lat, lng), state.fraction_travelled),
            },
        }
