"""Tracking a placed order: the documented answers read into one state, the interval
(the server's, never under 10 s), final states, and only read tools ever called."""

from __future__ import annotations

import json
from typing import Any

import pytest

from swiggy_core.errors import ErrorCode
from swiggy_core.tracking import (
    TRACKING_TOOLS,
    TrackedOrder,
    TrackingReadFailed,
    active_orders,
    order_to_track,
    poll,
    poll_interval,
)

# track_order, as documented (Instamart), with a rider halfway from the store to the door.
TRACK_ORDER = {
    "orderId": "IM-1",
    "orderTitle": "Instamart order",
    "orderSubtitle": "3 items",
    "status": {
        "statusMessage": "Delivery partner is on the way",
        "subStatusMessage": "OUT_FOR_DELIVERY",
        "etaMinutes": 6,
        "etaText": "Arriving in 6 min",
    },
    "storeInfo": {"name": "Instamart · Indiranagar", "address": "Indiranagar"},
    "items": [{"name": "Milk", "quantity": 2, "price": "₹54.00"}],
    "itemCount": 2,
    "mapInfo": {
        "storeLocation": {"latitude": 12.0, "longitude": 77.0},
        "deliveryLocation": {"latitude": 12.2, "longitude": 77.0},
        "riderLocation": {"latitude": 12.1, "longitude": 77.0},
    },
    "pollingIntervalSeconds": 45,
}
GET_ORDERS_ENTRY = {
    "orderId": "IM-1",
    "status": "OUT_FOR_DELIVERY",
    "itemCount": 2,
    "totalAmount": 108,
    "deliveryAddress": {"id": "a1", "addressLine": "12th Main", "lat": 12.2, "lng": 77.0},
    "isActive": True,
    "currentStatus": "OUT_FOR_DELIVERY",
    "statusMessage": "Delivery partner is on the way",
    "historyStatus": "ACTIVE",
    "storeName": "Instamart · Indiranagar",
    "items": [{"name": "Milk", "quantity": 2}],
}
TRACK_FOOD = {
    "orderId": "F-9",
    "title": "Restaurant is preparing your food",
    "subtitle": "Meghana Foods · 1 x Chicken Biryani",
    "etaText": "25 mins",
    "orderStatus": "PREPARING",
    "progressPercentage": "40",
    "pollingDuration": "15",
}
FOOD_STATUS = {
    "orderId": "F-9",
    "deliveryBy": 1_800_000,
    "serverNow": 300_000,
    "cancelled": False,
    "delivered": False,
    "statusText": "Restaurant is preparing your food",
    "pollIntervalSec": 20,
}


def envelope(data: Any) -> str:
    return json.dumps({"success": True, "data": data, "message": "ok"})


class Answers:
    """A shop server that answers each read tool with a fixed payload, noting the calls."""

    def __init__(self, **answers: Any) -> None:
        self.answers = answers
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def __call__(self, tool: str, arguments: dict[str, Any]) -> str:
        self.calls.append((tool, arguments))
        answer = self.answers[tool]
        return answer if isinstance(answer, str) else envelope(answer)


@pytest.mark.parametrize(
    ("server", "expected"),
    [(None, 30.0), (0, 30.0), (3, 10.0), (9.9, 10.0), (10, 10.0), (45, 45.0), ("15", 15.0)],
)
def test_the_interval_is_the_servers_but_never_under_10_s(server: Any, expected: float) -> None:
    assert poll_interval(server) == expected


def test_track_order_reads_status_eta_items_store_rider_progress_and_interval() -> None:
    read = Answers(track_order=TRACK_ORDER)
    _, state = poll(read, TrackedOrder("instamart", "IM-1", lat=12.2, lng=77.0))
    assert read.calls == [("track_order", {"orderId": "IM-1", "lat": 12.2, "lng": 77.0})]
    assert state.headline == "Delivery partner is on the way"
    assert state.eta_text == "Arriving in 6 min"
    assert state.items == "2 × Milk"
    assert state.store == "Instamart · Indiranagar"
    assert state.progress == 0.75  # half the ride done: the second half of the bar
    assert state.interval_seconds == 45 and state.refresh_seconds == 45
    assert not state.is_final


def test_an_instamart_order_finds_its_coordinates_in_get_orders_once() -> None:
    read = Answers(
        get_orders={"orders": [GET_ORDERS_ENTRY], "hasMore": False}, track_order=TRACK_ORDER
    )
    order, _ = poll(read, TrackedOrder("instamart", "IM-1"))
    assert (order.lat, order.lng) == (12.2, 77.0)
    assert [tool for tool, _ in read.calls] == ["get_orders", "track_order"]
    poll(read, order)
    assert [tool for tool, _ in read.calls] == ["get_orders", "track_order", "track_order"]


def test_an_instamart_order_without_coordinates_shows_its_listed_state() -> None:
    entry = {k: v for k, v in GET_ORDERS_ENTRY.items() if k != "deliveryAddress"}
    read = Answers(get_orders={"orders": [entry]})
    order, state = poll(read, TrackedOrder("instamart", "IM-1"))
    assert [tool for tool, _ in read.calls] == ["get_orders"]
    assert state.headline == "Delivery partner is on the way" and state.progress == 0.6
    assert state.refresh_seconds == 30.0 and order.lat is None


