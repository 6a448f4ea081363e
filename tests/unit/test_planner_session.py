"""The planner reads the core's session summary and the vertical profiles as data."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

import pytest

from swiggy_core.constants import SESSION_SUMMARY_PREFIX, SWIGGY_TZ
from swiggy_core.conversation._context import AddressView
from swiggy_core.conversation.summary import build_session_state_summary
from swiggy_core.conversation.summary_read import Place, format_place, read_session_summary
from swiggy_core.engine.setup import TurnSetup, build_turn_params
from swiggy_core.models import ChatMessage
from swiggy_core.verticals import VERTICALS, build_system_prompt
from swiggy_sandbox.connector import TurnContext
from swiggy_sandbox.planner.session import profile_vertical
from swiggy_sandbox.planner.view import build_view

NOW = datetime(2026, 11, 20, 13, 0, tzinfo=SWIGGY_TZ)
HOME = AddressView("addr_home_x", "Home", "12th Main", 12.97, 77.64)


def _messages(*texts: str) -> list[ChatMessage]:
    return [ChatMessage.model_validate({"role": "user", "content": t}) for t in texts]


def _system(vertical_id: str, *texts: str, address: object = None) -> str:
    summary = build_session_state_summary(
        vertical_id=vertical_id, messages=_messages(*texts), address=address, now=NOW
    )
    return f"Some rules.\n\n{SESSION_SUMMARY_PREFIX}{summary}\n\nMore rules."


def _context(system: str, messages: list[dict[str, Any]]) -> TurnContext:
    return TurnContext(
        system=system, messages=messages, tools={}, disabled_tools={}, client_tools=[]
    )


def test_slots_come_from_the_summary_the_core_built() -> None:
    system = _system("dining", "rooftop dinner on Saturday, we are 6", "under ₹3000 please")
    summary = read_session_summary(system)
    assert summary is not None
    assert summary.slots["party"] == "6"
    assert summary.slots["date"] == "saturday"
    assert summary.slots["vibe"] == "rooftop"
    assert summary.slots["budget"] == "under ₹3000"


def test_intent_date_and_the_active_address_round_trip() -> None:
    summary = read_session_summary(
        _system("style", "suggest a routine for oily skin", address=HOME)
    )
    assert summary is not None
    assert summary.slots["skin"] == "oily"
    assert summary.intent == "advice"
    assert summary.confirm is None  # "none" is no value
    assert summary.moment == NOW
    assert summary.location == Place("Home", "addr_home_x", 12.97, 77.64)


@pytest.mark.parametrize(
    ("label", "ident", "lat", "lng", "expected"),
    [
        ("Home", "addr-1", 12.97, 77.64, Place("Home", "addr-1", 12.97, 77.64)),
        ("Work", "a9", None, None, Place("Work", "a9")),
        (None, "a9", None, None, Place("", "a9")),
        ("Toit (Indiranagar)", "r_42", None, None, Place("Toit (Indiranagar)", "r_42")),
        ("x" * 60, "addr-2", -1.5, 3.25, Place("x" * 31 + "…", "addr-2", -1.5, 3.25)),
    ],
)
def test_places_are_read_back_as_written(
    label: str | None, ident: str, lat: float | None, lng: float | None, expected: Place
) -> None:
    line = f"{SESSION_SUMMARY_PREFIX}location={format_place(label, ident, lat, lng)}"
    summary = read_session_summary(line)
    assert summary is not None and summary.location == expected


def test_without_a_summary_there_is_nothing_to_read() -> None:
    assert read_session_summary("You are NutriCart.", "") is None


def test_every_vertical_is_known_by_its_profile_prompt() -> None:
    for vertical in VERTICALS.values():
        system = f"{build_system_prompt(vertical.id)}\n\nActive address: …"
        assert profile_vertical(system) is vertical
    assert profile_vertical("You are StyleKit.") is None


def test_the_planner_view_reads_the_request_the_core_builds() -> None:
    """No prose block is read: address, coordinates, date and shop come as data."""
    setup = TurnSetup(vertical_id="dining", model="claude-sonnet-4-5", address=HOME)
    params = build_turn_params(setup, _messages("table for 4 tomorrow at 8 pm"), now=NOW)
    system = "\n\n".join(block["text"] for block in params["system"])
    view = build_view(_context(system, params["messages"]))
    assert view.vertical == "dining"
    assert view.address_id() == "addr_home_x"
    assert view.coordinates() == (12.97, 77.64)
    assert view.today() == date(2026, 11, 20)
    assert view.slot("party") == "4"


def test_only_the_summary_counts_not_the_prose() -> None:
    """Prose that names another address or date is not parsed; the summary wins."""
    system = (
        build_system_prompt("food")
        + "\nActive address: Work (addressId: addr_work_y, latitude 1.0, longitude 2.0)."
        + "\nCurrent date: ISO date 2030-01-01.\n"
        + SESSION_SUMMARY_PREFIX
        + build_session_state_summary(
            vertical_id="food", messages=_messages("eggs"), address=HOME, now=NOW
        )
    )
    view = build_view(_context(system, [{"role": "user", "content": "eggs"}]))
    assert view.vertical == "food"
    assert (view.address_id(), view.coordinates()) == ("addr_home_x", (12.97, 77.64))
    assert view.today() == date(2026, 11, 20)
