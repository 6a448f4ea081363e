"""Failures are never confirmations: orders and bookings need an id and no failure signal."""

from __future__ import annotations

import json

import pytest

from swiggy_core.parsers import (
    BookingConfirmedResult,
    OrderPlacedResult,
    StatusResult,
    parse_tool_result,
)


@pytest.mark.parametrize(
    "payload",
    [
        {"success": False, "error": {"message": "Slot not available"}},
        {"success": True, "data": {"bookingId": "B1", "status": "FAILED"}},
        {"success": True, "data": {"bookingId": "B1", "status": "SLOT_UNAVAILABLE"}},
        {"success": True, "data": {"bookingId": "B1", "status": "REJECTED"}, "message": "Sorry"},
        {"success": True, "data": {"slotId": "S1"}, "message": "Slot is no longer available"},
        {"success": True, "data": {"restaurantId": "R1", "slotId": "S1"}},
        {"success": True, "data": {"bookingId": None}},
        {"success": True, "data": {"bookingId": "B1", "error": "Slot full"}},
        {"success": True, "data": {"bookingId": "B1", "success": False}},
        {"bookingId": "B1", "status": "error"},
    ],
)
def test_failed_or_unconfirmed_bookings_are_status(payload: dict[str, object]) -> None:
    result = parse_tool_result("book_table", json.dumps(payload), "dining")
    assert isinstance(result, StatusResult)
    assert result.success is False
    assert result.message


def test_is_error_booking_is_status_with_the_error_text() -> None:
    result = parse_tool_result("book_table", "Slot SL-1 unavailable", "dining", is_error=True)
    assert result == StatusResult(
        tool_name="book_table", success=False, message="Slot SL-1 unavailable"
    )


def test_booking_without_id_names_the_next_step() -> None:
    result = parse_tool_result(
        "book_table", json.dumps({"success": True, "data": {"guestCount": 2}}), "dining"
    )
    assert isinstance(result, StatusResult) and "booking status" in result.message


def test_pending_booking_with_id_is_confirmed_with_its_status() -> None:
    payload = {"success": True, "data": {"booking": {"id": "B7", "status": "PENDING"}}}
    result = parse_tool_result("book_table", json.dumps(payload), "dining")
    assert isinstance(result, BookingConfirmedResult)
    assert (result.booking_id, result.status) == ("B7", "PENDING")


def test_success_status_overrides_incidental_words_in_the_message() -> None:
    payload = {
        "success": True,
        "data": {"orderId": "O1", "status": "PLACED"},
        "message": "Placed. COD orders cannot be cancelled.",
    }
    result = parse_tool_result("place_food_order", json.dumps(payload), "foodorder")
    assert isinstance(result, OrderPlacedResult) and result.order_id == "O1"


@pytest.mark.parametrize(
    "payload",
    [
        {"success": False, "error": {"message": "Cart is empty"}},
        {"success": True, "data": {"status": "PAYMENT_FAILED", "orderId": "O1"}},
        {"success": True, "data": {}, "message": "Could not place the order"},
        {"success": True, "data": {"cartId": "C1"}},
    ],
)
def test_failed_or_unconfirmed_orders_are_status(payload: dict[str, object]) -> None:
    for tool, vertical in (("checkout", "food"), ("place_food_order", "foodorder")):
        result = parse_tool_result(tool, json.dumps(payload), vertical)
        assert isinstance(result, StatusResult), (tool, payload)
        assert result.success is False


def test_order_id_nested_under_order() -> None:
    payload = {"data": {"order": {"order_id": 99812, "status": "CONFIRMED"}}}
    result = parse_tool_result("checkout", json.dumps(payload), "style")
    assert isinstance(result, OrderPlacedResult) and result.order_id == "99812"


def test_non_json_confirmation_text_is_not_a_confirmation() -> None:
    result = parse_tool_result("book_table", "Booking confirmed!", "dining")
    assert result.type == "raw"


def test_search_failure_is_status() -> None:
    result = parse_tool_result(
        "search_restaurants_dineout",
        json.dumps({"success": False, "error": "No restaurants near this location"}),
        "dining",
    )
    assert result == StatusResult(
        tool_name="search_restaurants_dineout",
        success=False,
        message="No restaurants near this location",
    )
