"""Following a placed order until it arrives: what to read, how often, and what it says.

Pure: the reads go through the `Reader` the caller gives (the app's audited call of a
shop's server), and only documented read tools are ever asked. Instamart's `track_order`
needs the delivery coordinates: `get_orders` gives them (its description promises them),
and they are kept on the `TrackedOrder` so later reads go straight to `track_order`. Food
reads `track_food_order` for the words and progress, and `get_food_delivery_status` for
the interval and the delivered/cancelled flags. Dineout bookings are not tracked.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Final

from swiggy_core.errors import ErrorCode, McpServerError
from swiggy_core.parsers._values import as_dict, as_list, pick, to_id
from swiggy_core.parsers.jsontext import NOT_JSON
from swiggy_core.parsers.order_tracking import (
    TrackingState,
    delivery_point,
    food_entries,
    from_food_tracking,
    from_orders_entry,
    from_track_order,
    poll_interval,
)
from swiggy_core.parsers.unwrap import read_envelope, structured_envelope, unwrap_content
from swiggy_core.saved_addresses import Reader

INSTAMART_TRACK_TOOL: Final = "track_order"
INSTAMART_ORDERS_TOOL: Final = "get_orders"
FOOD_TRACK_TOOL: Final = "track_food_order"
FOOD_STATUS_TOOL: Final = "get_food_delivery_status"
# Every tool this module may call: reads only, never a spending tool.
TRACKING_TOOLS: Final = frozenset(
    {INSTAMART_TRACK_TOOL, INSTAMART_ORDERS_TOOL, FOOD_TRACK_TOOL, FOOD_STATUS_TOOL}
)
TRACKED_SERVERS: Final = frozenset({"instamart", "food"})
# Recent orders searched for one placed order (get_orders recommends at most 20).
ORDERS_SEARCHED: Final = 20
# Active orders shown at the top of a shop page.
ACTIVE_SHOWN: Final = 3


class TrackingReadFailed(McpServerError):
    """A tracking read the server refused or answered with something unreadable."""

    code = ErrorCode.TOOL_DOMAIN


@dataclass(frozen=True, slots=True)
class TrackedOrder:
    """One order to follow on one server (with its coordinates once known)."""

    server_key: str
    order_id: str
    lat: float | None = None
    lng: float | None = None


def order_to_track(server_key: str, order_id: str) -> TrackedOrder | None:
    """The order to follow, or None on a server whose orders are not tracked (Dineout)."""
    if server_key not in TRACKED_SERVERS or not order_id.strip():
        return None
    return TrackedOrder(server_key, order_id.strip())


def poll(read: Reader, order: TrackedOrder) -> tuple[TrackedOrder, TrackingState]:
    """Read one order's state now (raises McpCallError, TrackingReadFailed)."""
    if order.server_key == "food":
        return order, _poll_food(read, order)
    return _poll_instamart(read, order)


def active_orders(read: Reader, server_key: str) -> list[tuple[TrackedOrder, TrackingState]]:
    """The person's orders on their way on this server, newest first (a few)."""
    if server_key == "food":
        entries = food_entries(_read(read, FOOD_TRACK_TOOL, {}))
        states = [from_food_tracking(entry) for entry in entries]
        return [
            (TrackedOrder("food", state.order_id), state)
            for state in states[:ACTIVE_SHOWN]
            if state is not None and not state.is_final
        ]
    if server_key != "instamart":
        return []
    listed = _read(read, INSTAMART_ORDERS_TOOL, {"activeOnly": True})
    found: list[tuple[TrackedOrder, TrackingState]] = []
    for entry in _orders(listed)[:ACTIVE_SHOWN]:
        order_id = to_id(pick(entry, "orderId", "order_id"))
        if order_id is not None:
            tracked, state = _from_entry(read, TrackedOrder("instamart", order_id), entry)
            if not state.is_final:
                found.append((tracked, state))
    return found


def _poll_food(read: Reader, order: TrackedOrder) -> TrackingState:
    args = {"orderId": order.order_id}
    entries = food_entries(_read(read, FOOD_TRACK_TOOL, args))
    entry = next((e for e in entries if to_id(e.get("orderId")) == order.order_id), None)
    status = _read(read, FOOD_STATUS_TOOL, args)
    state = from_food_tracking(entry or {"orderId": order.order_id}, status)
    if state is None:
        raise TrackingReadFailed("Swiggy's answer about this order could not be read.")
    return state


def _poll_instamart(read: Reader, order: TrackedOrder) -> tuple[TrackedOrder, TrackingState]:
    if order.lat is not None and order.lng is not None:
        return order, _track(read, order)
    listed = _read(read, INSTAMART_ORDERS_TOOL, {"count": ORDERS_SEARCHED})
    entry = next(
        (e for e in _orders(listed) if to_id(pick(e, "orderId", "order_id")) == order.order_id),
        None,
    )
    if entry is None:  # no longer among the recent orders: long arrived
        return order, TrackingState(order.order_id, "instamart", "Order delivered", delivered=True)
    return _from_entry(read, order, entry)


def _from_entry(
    read: Reader, order: TrackedOrder, entry: dict[str, Any]
) -> tuple[TrackedOrder, TrackingState]:
    """A listed order: tracked live when it is active and has coordinates, else as listed."""
    listed = from_orders_entry(entry)
    if listed is None:
        raise TrackingReadFailed("Swiggy's list of your orders could not be read.")
    point = delivery_point(entry)
    if listed.is_final or point is None:
        return order, replace(listed, interval_seconds=poll_interval(None))
    located = replace(order, lat=point[0], lng=point[1])
    return located, _track(read, located)


def _track(read: Reader, order: TrackedOrder) -> TrackingState:
    args = {"orderId": order.order_id, "lat": order.lat, "lng": order.lng}
    state = from_track_order(_read(read, INSTAMART_TRACK_TOOL, args), "")
    if state is None:
        raise TrackingReadFailed("Swiggy's tracking answer could not be read.")
    return replace(state, order_id=order.order_id)


def _orders(payload: Any) -> list[dict[str, Any]]:
    return [entry for entry in as_list((as_dict(payload) or {}).get("orders")) if as_dict(entry)]


def _read(read: Reader, tool: str, arguments: dict[str, Any]) -> Any:
    """The `data` of one read's answer in either result form; a refusal raises."""
    if tool not in TRACKING_TOOLS:  # a guard against this module ever spending
        raise TrackingReadFailed(f"{tool} is not a tracking read.", code=ErrorCode.INTERNAL)
    unwrapped = unwrap_content(read(tool, arguments))
    if unwrapped.is_error or unwrapped.value is NOT_JSON:
        raise TrackingReadFailed(unwrapped.text[:200] or "Swiggy's answer could not be read.")
    value = unwrapped.value
    envelope = structured_envelope(value) if unwrapped.structured else read_envelope(value)
    if envelope.ok is False:
        raise TrackingReadFailed(envelope.error or envelope.message or "Swiggy refused the read.")
    return envelope.data


__all__ = [
    "ACTIVE_SHOWN",
    "TRACKED_SERVERS",
    "TRACKING_TOOLS",
    "TrackedOrder",
    "TrackingReadFailed",
    "TrackingState",
    "active_orders",
    "order_to_track",
    "poll",
    "poll_interval",
]
