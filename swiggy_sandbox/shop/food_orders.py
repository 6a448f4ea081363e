"""Food orders: recording one, history, details, tracking and delivery status."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, select

from swiggy_sandbox.shop import db
from swiggy_sandbox.shop.errors import ShopError
from swiggy_sandbox.shop.food_order_wire import (
    LiveOrder,
    delivery_status,
    history_entry,
    order_details,
    placed,
    tracked,
)
from swiggy_sandbox.shop.part import ShopPart
from swiggy_sandbox.shop.tracking import FOOD_STAGES, progress

if TYPE_CHECKING:
    from swiggy_sandbox.shop.food_cart import CartState


class FoodOrders(ShopPart):
    """Recording and reading food orders."""

    def _record_order(
        self, conn: Connection, user_id: str, state: CartState, method: str, note: str | None
    ) -> dict[str, Any]:
        """Place a cash order for the cart now; answer place_food_order's COD shape."""
        payload = self._order_payload(conn, state, method, note)
        self._insert_order(conn, user_id, payload)
        return placed(payload)

    def place_paid(self, conn: Connection, user_id: str, payload: dict[str, Any]) -> None:
        """Place an order whose UPI payment went through (its clock starts now); empty the cart."""
        self._insert_order(conn, user_id, {**payload, "placedAt": self._clock().timestamp()})
        conn.execute(db.food_carts.delete().where(db.food_carts.c.user_id == user_id))

    def _order_payload(
        self, conn: Connection, state: CartState, method: str, note: str | None
    ) -> dict[str, Any]:
        """The stored order for the cart (a new order id; nothing is stored yet)."""
        assert state.restaurant is not None and state.address is not None  # checked by caller
        number = self._db.next_id(conn, "food_order", 178_340_001)
        restaurant, address, pricing = state.restaurant, state.address, state.pricing
        payload = {
            "orderId": str(number),
            "placedAt": self._clock().timestamp(),
            "etaMinutes": state.delivery_minutes,
            "prepMinutes": restaurant.prep_minutes,
            "paymentMethod": method,
            "note": note or "",
            "restaurant": {
                "id": restaurant.id,
                "name": state.restaurant_name,
                "areaName": restaurant.area_name,
                "cuisines": list(restaurant.cuisines),
                "lat": restaurant.lat,
                "lng": restaurant.lng,
            },
            "address": {
                "id": address.id,
                "label": address.label,
                "addressLine": address.address_line,
                "locality": address.locality,
                "name": address.name,
                "phone": address.phone,
                "city": address.city,
                "lat": address.lat,
                "lng": address.lng,
            },
            "items": [
                {
                    "item_id": line.dish.id,
                    "name": line.dish.name,
                    "is_veg": line.dish.is_veg,
                    "quantity": line.quantity,
                    "base_paise": line.dish.price,
                    "unit_paise": line.unit_paise,
                    "total": line.total,
                    "variants": line.variants,
                    "addons": line.addons,
                }
                for line in state.lines
            ],
            "pricing": {
                "item_total": pricing.item_total,
                "delivery_charge": pricing.delivery_charge,
                "gst": pricing.gst,
                "platform_fee": pricing.platform_fee,
                "coupon_discount": pricing.coupon_discount,
                "coupon_code": pricing.coupon.code if pricing.coupon else None,
                "to_pay": pricing.to_pay,
            },
        }
        return payload

    def _insert_order(self, conn: Connection, user_id: str, payload: dict[str, Any]) -> None:
        conn.execute(
            db.orders.insert().values(
                order_id=payload["orderId"],
                user_id=user_id,
                kind="food",
                placed_at=payload["placedAt"],
                payload=payload,
            )
        )

    def _live(self, row: Any) -> LiveOrder:
        payload = row.payload
        now = self._clock().timestamp()
        state = progress(
            FOOD_STAGES, row.placed_at, now, payload["etaMinutes"], payload["prepMinutes"]
        )
        return LiveOrder(payload, state, now)

    def _rows(self, user_id: str) -> list[Any]:
        with self._db.tx() as conn:
            return list(
                conn.execute(
                    select(db.orders)
                    .where((db.orders.c.user_id == user_id) & (db.orders.c.kind == "food"))
                    .order_by(db.orders.c.placed_at.desc(), db.orders.c.order_id.desc())
                )
            )

    def _order(self, user_id: str, order_id: str) -> LiveOrder:
        row = next((r for r in self._rows(user_id) if r.order_id == str(order_id)), None)
        if row is None:
            raise ShopError(f"Invalid orderId '{order_id}': no such food order for you.")
        return self._live(row)

    def orders(
        self, user_id: str, address_id: str | None = None, active_only: bool = False
    ) -> dict[str, Any]:
        """The account's food orders, newest first, with live status (any address's)."""
        if address_id is not None:
            with self._db.tx() as conn:
                self._addresses.get(conn, user_id, address_id)
        live = [self._live(row) for row in self._rows(user_id)]
        if active_only:
            live = [order for order in live if order.active]
        entries = [history_entry(order) for order in live]
        kind = "active " if active_only else ""
        message = f"{len(entries)} {kind}food order(s)." if entries else f"No {kind}food orders."
        return {"orders": entries, "statusMessage": message}

    def order_details(self, user_id: str, order_id: str) -> dict[str, Any]:
        """Everything about one order (Swiggy's snake_case order record)."""
        order = self._order(user_id, order_id)
        return {"order": order_details(order, user_id), "statusMessage": order.state.message}

    def track(self, user_id: str, order_id: str | None) -> dict[str, Any]:
        """One order's progress, or every active order's when no id is given."""
        if order_id:
            live = [self._order(user_id, order_id)]
        else:
            live = [o for o in (self._live(r) for r in self._rows(user_id)) if o.active]
        message = "; ".join(o.state.message for o in live) or "You have no active food orders."
        return {"orders": [tracked(order) for order in live], "statusMessage": message}

    def delivery_status(self, user_id: str, order_id: str) -> dict[str, Any]:
        """When the order should arrive, for clients that poll."""
        return delivery_status(self._order(user_id, order_id))
