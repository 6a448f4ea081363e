"""Where the money went: spends by India day, ISO week, month and shop, exact in paise,
and a CSV a spreadsheet opens without running anything."""

from __future__ import annotations

import csv
import io
from datetime import UTC, date, datetime
from typing import Any

import pytest

from swiggy_core.spending_report import (
    Period,
    SpendKind,
    SpendLine,
    india_today,
    kind_of,
    period_label,
    period_start,
    spend_lines,
    spends_csv,
    totals_by_period,
    totals_by_shop,
    what_of,
)
from swiggy_core.store.spend_history import SpendRecord

SHOPS = {"food": "NutriCart", "foodorder": "FeedMe"}


def _line(day: str, paise: int, kind: SpendKind = SpendKind.SPENT, shop: str = "FeedMe"):
    counted = kind is not SpendKind.PENDING
    return SpendLine(date.fromisoformat(day), shop, "Dinner", paise, kind, counted)


def _record(outcome: str, **changes: Any) -> SpendRecord:
    fields: dict[str, Any] = {
        "approval_id": "a1",
        "day": "2026-11-23",
        "amount_paise": 10_050,
        "outcome": outcome,
        "counted": outcome in ("done", "unknown"),
        "vertical_id": "foodorder",
        "tool": "place_food_order",
        "view": {"restaurant_name": "Meghana Foods"},
        "asked_at": None,
    }
    return SpendRecord(**{**fields, **changes})


@pytest.mark.parametrize(
    ("moment", "day", "week", "month"),
    [
        # Sunday 23:30 in India is still last week; 00:30 Monday starts the next.
        (datetime(2026, 11, 29, 18, 0, tzinfo=UTC), "2026-11-29", "2026-11-23", "2026-11-01"),
        (datetime(2026, 11, 29, 19, 0, tzinfo=UTC), "2026-11-30", "2026-11-30", "2026-11-01"),
        # 19:00 UTC on the 30th is already 1 December in India.
        (datetime(2026, 11, 30, 19, 0, tzinfo=UTC), "2026-12-01", "2026-11-30", "2026-12-01"),
        # An ISO week runs across the new year from its Monday.
        (datetime(2027, 1, 1, 6, 0, tzinfo=UTC), "2027-01-01", "2026-12-28", "2027-01-01"),
    ],
)
def test_days_weeks_and_months_are_indias(moment, day, week, month) -> None:
    today = india_today(moment)
    assert today == date.fromisoformat(day)
    assert period_start(today, Period.WEEK) == date.fromisoformat(week)
    assert period_start(today, Period.MONTH) == date.fromisoformat(month)
    assert period_start(today, Period.DAY) == today


def test_totals_add_up_in_paise_across_a_week_and_a_month_boundary() -> None:
    lines = [
        _line("2026-11-29", 10_001),
        _line("2026-11-29", 20_002, SpendKind.UNCLEAR),
        _line("2026-11-30", 33_333),
        _line("2026-12-01", 5, SpendKind.PENDING),
    ]
    weeks = totals_by_period(lines, Period.WEEK)
    assert [(t.label, t.spent, t.unclear, t.pending, t.counted) for t in weeks] == [
        ("Week of 23 Nov", 10_001, 20_002, 0, 30_003),
        ("Week of 30 Nov", 33_333, 0, 5, 33_333),
    ]
    months = totals_by_period(lines, Period.MONTH)
    assert [(t.label, t.spent, t.unclear, t.pending) for t in months] == [
        ("Nov 2026", 43_334, 20_002, 0),
        ("Dec 2026", 0, 0, 5),
    ]
    days = totals_by_period(lines, Period.DAY, since=date(2026, 11, 30))
    assert [(t.label, t.spent + t.unclear + t.pending) for t in days] == [
        ("30 Nov", 33_333),
        ("1 Dec", 5),
    ]
    # A week is kept whole from the Monday of the start day's week.
    assert len(totals_by_period(lines, Period.WEEK, since=date(2026, 11, 29))) == 2


def test_shops_come_largest_first() -> None:
    lines = [_line("2026-11-29", 500, shop="NutriCart"), _line("2026-11-29", 900)]
    lines.append(_line("2026-11-30", 450, SpendKind.UNCLEAR, shop="NutriCart"))
    assert [(t.label, t.spent, t.unclear) for t in totals_by_shop(lines)] == [
        ("NutriCart", 500, 450),
        ("FeedMe", 900, 0),
    ]


@pytest.mark.parametrize(
    ("outcome", "kind"),
    [
        ("done", SpendKind.SPENT),
        ("unknown", SpendKind.UNCLEAR),
        ("failed", SpendKind.NOT_PLACED),
        ("refused", SpendKind.NOT_PLACED),
        ("awaiting_payment", SpendKind.PENDING),
        ("paid_confirming", SpendKind.PENDING),
        ("executing", SpendKind.PENDING),
        ("", SpendKind.PENDING),
    ],
)
def test_only_done_is_spent_and_failures_never_show(outcome: str, kind: SpendKind) -> None:
    assert kind_of(outcome) is kind
    lines = spend_lines([_record(outcome)], SHOPS)
    assert [line.kind for line in lines] == ([] if kind is SpendKind.NOT_PLACED else [kind])


def test_a_line_names_its_shop_and_what_was_bought() -> None:
    view = {"lines": [{"name": n, "quantity": q} for n, q in (("Milk", 2), ("Eggs", 1))]}
    (line,) = spend_lines([_record("done", vertical_id="food", view=view)], SHOPS)
    assert (line.shop, line.what, line.day) == ("NutriCart", "2 × Milk, Eggs", date(2026, 11, 23))
    many = {"restaurant_name": "Toit", "lines": [{"name": str(n)} for n in range(5)]}
    assert what_of(many) == "Toit: 0, 1, 2 and 2 more"
    (gone,) = spend_lines([_record("done", vertical_id=None, view={}, day="not a day")], SHOPS)
    assert (gone.shop, gone.what, gone.day) == ("Unknown shop", "Unknown shop", None)


HOSTILE = ("=cmd|' /C calc'!A0", "+1+1", "-2+3", "@SUM(A1)", "  =1+1", "\t=1", "\n=1")


@pytest.mark.parametrize("title", HOSTILE)
def test_a_formula_looking_cell_is_kept_as_text(title: str) -> None:
    line = SpendLine(date(2026, 11, 23), title, title, 45_050, SpendKind.SPENT, True)
    header, row = list(csv.reader(io.StringIO(spends_csv([line]))))
    assert header[:4] == ["Day", "Shop", "What", "Amount (₹)"]
    assert row[1] == row[2] == "'" + title
    assert row[0] == "2026-11-23" and row[3] == "450.50"


def test_the_csv_keeps_commas_quotes_and_exact_paise() -> None:
    title = 'Meghana Foods: 2 × "Biryani", raita'
    lines = [
        SpendLine(date(2026, 11, 23), "FeedMe", title, 5, SpendKind.UNCLEAR, True),
        SpendLine(None, "FeedMe", "Dinner", 123_456_789, SpendKind.PENDING, False),
    ]
    _header, first, second = list(csv.reader(io.StringIO(spends_csv(lines))))
    assert first == [
        "2026-11-23", "FeedMe", title, "0.05", "Unclear — check the Swiggy app", "yes",
    ]  # fmt: skip
    assert second == ["", "FeedMe", "Dinner", "1234567.89", "Pending", "no"]
    assert period_label(date(2026, 11, 23), Period.DAY) == "23 Nov"
