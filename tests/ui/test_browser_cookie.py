"""The browser id's cookie writer: on the page on every run until the browser confirms it.

A writer that is emitted once and then dropped can be taken off the page by the next rerun
before the browser ran it (a slow machine, a message sent at once): the cookie is never
written, and the next reload is a new person with no chats and no Activity.
"""

from __future__ import annotations

import json

import pytest
from uihelpers import new_app, open_page, store_user

from swiggy_ui import identity
from swiggy_ui.identity import BROWSER_COOKIE, stored_here

ID = "0123456789abcdef0123456789abcdef"


def _layout(at) -> list[str]:
    """The kinds of the page's top-level elements, in order."""
    return [str(getattr(node, "type", "")) for node in at.main.children.values()]


def _writers(at) -> list[dict[str, object]]:
    """The data of each cookie writer on the page (this browser's id, the cookie's name)."""
    return [
        json.loads(element.proto.json)
        for element in at.get("bidi_component")
        if element.proto.component_name == "swiggy_browser_cookie"
    ]


def test_a_new_browsers_writer_stays_on_the_page_through_every_rerun(app) -> None:
    at = open_page(app, "nutricart")
    browser_id = at.session_state["browser_id"]
    first = _writers(at)
    assert [(w["name"], w["id"]) for w in first] == [(BROWSER_COOKIE, browser_id)]

    at.run()  # a rerun before the browser ran the writer: it is still there, unchanged
    assert _writers(at) == first

    at.chat_input[0].set_value("show my cart").run()  # a message sent at once
    assert not at.exception
    assert _writers(at) == first
    assert store_user(at) == f"b-{browser_id}@sandbox"  # the turn is this browser's


def test_the_writers_place_stays_when_it_leaves(app) -> None:
    """Once the browser has confirmed its id the writer goes, but an empty placeholder
    keeps its place: nothing below it moves (a move shows each element twice until the
    run ends)."""
    at = open_page(app, "nutricart")
    before = _layout(at)
    assert "bidi_component" in before
    at.session_state[identity._COOKIE_SET_KEY] = True  # what the writer's report sets
    at.run()
    after = _layout(at)
    assert not _writers(at)
    assert after == [("empty" if kind == "bidi_component" else kind) for kind in before]


def test_the_writer_is_on_every_page_of_the_session() -> None:
    at = open_page(new_app(), "app_pages/activity.py")
    assert [w["id"] for w in _writers(at)] == [at.session_state["browser_id"]]


@pytest.mark.parametrize(
    ("report", "believed"),
    [
        ({"stored": ID}, True),
        ({"stored": "fedcba9876543210fedcba9876543210"}, False),  # another browser id
        ({"stored": ID.upper()}, False),  # not the strict format
        ({"stored": None}, False),
        ({}, False),
        (None, False),
        (ID, False),  # not a report at all
    ],
)
def test_only_a_report_naming_this_sessions_id_counts(report: object, believed: bool) -> None:
    assert stored_here(report, ID) is believed
