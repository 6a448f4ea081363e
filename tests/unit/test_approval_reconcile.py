"""An unclear booking is settled by the status of the orderId its answer carried, never by
booking again; Dineout has no list of bookings, so there is nothing to compare."""

from __future__ import annotations

import json
from typing import Any

import pytest

from swiggy_core.approval import execute, placed_ids
from swiggy_core.errors import ErrorCode
from swiggy_core.mcp import McpCallError
from swiggy_core.verticals import get_vertical

DINING = get_vertical("dining")
ARGS = {"restaurantId": "r1", "slotId": 5, "itemId": "r1-9", "reservationTime": 1, "guestCount": 2}


class Peer:
    """Stands in for the app's MCP client: records every call, answers as told."""

    def __init__(self, spend: str | Exception, status: str | Exception = "") -> None:
        self.spend, self.status = spend, status
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def call(self, tool: str, arguments: dict[str, Any]) -> str:
        self.calls.append((tool, arguments))
        answer = self.spend if tool == "book_table" else self.status
        if isinstance(answer, Exception):
            raise answer
        return answer


def _run(peer: Peer):
    return execute(DINING, "book_table", ARGS, peer.call, peer.call, None)


def _ok(data: dict[str, Any]) -> str:
    return json.dumps({"success": True, "data": data})


def test_there_is_no_booking_list_to_read():
    peer = Peer(spend="")
    assert placed_ids(DINING, peer.call, ARGS) is None
    assert peer.calls == []


def test_an_unclear_answer_with_an_order_id_is_settled_by_its_status():
    peer = Peer(
        spend="1. Table request at Toit for 2 (ID: DO77)",
        status=_ok({"orderId": "DO77", "status": "CONFIRMED", "guestCount": 2}),
    )
    outcome = _run(peer)
    assert outcome.status == "done"
    assert [tool for tool, _ in peer.calls] == ["book_table", "get_booking_status"]
    assert peer.calls[1][1] == {"orderId": "DO77"}
    assert outcome.answer.result == {
        "success": True,
        "data": {"orderId": "DO77", "status": "CONFIRMED"},
    }


def test_a_summary_answer_names_the_order_and_an_unknown_order_means_no_booking():
    peer = Peer(
        spend="Your booking request was received (ID: DO78).",
        status=json.dumps({"success": False, "error": {"message": "Invalid orderId DO78"}}),
    )
    outcome = _run(peer)
    assert outcome.status == "failed"
    assert peer.calls[1] == ("get_booking_status", {"orderId": "DO78"})


@pytest.mark.parametrize(
    "spend",
    [McpCallError("The MCP server did not answer in time."), "Something happened."],
)
def test_without_an_order_id_the_outcome_is_unknown_and_nothing_is_called_again(spend):
    peer = Peer(spend=spend)
    outcome = _run(peer)
    assert outcome.status == "unknown" and outcome.answer.approval == "unknown"
    assert [tool for tool, _ in peer.calls] == ["book_table"]
    assert "check your bookings in the Swiggy app" in json.dumps(outcome.answer.result)


def test_a_refused_token_fails_before_anything_ran():
    peer = Peer(spend=McpCallError("401", code=ErrorCode.TOOL_AUTH))
    assert _run(peer).status == "failed"
    assert len(peer.calls) == 1
