"""Activity: the person's latest tool calls, newest first, filtered, paged and as CSV."""

from __future__ import annotations

import csv
import io
import json
import os
from datetime import UTC, datetime, timedelta

from uihelpers import buttons, new_app, open_page, store_user, texts

from swiggy_core.store import ChatStore
from swiggy_core.store.tool_audit import ToolCallEntry

PAGE = "app_pages/activity.py"
START = datetime(2026, 11, 20, 6, 30, tzinfo=UTC)


def _store() -> ChatStore:
    return ChatStore(os.environ["SWIGGY_DATABASE_URL"])


def _calls(user: str, count: int, tag: str = "item") -> None:
    """`count` calls a minute apart: servers, tools and outcomes in a fixed rotation."""
    store = _store()
    for n in range(count):
        server, tool = [("instamart", "search_products"), ("food", "search_restaurants"),
                        ("instamart", "update_cart")][n % 3]  # fmt: skip
        outcome = ("ok", "ok", "error", "denied")[n % 4]
        store.record_tool_call(
            ToolCallEntry(
                at=START + timedelta(minutes=n),
                user_id=user,
                world="sandbox",
                vertical_id="food",
                conversation_id=None,
                server=server,
                tool=tool,
                arguments={"query": f"{tag} {n}"},
                outcome=outcome,
                duration_ms=100.0 + n,
                error_code={"error": "E-3202", "denied": "E-3207"}.get(outcome),
            )
        )


def _labels(at) -> list[str]:
    """Each call's line as read (the names are escaped for Markdown: `get\\_cart`)."""
    return [expander.label.replace("\\", "") for expander in at.expander]


def test_calls_are_listed_newest_first_and_paged(app):
    at = app
    at.run()
    user = store_user(at)
    _calls(user, 25)
    _calls("someone-else@sandbox", 3, tag="another person's")
    _calls(
        user.replace("@sandbox", "@swiggy"), 2, tag="real Swiggy"
    )  # the other world's calls stay there
    at.switch_page(PAGE).run()
    assert not at.exception
    labels = _labels(at)
    assert len(labels) == 20
    assert [f"{124 - n} ms" in label for n, label in enumerate(labels)] == [True] * 20
    assert "12:24:00" in labels[0]  # 06:54 UTC in India's time
    assert "25 calls" in texts(at.caption)
    assert "Page 1 of 2" in texts(at.caption)
    buttons(at, "Older")[0].click().run()
    assert len(_labels(at)) == 5
    assert "100 ms" in _labels(at)[-1]  # the oldest last
    assert "another person's" not in texts(at.code) and "real Swiggy" not in texts(at.code)
    assert "Page 2 of 2" in texts(at.caption)
    # The arguments are in the call's expander, as stored.
    assert '"query": "item 0"' in texts(at.code)


def _activity_of_twelve_calls(at):
    """Activity for a browser that made twelve calls (see `_calls`)."""
    at.run()
    _calls(store_user(at), 12)
    return at.switch_page(PAGE).run()


def test_filters_narrow_the_list(app):
    at = _activity_of_twelve_calls(app)
    at.selectbox(key="act-server").set_value("food").run()
    labels = _labels(at)
    assert len(labels) == 4 and all("food" in label for label in labels)
    at.selectbox(key="act-server").set_value("").run()
    at.selectbox(key="act-outcome").set_value("denied").run()
    labels = _labels(at)
    assert len(labels) == 3 and all("E-3207" in label for label in labels)
    at.selectbox(key="act-tool").set_value("update_cart").run()
    labels = _labels(at)
    assert all("update_cart" in label and "E-3207" in label for label in labels)


def test_the_csv_holds_what_the_filters_select(app, downloads):
    at = _activity_of_twelve_calls(app)
    at.selectbox(key="act-outcome").set_value("error").run()
    (button,) = at.get("download_button")
    rows = list(csv.DictReader(io.StringIO(downloads(button))))
    assert len(rows) == 3
    assert {row["outcome"] for row in rows} == {"error"}
    assert {row["error_code"] for row in rows} == {"E-3202"}
    assert [json.loads(row["arguments"])["query"] for row in rows] == [
        "item 10",
        "item 6",
        "item 2",
    ]


def test_a_turn_in_a_shop_shows_up_in_activity(app):
    at = open_page(app, "nutricart")
    at.chat_input[0].set_value("show my cart").run()
    assert not at.exception
    at.switch_page(PAGE).run()
    assert not at.exception
    labels = _labels(at)
    assert labels, texts(at.info)
    assert any("get_cart" in label for label in labels)
    assert all("instamart" in label for label in labels)


def test_nothing_yet_says_so(app):
    at = open_page(new_app(), PAGE)
    assert "No tool calls yet" in texts(at.info)
    assert not at.get("download_button")
