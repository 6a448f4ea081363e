"""A placed order's live state, read from the documented tracking answers.

`orders_info` turns the same answers into titled facts for the chat; this reads them into
one typed record the tracking card draws and the poller decides on (final or not, and when
to ask again): Instamart `track_order` and `get_orders` entries, Food `track_food_order`
entries with `get_food_delivery_status`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from swiggy_core.constants import TRACK_DEFAULT_INTERVAL_SECONDS, TRACK_MIN_INTERVAL_SECONDS
from swiggy_core.parsers._values import as_dict, as_list, pick, to_bool, to_float, to_id, to_str
from swiggy_core.parsers.info_fields import items_line, joined, status_words
from swiggy_core.parsers.orders_info import minutes_text, time_left_text

_DELIVERED_RE = re.compile(r"\b(delivered|completed)\b")
_CANCELLED_RE = re.compile(r"\b(cancel+ed|cancel+ation|rejected|failed)\b")
# How far along an order is at each stage when the server gives no percentage.
_STAGE_PROGRESS = (
    (re.compile(r"\b(out for delivery|picked up|on the way|arriving)\b"), 0.6),
    (re.compile(r"\b(pack|prepar|cooking|ready)"), 0.3),
)
_STARTED_PROGRESS = 0.1
_TRAVEL_START = 0.5  # a rider's trip is the second half of the bar


def poll_interval(server_seconds: Any) -> float:
    """Seconds until the next read: the server's interval, never under the floor (10 s)."""
    seconds = to_float(server_seconds)
    if seconds is None or seconds <= 0:
        seconds = TRACK_DEFAULT_INTERVAL_SECONDS
    return max(TRACK_MIN_INTERVAL_SECONDS, seconds)


@dataclass(frozen=True, slots=True)
class TrackingState:
    """Where one order stands, as the server last said."""

    order_id: str
    server_key: str
    headline: str  # "Delivery partner is on the way"
    eta_text: str | None = None
    items: str | None = None
    store: str | None = None
    progress: float | None = None  # 0 at the order, 1 at the door
    delivered: bool = False
    cancelled: bool = False
    interval_seconds: float = TRACK_DEFAULT_INTERVAL_SECONDS

    @property
    def is_final(self) -> bool:
        """Delivered or cancelled: nothing will change, so nothing is read again."""
        return self.delivered or self.cancelled

    @property
    def refresh_seconds(self) -> float | None:
        """When to read again (None once final)."""
        return None if self.is_final else self.interval_seconds


def _final_flags(*texts: str | None) -> tuple[bool, bool]:
    """(delivered, cancelled) as the status words say."""
    words = " ".join(text for text in texts if text).lower().replace("_", " ")
    cancelled = _CANCELLED_RE.search(words) is not None
    return (not cancelled and _DELIVERED_RE.search(words) is not None), cancelled


def _stage_progress(words: str, delivered: bool) -> float:
    if delivered:
        return 1.0
    lowered = words.lower().replace("_", " ")
    return next((at for rule, at in _STAGE_PROGRESS if rule.search(lowered)), _STARTED_PROGRESS)


def _point(value: Any) -> tuple[float, float] | None:
    point = as_dict(value) or {}
    lat = to_float(pick(point, "latitude", "lat"))
    lng = to_float(pick(point, "longitude", "lng"))
    return None if lat is None or lng is None else (lat, lng)


def _rider_progress(map_info: dict[str, Any]) -> float | None:
    """How much of the trip from the store to the door the rider has done (0 to 1)."""
    store = _point(map_info.get("storeLocation"))
    door = _point(map_info.get("deliveryLocation"))
    rider = _point(map_info.get("riderLocation"))
    if store is None or door is None or rider is None:
        return None
    trip = math.dist(store, door)
    if trip == 0:
        return None
    return min(1.0, max(0.0, 1 - math.dist(rider, door) / trip))


