"""Food orders in the shapes Swiggy documents: placed (COD), pending (UPI), history, details,
tracking.

Amounts are rupees: numbers where the docs say number, `"₹512.40"` / `"512.40"` strings
where they say string.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from swiggy_core.constants import SWIGGY_TZ
from swiggy_sandbox.catalog._ids import hash_int
from swiggy_sandbox.catalog.geo import CITY
from swiggy_sandbox.shop.common import amount_text, money
from swiggy_sandbox.shop.tracking import Progress

POLL_INTERVAL_SECONDS = 10
_MS = 1000
_BUSINESS_LINE = {"id": "FOOD", "name": "Food"}
_PAISE = 100


@dataclass(frozen=True, slots=True)
class LiveOrder:
    """A stored order with its progress at `now` (unix seconds)."""

    payload: dict[str, Any]
    state: Progress
    now: float

    @property
    def active(self) -> bool:
        """Not yet delivered."""
        return self.state.status != "DELIVERED"


def _text(value: float) -> str:
    return f"{value:.2f}"


def _num(identifier: str) -> int | str:
    """Swiggy's order records carry numeric ids as numbers."""
    return int(identifier) if identifier.isdigit() else identifier


def _eta_text(order: LiveOrder) -> str:
    return f"{order.state.minutes_left} mins" if order.active else "Delivered"


def _local_time(ts: float) -> str:
    """Swiggy's order times are India time."""
    return datetime.fromtimestamp(ts, SWIGGY_TZ).isoformat()


def _delivery_text(address: dict[str, Any]) -> str:
    return f"{address['label']}: {address['addressLine']}"


def placed(payload: dict[str, Any]) -> dict[str, Any]:
    """place_food_order's cash-on-delivery answer."""
    minutes = payload["etaMinutes"]
    restaurant = payload["restaurant"]
    return {
        "orderId": payload["orderId"],
        "status": "CONFIRMED",
        "normalizedStatus": "success",
        "items": [
            {
                "item_id": item["item_id"],
                "name": item["name"],
                "quantity": item["quantity"],
                "total": item["total"],
                "subtotal": item["total"],
                "final_price": money(item["unit_paise"] / _PAISE),
            }
            for item in payload["items"]
        ],
        "restaurantName": restaurant["name"],
        "restaurantAddress": f"{restaurant['areaName']}, {CITY}",
        "totalAmount": payload["pricing"]["to_pay"],
        "estimatedDelivery": f"{minutes}-{minutes + 5} mins",
        "deliveryAddress": _delivery_text(payload["address"]),
    }


def pending_extras(payload: dict[str, Any], cart_id: str | None) -> dict[str, Any]:
    """place_food_order's UPI answer beyond the shared pending fields: not placed yet."""
    restaurant, address = payload["restaurant"], payload["address"]
    return {
        "normalizedStatus": "pending",
        "totalAmount": payload["pricing"]["to_pay"],
        "restaurantName": restaurant["name"],
        "restaurantAddress": f"{restaurant['areaName']}, {CITY}",
        "deliveryAddress": _delivery_text(address),
        "addressId": address["id"],
        "cartId": cart_id,
        "lat": address["lat"],
        "lng": address["lng"],
    }


def _ordered_items(payload: dict[str, Any]) -> str:
    return ", ".join(f"{i['quantity']} x {i['name']}" for i in payload["items"])


def _reorder_items(payload: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {
            "menu_item_id": item["item_id"],
            "name": item["name"],
            "quantity": item["quantity"],
            "variants": [
                {"group_id": v["group_id"], "variation_id": v["variation_id"]}
                for v in item["variants"]
            ],
            "addons": [{"group_id": a["group_id"], "choice_id": a["id"]} for a in item["addons"]],
        }
        for item in payload["items"]
    ]


def _actions(order: LiveOrder) -> list[dict[str, Any]]:
    if order.active:
        return [{"type": "TRACK", "priority": 1, "title": "Track order", "isEnabled": True}]
    reorder = {"orderItems": _reorder_items(order.payload)}
    rate = {"ratingType": "DELIVERY", "rateAll": True, "ratingTitle": "How was your order?"}
    return [
        {"type": "REORDER", "priority": 1, "title": "Reorder", "isEnabled": True,
         "reorderMeta": reorder},
        {"type": "RATE", "priority": 2, "title": "Rate order", "isEnabled": True,
         "rateDeliveryMeta": rate},
    ]  # fmt: skip


def history_entry(order: LiveOrder) -> dict[str, Any]:
    """A get_food_orders record."""
    payload, restaurant = order.payload, order.payload["restaurant"]
    return {
        "orderId": payload["orderId"],
        "restaurantId": restaurant["id"],
        "restaurantName": restaurant["name"],
        "restaurantAreaName": restaurant["areaName"],
        "orderTotal": amount_text(payload["pricing"]["to_pay"]),
        "orderStatus": order.state.status,
        "orderDeliveryStatus": order.state.message,
        "orderType": "DELIVERY",
        "orderedItems": _ordered_items(payload),
        "orderedTime": _local_time(payload["placedAt"]),
        "isActiveOrder": order.active,
        "actions": _actions(order),
    }


