"""Reading plain English and card actions into planner intents."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from swiggy_sandbox.planner import read_intent
from swiggy_sandbox.planner import text as en
from swiggy_sandbox.planner.dineout_replies import venue_query


@pytest.mark.parametrize(
    ("text", "vertical", "expected"),
    [
        (
            "find high-protein snacks under 200",
            "food",
            {"kind": "search", "query": "high protein snacks"},
        ),
        ("add 2 of the first one", "food", {"kind": "add", "position": 0, "quantity": 2}),
        (
            "Add two Amul butter",
            "food",
            {"kind": "add", "quantity": 2, "phrase": "amul butter"},
        ),
        ("show my cart", "food", {"kind": "view_cart"}),
        ("what's in my basket?", "food", {"kind": "view_cart"}),
        ("remove the chips", "food", {"kind": "remove", "name_words": ["chip"]}),
        ("make it 3", "food", {"kind": "set_quantity", "quantity": 3}),
        ("place the order", "food", {"kind": "checkout"}),
        ("place my order", "foodorder", {"kind": "checkout"}),
        ("checkout now", "style", {"kind": "checkout"}),
        # Typed yes-words are "confirm": the planner answers that only the dialog confirms.
        ("yes please", "food", {"kind": "confirm"}),
        ("go ahead", "foodorder", {"kind": "confirm"}),
        ("confirm the order", "food", {"kind": "confirm"}),
        ("ok", "dining", {"kind": "confirm"}),
        ("no, don't", "foodorder", {"kind": "cancel"}),
        ("suggest a skincare routine for oily skin", "style", {"kind": "routine"}),
        ("I want a paneer biryani", "foodorder", {"kind": "search", "query": "paneer biryani"}),
        ("order from the second restaurant", "foodorder", {"kind": "choose", "position": 1}),
        (
            "add the paneer biryani",
            "foodorder",
            {"kind": "add", "name_words": ["paneer", "biryani"]},
        ),
        ("book a table for 4 tomorrow at 8 pm near Indiranagar", "dining", {"kind": "search"}),
        ("the first one", "dining", {"kind": "choose", "position": 0}),
        ("book the 8 pm slot", "dining", {"kind": "pick_slot"}),
        ("book it", "dining", {"kind": "pick_slot"}),
        ("7:30 pm works", "dining", {"kind": "pick_slot"}),
        ("show my saved addresses", "food", {"kind": "addresses"}),
        ("list my saved locations", "dining", {"kind": "addresses"}),
        ("hello", "food", {"kind": "help"}),
        ("what can you do?", "foodorder", {"kind": "help"}),
    ],
)
def test_typed_messages(text: str, vertical: str, expected: dict[str, Any]) -> None:
    intent = read_intent(text, None, vertical)
    assert {key: getattr(intent, key) for key in expected} == expected


def test_a_card_action_wins_over_the_words() -> None:
    action = {"kind": "pick_slot", "label": "Book", "ids": {"slotId": 7, "restaurantId": "r1"}}
    intent = read_intent("find pizza", action, "dining")
    assert (intent.kind, intent.ids["slotId"]) == ("pick_slot", 7)
    checkout = read_intent("yes", {"kind": "request_checkout", "label": "Place order"}, "X")
    assert checkout.kind == "checkout", "the button asks for approval, like the words"
    # An old-style confirm button is only a confirm intent: the planner never spends on it.
    confirm = read_intent("", {"kind": "confirm", "label": "Yes", "tool_name": "checkout"}, "X")
    assert (confirm.kind, confirm.tool_name) == ("confirm", "checkout")


@pytest.mark.parametrize(
    ("text", "hhmm"),
    [
        ("8 pm", "20:00"),
        ("at 7:30pm", "19:30"),
        ("12 am", "00:00"),
        ("20:15", "20:15"),
        ("soon", None),
    ],
)
def test_clock_times(text: str, hhmm: str | None) -> None:
    assert en.clock_time(text) == hhmm


def test_party_days_places_prices_and_positions() -> None:
    request = "book a table for 4 tomorrow at 8 pm near indiranagar"
    assert en.party_size(request) == 4
    assert en.party_size("dinner for six people") == 6
    assert en.party_size("at 8 pm") is None
    assert en.day_word(request) == "tomorrow"
    assert en.place(request) == "indiranagar"
    assert en.place("somewhere in hsr layout for 2") == "hsr layout"
    friday = date(2026, 11, 20)
    assert en.resolve_day("tomorrow", friday) == date(2026, 11, 21)
    assert en.resolve_day("tonight", friday) == friday
    assert en.resolve_day("monday", friday) == date(2026, 11, 23)
    assert en.resolve_day("weekend", friday) == date(2026, 11, 21)
    assert en.price_cap("snacks below ₹150") == 150
    assert en.ordinal("option 3") == 2 and en.ordinal("the last one") == -1
    assert en.quantity("add 3 x bread") == 3 and en.quantity("add bread") is None


def test_venue_queries_keep_cuisine_and_place_only() -> None:
    assert venue_query("book a table for 4 tomorrow at 8 pm near indiranagar") == "indiranagar"
    assert venue_query("italian dinner for 2 tonight in indiranagar") == "italian indiranagar"
    assert venue_query("a rooftop place for 2 tonight at 7 pm") == "rooftop"


def test_best_match_needs_enough_shared_words() -> None:
    names = ["Lay's Classic Salted Potato Chips", "Amul Salted Butter"]
    assert en.best_match(["salted", "chip"], names, str) == names[0]
    assert en.best_match(["salted", "peanut"], names, str, minimum=2) is None
    assert en.rupees(54) == "₹54" and en.rupees(410.85) == "₹410.85"


def test_amounts_parties_counts_and_times_in_words() -> None:
    assert en.price_cap("snacks under two hundred") == 200
    assert en.price_cap("burgers under two hundred and fifty") == 250
    assert en.price_cap("greek yogurt under one fifty") == 150
    assert en.price_cap("a table below 2k") == 2000
    assert en.price_cap("shampoo below 300 rupees") == 300
    assert en.without_price("snacks under two hundred rupees").split() == ["snacks"]
    assert en.wants_cheap("a low budget face wash") and not en.wants_cheap("face wash")
    assert en.party_size("rooftop for a party of eight") == 8
    assert en.party_size("birthday dinner, we are six") == 6
    assert en.party_size("dinner for a romantic evening") is None
    assert en.party_size("pizza for two hundred rupees") is None  # an amount, not guests
    assert en.quantity("get me three packs of maggi") == 3
    assert en.clock_time("a table for two at 8 tonight") == "20:00"
    assert en.clock_time("dinner at 7:30") == "19:30"


@pytest.mark.parametrize(
    ("text", "vertical", "expected"),
    [
        (
            "low sugar snacks for my dad",
            "food",
            {"kind": "search", "query": "low sugar snacks"},
        ),
        ("I need milk for my mom", "food", {"kind": "search", "query": "milk"}),
        ("a dozen eggs", "food", {"kind": "search", "query": "eggs"}),
        ("cookies for my kids", "food", {"kind": "search", "query": "biscuits"}),
        (
            "I want two Amul butter",
            "food",
            {"kind": "add", "quantity": 2, "phrase": "amul butter"},
        ),
        ("add two packets of amul milk", "food", {"kind": "add", "phrase": "amul milk"}),
        ("two paneer biryanis", "foodorder", {"kind": "search", "query": "paneer biryanis"}),
    ],
)
def test_who_it_is_for_counts_and_everyday_names_leave_the_query(
    text: str, vertical: str, expected: dict[str, Any]
) -> None:
    intent = read_intent(text, None, vertical)
    assert {key: getattr(intent, key) for key in expected} == expected
