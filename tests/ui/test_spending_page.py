"""Spending: where the person's money went, from the ledger, against their limits, as
charts, a table and a CSV; a friendly line and the shops when nothing was spent yet."""

from __future__ import annotations

import csv
import io
import json
import os

from spend_records import record_spend
from uihelpers import open_page, settled_at_start, store_user, texts

from swiggy_core.approval.limits import SpendingLimits, save_limits
from swiggy_core.store import ChatStore

PAGE = "app_pages/spending.py"
TODAY = "2026-11-24"  # the sandbox's frozen clock (tests/sandbox_clock.py), in India
MEGHANA = {"restaurant_name": "Meghana Foods", "lines": [{"name": "Biryani", "quantity": 2}]}
HOSTILE = {"lines": [{"name": "=cmd|' /C calc'!A0"}]}


def _history(at) -> None:
    at.run()
    settled_at_start()  # these spends stay confirmed and unsettled, as the test wants
    user = store_user(at)
    store = ChatStore(os.environ["SWIGGY_DATABASE_URL"])
    for spend in (
        ("foodorder", TODAY, MEGHANA, 45_050, "done"),
        ("food", TODAY, {}, 20_000, "unknown"),
        ("food", "2026-11-20", HOSTILE, 10_000, "done"),
        ("foodorder", TODAY, MEGHANA, 9_900, "failed"),
        ("foodorder", "2026-11-23", MEGHANA, 30_000, "awaiting_payment"),
    ):
        record_spend(store, user, spend)
    record_spend(store, "someone-else@sandbox", ("food", TODAY, {}, 77_700, "done"))
    save_limits(store, user, SpendingLimits(per_order=200_000, per_day=100_000))
    store.close()
    at.switch_page(PAGE).run()
    assert not at.exception


def _metrics(at) -> dict[str, str]:
    return {metric.label: metric.value for metric in at.metric}


def test_nothing_spent_yet_says_so_and_offers_the_shops(app):
    at = open_page(app, PAGE)
    assert not at.exception
    assert "You have not ordered or booked anything here yet" in texts(at.info)
    links = [link.proto.label for link in at.get("page_link")]
    assert "Shop at FeedMe" in links and "Shop at NutriCart" in links
    assert not at.get("download_button") and not at.get("vega_lite_chart")


def test_the_spends_by_period_and_shop_against_the_limits(app, downloads):
    at = app
    _history(at)
    # Today counts the unclear spend as the limit check does; the week and month only
    # what surely went through. The failed order and another person's never show.
    assert _metrics(at) == {
        "Today, against your daily limit": "₹650.50",
        "Spent this week": "₹450.50",
        "Spent this month": "₹550.50",
    }
    assert "Your limits: ₹1,000 a day (₹349.50 left today) · ₹2,000 an order." in texts(at.caption)
    assert "₹200 is unclear" in texts(at.warning) and "Swiggy app" in texts(at.warning)
    assert "₹300 is pending" in texts(at.caption)
    assert [tab.label for tab in at.tabs] == ["By day", "By week", "By month", "By shop"]
    charts = [json.loads(chart.proto.spec) for chart in at.get("vega_lite_chart")]
    assert len(charts) == 4
    day_chart = json.dumps(charts[0], ensure_ascii=False)
    assert "Your daily limit: ₹1,000" in day_chart and '"rupees": 450.5' in day_chart

    (table,) = at.dataframe
    rows = table.value.to_dict("records")
    assert [(row["Shop"], row["Amount"], row["Status"]) for row in rows] == [
        ("NutriCart", "₹200", "Unclear — check the Swiggy app"),
        ("FeedMe", "₹450.50", "Spent"),
        ("FeedMe", "₹300", "Pending"),
        ("NutriCart", "₹100", "Spent"),
    ]
    (button,) = at.get("download_button")
    exported = list(csv.DictReader(io.StringIO(downloads(button))))
    assert [row["Amount (₹)"] for row in exported] == ["200.00", "450.50", "300.00", "100.00"]
    assert exported[-1]["What"] == "'=cmd|' /C calc'!A0"  # kept as text in a spreadsheet
    assert exported[1]["What"] == "Meghana Foods: 2 × Biryani"