def _order_item(item: dict[str, Any]) -> dict[str, Any]:
    return {
        "item_id": item["item_id"],
        "name": item["name"],
        "is_veg": "1" if item["is_veg"] else "0",
        "variants": [
            {"variation_id": _num(v["variation_id"]), "group_id": _num(v["group_id"]),
             "name": v["name"], "price": v["price"]}
            for v in item["variants"]
        ],
        "addons": [
            {"addon_id": a["id"], "group_id": a["group_id"], "name": a["name"],
             "price": a["price"]}
            for a in item["addons"]
        ],
        "quantity": str(item["quantity"]),
        "total": _text(item["total"]),
        "subtotal": _text(item["total"]),
        "final_price": _text(item["unit_paise"] / _PAISE),
        "base_price": _text(item["base_paise"] / _PAISE),
        "packing_charges": "0.00",
    }  # fmt: skip


def _delivery_address(address: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": address["id"],
        "name": address["name"],
        "address_line1": address["addressLine"],
        "address": address["addressLine"],
        "area": address["locality"],
        "mobile": address["phone"],
        "city": address["city"],
        "lat": str(address["lat"]),
        "lng": str(address["lng"]),
    }


def order_details(order: LiveOrder, user_id: str) -> dict[str, Any]:
    """get_food_order_details' `order`: snake_case, money as numbers (items: strings)."""
    payload = order.payload
    restaurant, pricing = payload["restaurant"], payload["pricing"]
    coupon = pricing["coupon_code"]
    charges = {
        "Delivery Charges": _text(pricing["delivery_charge"]),
        "Platform Fee": _text(pricing["platform_fee"]),
        "GST": _text(pricing["gst"]),
    }
    record: dict[str, Any] = {
        "order_id": _num(payload["orderId"]),
        "delivery_address": _delivery_address(payload["address"]),
        "order_items": [_order_item(item) for item in payload["items"]],
        "charges": charges,
        "is_coupon_applied": coupon is not None,
        "order_time": _local_time(payload["placedAt"]),
        "confirmed_time": _local_time(payload["placedAt"]),
        "customer_id": str(hash_int(f"customer:{user_id}") % 10**9),
        "order_status": order.state.status,
        "post_status": order.state.message,
        "order_type": "regular",
        "restaurant_id": restaurant["id"],
        "restaurant_name": restaurant["name"],
        "restaurant_address": f"{restaurant['areaName']}, {CITY}",
        "restaurant_locality": restaurant["areaName"],
        "restaurant_area_name": restaurant["areaName"],
        "restaurant_cuisine": restaurant["cuisines"],
        "payment_method": payload["paymentMethod"],
        "order_total": pricing["to_pay"],
        "item_total": pricing["item_total"],
        "order_tax": money(pricing["gst"] + pricing["platform_fee"]),
        "order_discount": pricing["coupon_discount"],
        "coupon_discount": pricing["coupon_discount"],
        "order_delivery_charge": pricing["delivery_charge"],
        "is_cancellable": False,
        "is_reorderable_order": True,
    }
    if coupon:
        record["coupon_applied"] = coupon
    return record


def tracked(order: LiveOrder) -> dict[str, Any]:
    """A track_food_order entry."""
    payload = order.payload
    eta = max(1, payload["etaMinutes"])
    elapsed = (order.now - payload["placedAt"]) / 60
    percent = 100 if not order.active else min(99, max(0, round(elapsed * 100 / eta)))
    return {
        "orderId": payload["orderId"],
        "title": order.state.message,
        "subtitle": f"{payload['restaurant']['name']} · {_ordered_items(payload)}",
        "etaText": _eta_text(order),
        "orderStatus": order.state.status,
        "progressPercentage": str(percent),
        "pollingDuration": str(POLL_INTERVAL_SECONDS),
        "businessLine": dict(_BUSINESS_LINE),
    }


def delivery_status(order: LiveOrder) -> dict[str, Any]:
    """get_food_delivery_status: epoch milliseconds and the interval to poll at."""
    payload = order.payload
    due = payload["placedAt"] + payload["etaMinutes"] * 60
    return {
        "orderId": payload["orderId"],
        "deliveryBy": round(due * _MS),
        "serverNow": round(order.now * _MS),
        "etaText": _eta_text(order),
        "cancelled": False,
        "delivered": not order.active,
        "statusText": order.state.message,
        "pollIntervalSec": POLL_INTERVAL_SECONDS,
    }
