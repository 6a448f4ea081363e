"""The planner reads the core's session summary as data (fields and slots)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from swiggy_core.constants import SESSION_SUMMARY_PREFIX
from swiggy_core.conversation.summary import build_session_state_summary
from swiggy_core.models import ChatMessage
from swiggy_sandbox.planner.session import session_fields, session_slots

NOW = datetime(2026, 11, 20, 13, 0, tzinfo=timezone(timedelta(hours=5, minutes=30)))


def _system(vertical_id: str, *texts: str) -> str:
    messages = [ChatMessage.model_validate({"role": "user", "content": t}) for t in texts]
    summary = build_session_state_summary(vertical_id=vertical_id, messages=messages, now=NOW)
    return f"You are TableScout.\n\n{SESSION_SUMMARY_PREFIX}{summary}\n\nMore rules."


def test_slots_come_from_the_summary_the_core_built() -> None:
    system = _system("dining", "rooftop dinner on Saturday, we are 6", "under ₹3000 please")
    slots = session_slots(system)
    assert slots["party"] == "6"
    assert slots["date"] == "saturday"
    assert slots["vibe"] == "rooftop"
    assert slots["budget"] == "under ₹3000"


def test_style_slots_and_the_intent_field() -> None:
    system = _system("style", "suggest a routine for oily skin")
    assert session_slots(system)["skin"] == "oily"
    assert session_fields(system)["intent"] == "advice"
    assert "confirm" not in session_fields(system)  # "none" is no value


def test_without_a_summary_there_is_nothing_to_read() -> None:
    assert session_slots("You are NutriCart.") == {}
    assert session_fields("") == {}
