"""The slot picker highlights the time the person asked for in the chat (Swiggy's slot
tool takes only a date, so the page carries the time from the person's words)."""

from __future__ import annotations

from uihelpers import buttons, open_page

from swiggy_core.formatting import asked_time


def test_asked_times_read_from_words():
    assert asked_time("italian dinner for 2 tomorrow at 8 pm") == "8:00 PM"
    assert asked_time("a table for 2 people at 7:30pm") == "7:30 PM"
    assert asked_time("dinner for 4 at 20:30") == "8:30 PM"
    assert asked_time("brunch for 2 on Saturday") is None  # "2" is not a time
    assert asked_time("for 13pm") is None


def test_the_offline_booking_flow_highlights_the_asked_time(app):
    at = open_page(app, "app_pages/tablescout.py")
    at.chat_input[0].set_value("show my saved addresses").run()
    buttons(at, "Use this address")[0].click().run()
    at.chat_input[0].set_value("italian dinner for 2 tomorrow at 8 pm").run()
    at = buttons(at, "Slots")[0].click().run()
    assert not at.exception
    starred = [b for b in at.button if b.proto.icon == ":material/star:"]
    assert [b.label for b in starred] == ["8:00 PM"]
    assert starred[0].proto.type == "primary"
