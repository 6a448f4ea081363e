"""Swiggy's documented error catalogue maps to our codes, messages and next steps."""

from __future__ import annotations

import json

import pytest

from swiggy_core.errors import ErrorCode
from swiggy_core.tool_errors import (
    RECONNECT_CATEGORIES,
    ToolErrorCategory,
    classify_mcp_tool_error,
    classify_tool_failure,
    tool_error_info,
)

C = ToolErrorCategory


@pytest.mark.parametrize(
    ("status", "category", "code"),
    [
        (400, C.VALIDATION, ErrorCode.TOOL_VALIDATION),
        (401, C.AUTH, ErrorCode.TOOL_AUTH),
        (403, C.FORBIDDEN, ErrorCode.TOOL_FORBIDDEN),
        (404, C.NOT_FOUND, ErrorCode.TOOL_NOT_FOUND),
        (419, C.REVOKED, ErrorCode.TOOL_SESSION_REVOKED),
        (429, C.RATE_LIMIT, ErrorCode.TOOL_RATE_LIMITED),
        (500, C.INTERNAL, ErrorCode.TOOL_INTERNAL),
        (502, C.SERVER, ErrorCode.TOOL_UPSTREAM),
        (503, C.SERVER, ErrorCode.TOOL_UPSTREAM),
        (504, C.SERVER, ErrorCode.TOOL_UPSTREAM),
    ],
)
def test_every_documented_http_status_has_a_code(status, category, code):
    error = classify_tool_failure(status=status)
    assert (error.category, error.code) == (category, code)
    assert error.message


@pytest.mark.parametrize(
    ("rpc", "category"), [(-32001, C.AUTH), (-32601, C.NOT_FOUND), (-32603, C.INTERNAL)]
)
def test_json_rpc_codes(rpc, category):
    assert classify_tool_failure(rpc_code=rpc).category is category
    text = json.dumps({"jsonrpc": "2.0", "id": 3, "error": {"code": rpc, "message": "x"}})
    assert classify_mcp_tool_error(text).category is category


def test_a_429_carries_its_wait_beside_the_message():
    error = classify_mcp_tool_error("HTTP 429 Too Many Requests; Retry-After: 17")
    assert error.category is C.RATE_LIMIT and error.retry_after_seconds == 17
    # The banner says when to try again; the message saying it too would say it twice.
    assert error.message == "Swiggy is limiting requests right now (429)."


def test_a_rate_limit_named_only_in_words_is_one():
    error = classify_mcp_tool_error("Rate limit exceeded: 30 writes per minute. Retry after 60 s.")
    assert (error.category, error.code, error.retry_after_seconds) == (
        C.RATE_LIMIT,
        ErrorCode.TOOL_RATE_LIMITED,
        60,
    )
    # A wait far beyond any sensible one is capped, not repeated to the person.
    assert classify_tool_failure(status=429, retry_after=10**9).retry_after_seconds == 3600


def test_419_needs_a_full_sign_in_and_401_a_reconnect():
    revoked = classify_mcp_tool_error("Session revoked (419)")
    assert revoked.category is C.REVOKED and "OTP" in revoked.message
    assert {C.AUTH, C.REVOKED, C.FORBIDDEN} == RECONNECT_CATEGORIES
    assert classify_mcp_tool_error("Cannot resolve session").category is C.AUTH


def test_planned_symbolic_codes_win_over_the_message():
    envelope = {"success": False, "error": {"code": "SLOT_UNAVAILABLE", "message": "oops 500"}}
    error = classify_mcp_tool_error(json.dumps(envelope))
    assert error.category is C.DOMAIN and error.code == ErrorCode.TOOL_DOMAIN
    assert error.message == "That time slot is no longer available."
    expired = {"success": False, "error": {"code": "TOKEN_EXPIRED", "message": "Token expired"}}
    assert classify_mcp_tool_error(json.dumps(expired)).category is C.AUTH
    unserviceable = {"success": False, "error": {"code": "ADDRESS_NOT_SERVICEABLE"}}
    assert classify_mcp_tool_error(json.dumps(unserviceable)).category is C.ADDRESS


@pytest.mark.parametrize(
    ("message", "category"),
    [
        ("Invalid restaurantId: must be numeric", C.VALIDATION),
        ("Missing query", C.VALIDATION),
        ("Upstream timeout while fetching menu", C.SERVER),
        ("Internal error in search_menu; please try again later.", C.INTERNAL),
        ("Some error while creating the order", C.INTERNAL),
        ("Address with id addr_9 not found", C.ADDRESS),
    ],
)
def test_classified_by_message_when_nothing_else_is_there(message, category):
    assert classify_mcp_tool_error(message).category is category


def test_report_error_is_offered_only_for_failures_swiggy_wants_reported():
    internal = tool_error_info(classify_tool_failure(status=500, message="boom"), "search_menu")
    assert internal.report_tool == "search_menu" and internal.report_detail == "boom"
    assert internal.category == "tool_internal"
    for status in (401, 419, 429):
        info = tool_error_info(classify_tool_failure(status=status), "get_cart")
        assert info.report_tool is None
    limited = tool_error_info(classify_tool_failure(status=429, retry_after=9), "get_cart")
    assert limited.retry_after_seconds == 9
