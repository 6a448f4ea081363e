"""The per-user, per-server rate budget on the in-memory state: 120 calls and 30 writes a
minute, counted separately per person and server, shared by every budget on one state."""

from __future__ import annotations

import logging

import pytest
from closed_port import closed_port
from hand_clock import HandClock

from swiggy_core.mcp.budget import RateBudget
from swiggy_core.shared_state import MemoryState, RedisState, person_key
from swiggy_core.shops import WRITE_TOOL_NAMES
from swiggy_sandbox.servers import WRITE_TOOLS

WINDOW_START = 1_800_000_000.0  # a minute begins here


def budget_pair() -> tuple[RateBudget, RateBudget, HandClock]:
    """Two budgets (two app processes) over one state, on one clock."""
    clock = HandClock(WINDOW_START + 40)
    state = MemoryState(clock=clock)
    return RateBudget(state, clock=clock), RateBudget(state, clock=clock), clock


def test_write_tools_are_every_tool_that_changes_state_on_the_sandbox_servers() -> None:
    assert frozenset().union(*WRITE_TOOLS.values()) == WRITE_TOOL_NAMES
    assert {"update_food_cart", "book_table", "cancel_booking", "clear_cart"} <= WRITE_TOOL_NAMES
    assert not {"search_products", "get_cart", "get_available_slots"} & WRITE_TOOL_NAMES


def test_thirty_writes_a_minute_then_a_refusal_that_says_when_to_retry() -> None:
    here, there, _clock = budget_pair()
    for index in range(30):
        budget = here if index % 2 else there
        assert budget.take("alice", "food", "update_food_cart") is None
    refusal = here.take("alice", "food", "place_food_order")
    assert refusal == (
        "Slow down: 30 changes a minute to swiggy-food is the limit; try again in 20 s."
    )
    assert there.take("alice", "food", "flush_food_cart") == refusal


def test_reads_go_on_after_the_writes_run_out_until_120_calls() -> None:
    here, there, _clock = budget_pair()
    for _ in range(31):  # 30 writes spent, one refused (not counted as a call)
        here.take("alice", "food", "update_food_cart")
    for index in range(90):
        budget = here if index % 2 else there
        assert budget.take("alice", "food", "search_menu") is None, index
    assert there.take("alice", "food", "search_menu") == (
        "Slow down: 120 calls a minute to swiggy-food is the limit; try again in 20 s."
    )


def test_each_person_and_server_has_a_budget_of_their_own() -> None:
    here, _there, _clock = budget_pair()
    for _ in range(30):
        here.take("alice", "food", "update_food_cart")
    assert here.take("alice", "food", "update_food_cart") is not None
    assert here.take("bob", "food", "update_food_cart") is None
    assert here.take("alice", "instamart", "update_cart") is None
    assert here.take("alice", "dineout", "book_table") is None


def test_the_next_minute_brings_a_fresh_budget() -> None:
    here, _there, clock = budget_pair()
    for _ in range(120):
        here.take("alice", "instamart", "search_products")
    assert here.take("alice", "instamart", "get_cart") is not None
    clock.advance(19.9)
    refusal = here.take("alice", "instamart", "get_cart")
    assert refusal is not None and refusal.endswith("try again in 1 s.")
    clock.advance(0.1)
    assert here.take("alice", "instamart", "get_cart") is None


def test_limits_are_configurable_and_other_servers_are_named_by_key() -> None:
    clock = HandClock(WINDOW_START + 40)
    state = MemoryState(clock=clock)
    budget = RateBudget(state, calls_per_minute=2, writes_per_minute=1, clock=clock)
    assert budget.take("alice", "my-notes", "create_note") is None
    assert budget.take("alice", "my-notes", "list_notes") is None
    assert budget.take("alice", "my-notes", "list_notes") == (
        "Slow down: 2 calls a minute to my-notes is the limit; try again in 20 s."
    )


def test_when_counting_fails_the_call_is_allowed_and_a_warning_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    state = RedisState(f"redis://:budget-secret-pw@127.0.0.1:{closed_port()}/0")
    budget = RateBudget(state)
    with caplog.at_level(logging.WARNING):
        assert budget.take("alice", "food", "update_food_cart") is None
    assert "Rate budget not counted" in caplog.text and "[E-4101]" in caplog.text
    assert "budget-secret-pw" not in caplog.text
    state.close()


def test_the_counters_name_a_person_only_by_a_digest() -> None:
    clock = HandClock(WINDOW_START + 40)
    state = MemoryState(clock=clock)
    budget = RateBudget(state, clock=clock)
    people = ("b-4f9a0c1d2e3b4a5f@sandbox", "asha.rao@example.com@swiggy")
    for person in people:
        assert budget.take(person, "food", "update_food_cart") is None
        assert budget.take(person, "instamart", "search_products") is None
    keys = state.keys("")
    assert len(keys) == 6  # writes and calls on food, calls on instamart, for each person
    for person in people:
        for part in (person, *person.split("@")):
            assert all(part not in key for key in keys), (part, keys)
        assert sum(person_key(person) in key for key in keys) == 3
