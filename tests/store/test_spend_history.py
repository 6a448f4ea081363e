"""A person's spend history: the records the Spending page draws, on SQLite and PostgreSQL,
whose counted paise add up to the ledger's own sum for every day, to the paisa."""

from __future__ import annotations

import random
from datetime import date

import pytest
from spend_records import record_spend
from test_spending_rows import DAYS, USERS, History

from swiggy_core.spending_report import SpendKind, counted_on, spend_lines, totals_by_shop
from swiggy_core.store import ChatStore
from swiggy_core.store.spending import COUNTED_OUTCOMES
from swiggy_core.verticals import VERTICALS

SHOPS = {vertical.id: vertical.display_name for vertical in VERTICALS.values()}


def _counted(store: ChatStore, user: str, day: str) -> int:
    records = store.spend_history(user)
    return sum(record.amount_paise for record in records if record.counted and record.day == day)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_days_counted_spends_add_up_to_the_ledgers_sum(store: ChatStore, seed: int) -> None:
    """Confirmations, outcomes, audits, settles and odd amounts in any order: for every
    person and day, the history's counted paise are today's spending as the ledger sums it,
    read straight and through the report the page draws."""
    history = History(store, random.Random(seed))
    for _round in range(4):
        for _ in range(25):
            history.step()
        for user in USERS:
            lines = spend_lines(store.spend_history(user), SHOPS)
            for day in DAYS:
                ledger = store.spent_today(user, day)
                assert _counted(store, user, day) == ledger, (user, day)
                assert counted_on(lines, date.fromisoformat(day)) == ledger, (user, day)
    assert any(store.spent_today(user, day) for user in USERS for day in DAYS)


def test_a_later_start_day_leaves_out_the_days_before_it(store: ChatStore) -> None:
    history = History(store, random.Random(7))
    for _ in range(120):
        history.step()
    for user in USERS:
        recent = store.spend_history(user, since_day=DAYS[1])
        assert all(record.day is not None and record.day >= DAYS[1] for record in recent)
        every = store.spend_history(user)
        assert [r for r in every if r.day is not None and r.day >= DAYS[1]] == recent
        assert sorted(record.day or "" for record in every) == [r.day or "" for r in every]


def _spend(store: ChatStore, user: str, view: dict[str, object], paise: int, outcome):
    return record_spend(store, user, ("foodorder", DAYS[1], view, paise, outcome))


def test_each_record_says_where_it_stands_and_what_was_bought(store: ChatStore) -> None:
    user = USERS[0]
    view = {"restaurant_name": "Meghana Foods", "lines": [{"name": "Biryani", "quantity": 2}]}
    done = _spend(store, user, view, 45_050, "done")
    unclear = _spend(store, user, view, 20_000, "unknown")
    failed = _spend(store, user, view, 9_900, "failed")
    running = _spend(store, user, view, 12_345, None)  # confirmed, its call not audited yet
    waiting = _spend(store, user, view, 30_000, "awaiting_payment")  # not paid yet
    _spend(store, USERS[1], view, 77_700, "done")

    records = {record.approval_id: record for record in store.spend_history(user)}
    assert set(records) == {done, unclear, failed, running, waiting}
    assert records[done].view == view and records[done].vertical_id == "foodorder"
    # A payment not made yet counts against the limits exactly when the ledger counts it.
    paying = "awaiting_payment" in COUNTED_OUTCOMES
    assert [records[a].counted for a in (done, unclear, failed, running, waiting)] == [
        True, True, False, True, paying,
    ]  # fmt: skip
    assert records[running].outcome == "executing"
    ledger = 45_050 + 20_000 + 12_345 + (30_000 if paying else 0)
    assert store.spent_today(user, DAYS[1]) == ledger

    lines = spend_lines(records.values(), SHOPS)
    kinds = sorted((line.kind, line.amount_paise) for line in lines)
    assert kinds == sorted([
        (SpendKind.SPENT, 45_050), (SpendKind.UNCLEAR, 20_000),
        (SpendKind.PENDING, 12_345), (SpendKind.PENDING, 30_000),
    ])  # fmt: skip
    assert {line.what for line in lines} == {"Meghana Foods: 2 × Biryani"}
    (shop,) = totals_by_shop(lines)
    assert (shop.label, shop.spent, shop.unclear, shop.pending) == (
        "FeedMe",
        45_050,
        20_000,
        42_345,
    )
