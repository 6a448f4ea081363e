"""The slot picker highlights the time the person asked for in the chat (Swiggy's slot
tool takes only a date, so the page carries the time from the person's words)."""

from __future__ import annotations

from uihelpers import buttons, open_page

from swiggy_core.formatting import asked_time
from swiggy_core.parsers.clock import clock_minutes
from swiggy_ui.cards.slots import NEAR_KEY_PREFIX


def test_asked_times_read_from_words():
    assert asked_time("italian dinner for 2 tomorrow at 8 pm") == "8:00 PM"
    assert asked_time("a table for 2 people at 7:30pm") == "7:30 PM"
    assert asked_time("dinner for 4 at 20:30") == "8:30 PM"
    assert asked_time("brunch for 2 on Saturday") is None  # "2" is not a time
    assert asked_time("for 13pm") is None


def test_the_offline_booking_flow_highlights_the_asked_time(app):
    at = open_page(app, "tablescout")
    at.chat_input[0].set_value("show my saved addresses").run()
    buttons(at, "Use this address")[0].click().run()
    at.chat_input[0].set_value("italian dinner for 2 tomorrow at 8 pm").run()
    # The model is told the shop's time: "tomorrow" is the day after the sandbox's frozen
    # Tuesday 24 November, whatever today's real date (the shop's slots are for that day).
    assert any("Wednesday 25 November" in block.value for block in at.markdown)
    at = buttons(at, "Slots")[0].click().run()
    assert not at.exception
    starred = [b for b in at.button if b.proto.icon == ":material/star:"]
    assert [b.label for b in starred] == ["8:00 PM"]
    assert starred[0].proto.type == "primary"


def test_only_the_asked_slot_is_filled_and_its_neighbours_are_outlined(app):
    at = open_page(app, "tablescout")
    at.chat_input[0].set_value("italian dinner for 2 tomorrow at 8 pm").run()
    at = buttons(at, "Slots")[0].click().run()
    assert not at.exception
    chips = [b for b in at.button if b.label.endswith(("AM", "PM"))]
    filled = [b.label for b in chips if b.proto.type == "primary"]
    assert filled == ["8:00 PM"]  # filled reads as chosen: only the asked time is
    outlined = [b for b in chips if b.key.startswith(NEAR_KEY_PREFIX)]
    minutes = sorted(clock_minutes(b.label) or 0 for b in outlined)
    assert len(minutes) == 4 and minutes[1] < 20 * 60 < minutes[2]  # two free on each side
    assert all(b.proto.type == "secondary" and not b.disabled for b in outlined)
    assert any(f"st-key-{NEAR_KEY_PREFIX}" in html.value for html in at.get("html"))
