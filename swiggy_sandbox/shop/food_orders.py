"""Food order history, details and live tracking (the FoodShop's read side)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, select

from swiggy_sandbox.shop import db
from swiggy_sandbox.shop.errors import ShopError
from swiggy_sandbox.shop.part import ShopPart
from swiggy_sandbox.shop.tracking import FOOD_STAGES, interpolate, iso, progress, rider_for


class FoodOrders(ShopPart):
    """Recording and reading food orders."""

    def _record_order(
        self,
        conn: Connection,
        user_id: str,
        cart: dict[str, Any],
        address: dict[str, Any],
        method: str,
        note: str | None,
    ) -> dict[str, Any]:
        number = self._db.next_id(conn, "food_order", 178_340_001)
        placed_at = self._clock().timestamp()
        restaurant = self._catalog.restaurant(cart["restaurantId"])
        assert restaurant is not None  # the cart view only holds catalog restaurants
        order = {
            "orderId": str(number),
            "status": "PLACED",
            "paymentMethod": method,
            "placedAt": iso(placed_at),
            "etaMinutes": cart["sla"]["deliveryTime"],
            "prepMinutes": restaurant.prep_minutes,
            "restaurant": {
                "id": restaurant.id,
                "name": cart["restaurantName"],
                "areaName": restaurant.area_name,
                "lat": restaurant.lat,
                "lng": restaurant.lng,
            },
            "deliveryAddress": address,
            "items": cart["items"],
            "itemCount": cart["itemCount"],
            "appliedCoupon": cart["appliedCoupon"],
            "billBreakdown": cart["billBreakdown"],
            "toPay": cart["billBreakdown"]["toPay"],
            "noteToRestaurant": note or "",
            "cancellable": False,
        }
        conn.execute(
            db.orders.insert().values(
                order_id=order["orderId"],
                user_id=user_id,
                kind="food",
                placed_at=placed_at,
                payload=order,
            )
        )
        return order

    def _rows(self, user_id: str) -> list[Any]:
        with self._db.tx() as conn:
            return list(
                conn.execute(
                    select(db.orders)
                    .where((db.orders.c.user_id == user_id) & (db.orders.c.kind == "food"))
                    .order_by(db.orders.c.placed_at.desc(), db.orders.c.order_id.desc())
                )
            )

    def _live(self, row: Any) -> dict[str, Any]:
        p = row.payload
        state = progress(
            FOOD_STAGES, row.placed_at, self._clock().timestamp(), p["etaMinutes"], p["prepMinutes"]
        )
        return {**p, "status": state.status, "statusMessage": state.message}

    def orders(self, user_id: str) -> dict[str, Any]:
        """Past food orders, newest first, with live status."""
        out = []
        for row in self._rows(user_id):
            live = self._live(row)
            out.append(
                {
                    "orderId": live["orderId"],
                    "status": live["status"],
                    "placedAt": live["placedAt"],
                    "restaurantName": live["restaurant"]["name"],
                    "items": [f"{i['name']} x{i['quantity']}" for i in live["items"]],
                    "toPay": live["toPay"],
                    "paymentMethod": live["paymentMethod"],
                }
            )
        return {"orders": out}

    def _row(self, user_id: str, order_id: str | None) -> Any:
        rows = self._rows(user_id)
        if not order_id:
            if not rows:
                raise ShopError("You have no food orders yet.")
            return rows[0]
        row = next((r for r in rows if r.order_id == str(order_id)), None)
        if row is None:
            raise ShopError(f"Invalid orderId '{order_id}': no such food order for you.")
        return row

    def order_details(self, user_id: str, order_id: str) -> dict[str, Any]:
        """Everything about one order, with its live status."""
        return self._live(self._row(user_id, order_id))

    def track(self, user_id: str, order_id: str | None) -> dict[str, Any]:
        """Live status, ETA and delivery partner position (latest order by default)."""
        row = self._row(user_id, order_id)
        p = row.payload
        state = progress(
            FOOD_STAGES, row.placed_at, self._clock().timestamp(), p["etaMinutes"], p["prepMinutes"]
        )
        start = (p["restaurant"]["lat"], p["restaurant"]["lng"])
        end = (p["deliveryAddress"]["lat"], p["deliveryAddress"]["lng"])
        return {
            "orderId": p["orderId"],
            "status": state.status,
            "statusMessage": state.message,
            "etaMinutes": state.minutes_left,
            "restaurantName": p["restaurant"]["name"],
            "deliveryPartner": {
                "name": rider_for(p["orderId"]),
                **interpolate(start, end, state.fraction_travelled),
            },
        }
