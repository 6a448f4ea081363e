"""Instamart orders: recording one, history, details, tracking and delivery status in Swiggy's
documented shapes.

An order's stage follows the clock (see `tracking`), so a fixed clock gives fixed answers.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, select

from swiggy_sandbox.catalog import SavedAddress
from swiggy_sandbox.shop import db
from swiggy_sandbox.shop.common import amount_text
from swiggy_sandbox.shop.errors import ShopError
from swiggy_sandbox.shop.im_coupons import set_coupon
from swiggy_sandbox.shop.im_rules import ETA_MINUTES, POLLING_INTERVAL_SECONDS, Bill, take_stock
from swiggy_sandbox.shop.part import ShopPart
from swiggy_sandbox.shop.tracking import INSTAMART_STAGES, Progress, interpolate, iso, progress

ORDER_TYPES = ("DASH", "INSTAMART")
MAX_ORDER_COUNT = 50
# The dark store sits about 1.5 km from the delivery address.
_STORE_OFFSET = (0.012, -0.009)
_STAGE_START_MINUTES = {name: start for name, _, start in INSTAMART_STAGES}


def _point(lat: float, lng: float) -> dict[str, float]:
    return {"latitude": round(lat, 6), "longitude": round(lng, 6)}


class InstamartOrders(ShopPart):
    """Recording and reading Instamart orders."""

    def _order_record(
        self,
        order_id: str,
        now: float,
        method: str,
        address: SavedAddress,
        lines: list[tuple[str, int]],
        charges: Bill,
    ) -> dict[str, Any]:
        """The stored order: what was bought, where it goes and what it cost."""
        return {
            "orderId": order_id,
            "placedAt": iso(now),
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

    def _order_line(self, spin_id: str, quantity: int) -> dict[str, Any]:
        found = self._catalog.variation(spin_id)
        assert found is not None  # checked by fit_lines in the same transaction
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

    def _store_order(
        self, conn: Connection, user_id: str, record: dict[str, Any], placed_at: float
    ) -> None:
        """Place the order: store it, take its stock, empty the cart and drop its coupon."""
        conn.execute(
            db.orders.insert().values(
                order_id=record["orderId"],
                user_id=user_id,
                kind="instamart",
                placed_at=placed_at,
                payload=record,
            )
        )
        for line in record["lines"]:
            take_stock(conn, line["spinId"], line["quantity"])
        conn.execute(db.im_carts.delete().where(db.im_carts.c.user_id == user_id))
        set_coupon(conn, user_id, None)

    def place_paid(self, conn: Connection, user_id: str, record: dict[str, Any]) -> None:
        """Place an order whose UPI payment went through; its clock starts now."""
        now = self._clock().timestamp()
        self._store_order(conn, user_id, {**record, "placedAt": iso(now)}, now)

    def _records(self, conn: Connection, user_id: str) -> list[dict[str, Any]]:
        """The user's orders, newest first (each with its `placed` unix time)."""
        rows = conn.execute(
            select(db.orders)
            .where((db.orders.c.user_id == user_id) & (db.orders.c.kind == "instamart"))
            .order_by(db.orders.c.placed_at.desc(), db.orders.c.order_id.desc())
        )
        # Orders saved before the documented shapes have no `lines`: they are not listed.
        return [{**r.payload, "placed": r.placed_at} for r in rows if "lines" in r.payload]

    def _record(self, user_id: str, order_id: str) -> dict[str, Any]:
        if not order_id.strip():
            raise ShopError("Missing orderId: call get_orders to find it.")
        with self._db.tx() as conn:
            found = next(
                (r for r in self._records(conn, user_id) if r["orderId"] == order_id), None
            )
        if found is None:
            raise ShopError(f"Invalid orderId '{order_id}': no such Instamart order for you.")
        return found

    def _progress(self, record: dict[str, Any]) -> Progress:
        now = self._clock().timestamp()
        return progress(INSTAMART_STAGES, record["placed"], now, ETA_MINUTES, 0)

    def orders(
        self, user_id: str, count: int = 10, order_type: str = "DASH", active_only: bool = False
    ) -> dict[str, Any]:
        """Recent orders, newest first, as get_orders lists them."""
        if not 1 <= count <= MAX_ORDER_COUNT:
            raise ShopError(f"Invalid count {count}: ask for 1 to {MAX_ORDER_COUNT} orders.")
        if order_type.strip().upper() not in ORDER_TYPES:
            raise ShopError(f"Invalid orderType '{order_type}': use DASH or INSTAMART.")
        with self._db.tx() as conn:
            records = self._records(conn, user_id)
        listed = [(r, self._progress(r)) for r in records]
        if active_only:
            listed = [(r, state) for r, state in listed if state.status != "DELIVERED"]
        return {
            "orders": [self._summary(r, state) for r, state in listed[:count]],
            "hasMore": len(listed) > count,
        }

    def _summary(self, record: dict[str, Any], state: Progress) -> dict[str, Any]:
        bill, address = record["bill"], record["address"]
        delivered = state.status == "DELIVERED"
        stage_start = 60 * (ETA_MINUTES if delivered else _STAGE_START_MINUTES[state.status])
        return {
            "orderId": record["orderId"],
            "status": state.status,
            "createdAt": record["placedAt"],
            "updatedAt": iso(record["placed"] + stage_start),
            "estimatedDeliveryTime": iso(record["placed"] + 60 * ETA_MINUTES),
            "itemCount": sum(line["quantity"] for line in record["lines"]),
            "totalAmount": bill["toPay"],
            # get_orders' description promises the delivery coordinates (track_order needs them).
            "deliveryAddress": {
                "id": address["id"],
                "addressLine": address["addressLine"],
                "phoneNumber": address["phoneNumber"],
                "lat": address["lat"],
                "lng": address["lng"],
            },
            "paymentMethod": record["paymentMethod"],
            "orderType": "DASH",
            "isActive": not delivered,
            "currentStatus": state.status,
            "statusMessage": state.message,
            "historyStatus": "DELIVERED" if delivered else "ACTIVE",
            "storeName": _store_name(address),
            "items": [
                {"name": line["itemName"], "quantity": line["quantity"], "itemId": line["spinId"]}
                for line in record["lines"]
            ],
            "billDetails": {
                "itemTotal": bill["itemTotal"],
                "deliveryFee": bill["deliveryFee"],
                "packagingFee": bill["handlingFee"] + bill["smallCartFee"],
                "grandTotal": bill["toPay"],
            },
            "paymentStatus": "PAID" if delivered or _prepaid(record) else "PENDING",
        }

    def order_details(self, user_id: str, order_id: str) -> dict[str, Any]:
        """One order's items and bill, as get_order_details returns them."""
        record = self._record(user_id, order_id)
        bill = record["bill"]
        lines = [
            {"name": "Item Total", "amount": amount_text(bill["itemTotal"])},
            {"name": "Delivery Fee", "amount": amount_text(bill["deliveryFee"])},
            {"name": "Handling Fee", "amount": amount_text(bill["handlingFee"])},
        ]
        if bill["smallCartFee"]:
            lines.append({"name": "Small Cart Fee", "amount": amount_text(bill["smallCartFee"])})
        if bill["discount"]:
            label = f"Coupon Discount ({bill['coupon']})"
            lines.append({"name": label, "amount": amount_text(-bill["discount"])})
        return {
            "orderId": record["orderId"],
            "status": self._progress(record).status,
            "totalBill": bill["toPay"],
            "hasRefunds": False,
            "items": [
                {
                    "name": f"{line['itemName']} ({line['itemVariant']})",
                    "quantity": line["quantity"],
                    "finalPrice": line["price"] * line["quantity"],
                    "removed": False,
                }
                for line in record["lines"]
            ],
            "bill": {"lineItems": lines, "grandTotal": amount_text(bill["toPay"])},
        }

    def track(self, user_id: str, order_id: str, lat: float, lng: float) -> dict[str, Any]:
        """Live status, ETA, store, rider position and the items, as track_order returns them."""
        record = self._record(user_id, order_id)
        state = self._progress(record)
        address, bill = record["address"], record["bill"]
        store = (lat + _STORE_OFFSET[0], lng + _STORE_OFFSET[1])
        map_info: dict[str, Any] = {
            "storeLocation": _point(*store),
            "storeAnnotation": _store_name(address),
            "deliveryLocation": _point(lat, lng),
            "deliveryAnnotation": address["label"],
        }
        if state.status in ("OUT_FOR_DELIVERY", "DELIVERED"):
            rider = interpolate(store, (lat, lng), state.fraction_travelled)
            map_info["riderLocation"] = _point(rider["lat"], rider["lng"])
        count = sum(line["quantity"] for line in record["lines"])
        delivered = state.status == "DELIVERED"
        return {
            "orderId": order_id,
            "orderTitle": "Instamart order",
            "orderSubtitle": f"{count} item(s) · {amount_text(bill['toPay'])}",
            "status": {
                "statusMessage": state.message,
                "subStatusMessage": state.status,
                "etaMinutes": state.minutes_left,
                "etaText": "Delivered" if delivered else f"Arriving in {state.minutes_left} min",
            },
            "storeInfo": {"name": _store_name(address), "address": f"{address['locality']}"},
            "deliveryInfo": {
                "addressLabel": address["label"],
                "fullAddress": address["addressLine"],
            },
            "items": [
                {
                    "name": f"{line['itemName']} ({line['itemVariant']})",
                    "quantity": line["quantity"],
                    "price": amount_text(line["price"] * line["quantity"]),
                }
                for line in record["lines"]
            ],
            "itemCount": count,
            "placedAt": record["placedAt"],
            "paymentInfo": {
                "message": _payment_message(record, delivered),
                "amount": amount_text(bill["toPay"]),
            },
            "mapInfo": map_info,
            "pollingIntervalSeconds": POLLING_INTERVAL_SECONDS,
        }

    def delivery_status(self, user_id: str, order_id: str, address_id: str) -> dict[str, Any]:
        """A short status of one order for the address it goes to."""
        with self._db.tx() as conn:
            self._addresses.get(conn, user_id, address_id)
        record = self._record(user_id, order_id)
        state = self._progress(record)
        delivered = state.status == "DELIVERED"
        return {
            "orderId": order_id,
            "addressId": address_id,
            "status": state.status,
            "statusMessage": state.message,
            "etaMinutes": state.minutes_left,
            "etaText": "Delivered" if delivered else f"Arriving in {state.minutes_left} min",
            "delivered": delivered,
            "cancelled": False,
            "pollingIntervalSeconds": POLLING_INTERVAL_SECONDS,
        }


def _store_name(address: dict[str, Any]) -> str:
    return f"Instamart · {address['locality']}"


def _prepaid(record: dict[str, Any]) -> bool:
    return bool(record["paymentMethod"] == "UPI")


def _payment_message(record: dict[str, Any], delivered: bool) -> str:
    if _prepaid(record):  # paid before it was placed
        return "Paid by UPI"
    return "Paid in cash" if delivered else "Pay in cash on delivery"