@pytest.mark.parametrize(
    ("status", "delivered", "cancelled"),
    [
        ({"statusMessage": "Order delivered", "subStatusMessage": "DELIVERED"}, True, False),
        ({"statusMessage": "Your order was cancelled", "etaText": "—"}, False, True),
        ({"statusMessage": "Order confirmed", "subStatusMessage": "CONFIRMED"}, False, False),
        ({"statusMessage": "Delivery partner is on the way"}, False, False),
    ],
)
def test_final_states_of_track_order(
    status: dict[str, str], delivered: bool, cancelled: bool
) -> None:
    read = Answers(track_order={**TRACK_ORDER, "status": status})
    _, state = poll(read, TrackedOrder("instamart", "IM-1", lat=1.0, lng=2.0))
    assert (state.delivered, state.cancelled, state.is_final) == (
        delivered,
        cancelled,
        delivered or cancelled,
    )
    assert (state.refresh_seconds is None) == (delivered or cancelled)
    if state.is_final:
        assert state.eta_text is None


def test_a_delivered_instamart_order_is_final_without_tracking_it() -> None:
    done = {
        **GET_ORDERS_ENTRY,
        "isActive": False,
        "status": "DELIVERED",
        "currentStatus": "DELIVERED",
    }
    read = Answers(get_orders={"orders": [done]})
    _, state = poll(read, TrackedOrder("instamart", "IM-1"))
    assert state.delivered and state.is_final and state.progress == 1.0
    assert [tool for tool, _ in read.calls] == ["get_orders"]


def test_food_reads_words_from_tracking_and_interval_and_flags_from_delivery_status() -> None:
    read = Answers(track_food_order={"orders": [TRACK_FOOD]}, get_food_delivery_status=FOOD_STATUS)
    _, state = poll(read, TrackedOrder("food", "F-9"))
    assert {tool for tool, _ in read.calls} == {"track_food_order", "get_food_delivery_status"}
    assert all(args == {"orderId": "F-9"} for _, args in read.calls)
    assert state.headline == "Restaurant is preparing your food"
    assert state.items == "Meghana Foods · 1 x Chicken Biryani"
    assert state.eta_text == "25 mins" and state.progress == 0.4
    assert state.interval_seconds == 20  # pollIntervalSec wins over pollingDuration


@pytest.mark.parametrize(("flag", "final"), [("delivered", True), ("cancelled", True)])
def test_food_delivery_status_flags_end_the_tracking(flag: str, final: bool) -> None:
    read = Answers(
        track_food_order={"orders": [TRACK_FOOD]},
        get_food_delivery_status={**FOOD_STATUS, flag: True, "pollIntervalSec": 5},
    )
    _, state = poll(read, TrackedOrder("food", "F-9"))
    assert state.is_final is final and state.refresh_seconds is None
    assert getattr(state, flag) is True and state.eta_text is None


def test_food_time_left_comes_from_the_epoch_times_without_eta_text() -> None:
    read = Answers(
        track_food_order={"orders": [{k: v for k, v in TRACK_FOOD.items() if k != "etaText"}]},
        get_food_delivery_status=FOOD_STATUS,
    )
    _, state = poll(read, TrackedOrder("food", "F-9"))
    assert state.eta_text == "25 mins"  # (1 800 000 − 300 000) ms


def test_active_food_orders_come_from_track_food_order_without_an_id() -> None:
    read = Answers(track_food_order={"orders": [TRACK_FOOD], "statusMessage": "1 active"})
    ((order, state),) = active_orders(read, "food")
    assert read.calls == [("track_food_order", {})]
    assert order.order_id == "F-9" and state.interval_seconds == 15  # pollingDuration


def test_active_instamart_orders_are_tracked_with_their_coordinates() -> None:
    read = Answers(get_orders={"orders": [GET_ORDERS_ENTRY]}, track_order=TRACK_ORDER)
    ((order, state),) = active_orders(read, "instamart")
    assert read.calls[0] == ("get_orders", {"activeOnly": True})
    assert order.lat == 12.2 and state.interval_seconds == 45


def test_a_refused_read_raises_a_coded_failure() -> None:
    refused = json.dumps({"success": False, "error": {"message": "Invalid orderId"}})
    read = Answers(track_order=refused)
    with pytest.raises(TrackingReadFailed) as caught:
        poll(read, TrackedOrder("instamart", "IM-1", lat=1.0, lng=2.0))
    assert caught.value.code is ErrorCode.TOOL_DOMAIN and "Invalid orderId" in caught.value.message


def test_only_read_tools_are_called_and_bookings_are_not_tracked() -> None:
    reads = {"track_order", "get_orders", "track_food_order", "get_food_delivery_status"}
    assert reads == TRACKING_TOOLS
    assert order_to_track("dineout", "B-1") is None
    assert order_to_track("food", " F-9 ") == TrackedOrder("food", "F-9")