def from_track_order(payload: Any, order_id: str) -> TrackingState | None:
    """Instamart `track_order`: status object, ETA, store, items, rider, interval."""
    record = as_dict(payload)
    status = as_dict(record.get("status")) if record else None
    if record is None or status is None:
        return None
    message = to_str(status.get("statusMessage"), 120)
    sub = to_str(status.get("subStatusMessage"), 120)
    eta = to_str(status.get("etaText"), 60) or minutes_text(status.get("etaMinutes"))
    delivered, cancelled = _final_flags(message, sub, eta)
    progress = _stage_progress(joined(message, sub), delivered)
    rider = _rider_progress(as_dict(record.get("mapInfo")) or {})
    if rider is not None and not cancelled and not delivered:
        progress = _TRAVEL_START + (1 - _TRAVEL_START) * rider
    store = as_dict(record.get("storeInfo")) or {}
    return TrackingState(
        order_id=to_id(record.get("orderId")) or order_id,
        server_key="instamart",
        headline=message or status_words(sub) or "Your order",
        eta_text=None if delivered or cancelled else eta,
        items=items_line(record.get("items")),
        store=to_str(store.get("name"), 80),
        progress=None if cancelled else round(progress, 3),
        delivered=delivered,
        cancelled=cancelled,
        interval_seconds=poll_interval(record.get("pollingIntervalSeconds")),
    )


def from_orders_entry(entry: Any) -> TrackingState | None:
    """Instamart `get_orders` entry (no coordinates to track it with, or no longer active)."""
    record = as_dict(entry)
    order_id = to_id(pick(record, "orderId", "order_id")) if record else None
    if record is None or order_id is None:
        return None
    code = to_str(pick(record, "currentStatus", "status"), 60)
    message = to_str(record.get("statusMessage"), 120)
    delivered, cancelled = _final_flags(code, to_str(record.get("historyStatus"), 40))
    if to_bool(record.get("isActive")) is False and not cancelled:
        delivered = True
    return TrackingState(
        order_id=order_id,
        server_key="instamart",
        headline=message or status_words(code) or "Your order",
        items=items_line(record.get("items")),
        store=to_str(record.get("storeName"), 80),
        progress=None if cancelled else _stage_progress(joined(code, message), delivered),
        delivered=delivered,
        cancelled=cancelled,
    )


def from_food_tracking(entry: Any, delivery: Any = None) -> TrackingState | None:
    """Food `track_food_order` entry, with `get_food_delivery_status` when it was read."""
    record = as_dict(entry)
    order_id = to_id(record.get("orderId")) if record else None
    if record is None or order_id is None:
        return None
    status = as_dict(delivery) or {}
    code = to_str(pick(record, "orderStatus", "status"), 60)
    title = to_str(record.get("title"), 120)
    delivered, cancelled = _final_flags(code, title)
    delivered = to_bool(status.get("delivered")) is True or delivered
    cancelled = to_bool(status.get("cancelled")) is True or cancelled
    eta = to_str(pick(status, "etaText"), 60) or to_str(record.get("etaText"), 60)
    percent = to_float(record.get("progressPercentage"))
    progress = 1.0 if delivered else _stage_progress(joined(code, title), False)
    if percent is not None and not delivered:
        progress = min(1.0, max(0.0, percent / 100))
    interval = pick(status, "pollIntervalSec") or record.get("pollingDuration")
    words = to_str(status.get("statusText"), 120) or status_words(code)
    return TrackingState(
        order_id=order_id,
        server_key="food",
        headline=title or words or "Your order",
        eta_text=None if delivered or cancelled else (eta or time_left_text(status)),
        items=to_str(record.get("subtitle"), 200),
        progress=None if cancelled else round(progress, 3),
        delivered=delivered,
        cancelled=cancelled,
        interval_seconds=poll_interval(interval),
    )


def food_entries(payload: Any) -> list[dict[str, Any]]:
    """The order entries of a `track_food_order` answer."""
    record = as_dict(payload) or {}
    return [entry for entry in as_list(record.get("orders")) if as_dict(entry)]


def delivery_point(entry: Any) -> tuple[float, float] | None:
    """A `get_orders` entry's delivery coordinates, where the server gives them
    (its description promises them; the schema lists none)."""
    record = as_dict(entry) or {}
    address = as_dict(record.get("deliveryAddress")) or {}
    return _point(address) or _point(record.get("deliveryLocation"))
