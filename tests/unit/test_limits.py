"""Spending limits: the stored preference, today's total from the audit, and the check."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from swiggy_core.approval import ApprovalView, approval_amount
from swiggy_core.errors import ErrorCode
from swiggy_core.limits import (
    Budget,
    SpendingLimitExceeded,
    SpendingLimits,
    budget_for,
    check_spend,
    india_day,
    load_limits,
    parse_limit,
    save_limits,
    spent_on,
)
from swiggy_core.parsers import CartLine
from swiggy_core.store import ChatStore, NewApproval

USER = "asha@sandbox"
# 20:00 UTC on the 22nd is already the 23rd in India (UTC+5:30).
EVENING_UTC = datetime(2026, 11, 22, 20, 0, tzinfo=UTC)


@pytest.fixture
def store(tmp_path) -> Iterator[ChatStore]:
    chats = ChatStore(f"sqlite:///{tmp_path / 'limits.db'}")
    yield chats
    chats.close()


def _spend(store: ChatStore, approval: str, amount: float | None, day: str, outcome: str) -> None:
    detail = {"approval": approval, "outcome": outcome, "amount": amount, "day": day}
    store.record_audit(USER, "spend_call", detail)


def test_limits_are_kept_per_user_and_world(store: ChatStore) -> None:
    assert load_limits(store, USER) == SpendingLimits()
    save_limits(store, USER, SpendingLimits(per_order=500, per_day=None))
    assert load_limits(store, USER) == SpendingLimits(per_order=500.0, per_day=None)
    assert load_limits(store, "asha@swiggy") == SpendingLimits()
    save_limits(store, USER, SpendingLimits())
    assert not load_limits(store, USER).any


def test_a_malformed_stored_limit_reads_as_no_limit(store: ChatStore) -> None:
    store.set_preference(USER, "spending_limits", {"per_order": "lots", "per_day": -5})
    assert load_limits(store, USER) == SpendingLimits()


@pytest.mark.parametrize(
    ("typed", "amount"),
    [("", None), ("  ", None), (None, None), ("500", 500.0), ("₹1,500", 1500.0), (0, 0.0)],
)
def test_a_typed_limit_is_an_amount_or_empty(typed: object, amount: float | None) -> None:
    assert parse_limit(typed) == amount


@pytest.mark.parametrize("typed", ["abc", "-1", "nan", "inf", "2000000", True])
def test_a_limit_that_is_not_an_amount_is_rejected(typed: object) -> None:
    with pytest.raises(ValueError):
        parse_limit(typed)


def test_the_india_date_decides_the_day() -> None:
    assert india_day(EVENING_UTC) == "2026-11-23"


def test_today_counts_done_and_unsettled_spends_of_that_india_date(store: ChatStore) -> None:
    _spend(store, "a", 300.0, "2026-11-23", "done")
    _spend(store, "b", 200.0, "2026-11-23", "failed")
    _spend(store, "c", 50.5, "2026-11-23", "unknown")  # may have gone through
    _spend(store, "d", 999.0, "2026-11-22", "done")  # yesterday
    _spend(store, "e", None, "2026-11-23", "done")  # a free table booking
    store.record_audit("someone@sandbox", "spend_call", {"approval": "x", "amount": 80})
    assert spent_on(store, USER, "2026-11-23") == pytest.approx(350.5)
    # Settling the unclear one as failed takes it out.
    store.record_audit(USER, "spend_settled", {"approval": "c", "outcome": "failed"})
    assert spent_on(store, USER, "2026-11-23") == pytest.approx(300.0)
    save_limits(store, USER, SpendingLimits(per_day=1000))
    assert budget_for(store, USER, EVENING_UTC).spent_today == pytest.approx(300.0)


def test_the_per_order_limit_refuses_only_a_larger_total() -> None:
    budget = Budget(SpendingLimits(per_order=500), spent_today=0)
    check_spend(budget, 500.0)
    with pytest.raises(SpendingLimitExceeded) as refused:
        check_spend(budget, 500.01)
    assert refused.value.code is ErrorCode.SPENDING_LIMIT
    assert "per-order limit of ₹500" in refused.value.message
    assert "Nothing was placed" in refused.value.message


def test_the_per_day_limit_counts_what_today_has_spent() -> None:
    budget = Budget(SpendingLimits(per_day=1000), spent_today=700)
    check_spend(budget, 300.0)
    with pytest.raises(SpendingLimitExceeded) as refused:
        check_spend(budget, 300.5)
    assert "₹1,000.50" in refused.value.message and "₹700 already spent" in refused.value.message
    # Already over today (the limit was lowered): something free is still allowed.
    check_spend(Budget(SpendingLimits(per_order=0, per_day=100), spent_today=500), 0.0)


def test_no_limit_allows_anything_and_an_unknown_total_is_refused_under_a_limit() -> None:
    check_spend(Budget(SpendingLimits(), spent_today=10**6), None)
    with pytest.raises(SpendingLimitExceeded):
        check_spend(Budget(SpendingLimits(per_day=100), spent_today=0), None)


def test_the_amount_of_an_approval_is_its_to_pay_and_a_free_table_is_free() -> None:
    line = CartLine(name="Milk", quantity=2, line_total=60.0)
    order = ApprovalView(kind="order", tool="checkout", title="", lines=[line], to_pay=75.0)
    assert approval_amount(order) == 75.0
    assert approval_amount(order.model_copy(update={"to_pay": None})) == 60.0
    unpriced = CartLine(name="Milk", quantity=2, line_total=None)
    assert approval_amount(order.model_copy(update={"to_pay": None, "lines": [unpriced]})) is None
    booking = ApprovalView(kind="booking", tool="book_table", title="", guests=2)
    assert approval_amount(booking) == 0.0


def test_the_summary_names_both_limits_and_today() -> None:
    budget = Budget(SpendingLimits(per_order=1500, per_day=5000), spent_today=1234.5)
    assert budget.summary() == (
        "Your limits: ₹1,500 per order · ₹5,000 per day (₹1,234.50 used today)"
    )
    loose = Budget(SpendingLimits(per_day=5000), spent_today=0)
    assert loose.summary() == "Your limits: no per-order limit · ₹5,000 per day (₹0 used today)"
    unset = Budget(SpendingLimits(), spent_today=113)
    assert unset.summary() == "No spending limits set (₹113 used today)"


def _approval(store: ChatStore, status: str, facts: dict[str, object] | None) -> str:
    conversation = store.create_conversation(USER, "food")
    record = store.create_approval(
        NewApproval(
            user_id=USER,
            conversation_id=conversation,
            vertical_id="food",
            server_key="instamart",
            tool="checkout",
            arguments={"addressId": "a1"},
            digest="d",
            view={},
            tool_use_id="toolu_1",
            expires_at=EVENING_UTC + timedelta(minutes=10),
        )
    )
    if status != "pending":
        store.transition_approval(record.id, ["pending"], status, result=facts)
    return record.id


def test_a_spend_confirmed_in_another_tab_counts_while_it_runs(store: ChatStore) -> None:
    """Two tabs confirming at once: the second check sees the first spend before its audit."""
    running = _approval(store, "executing", {"amount": 400.0, "day": "2026-11-23"})
    mine = _approval(store, "executing", {"amount": 300.0, "day": "2026-11-23"})
    _approval(store, "pending", None)  # only asked: spends nothing yet
    _approval(store, "executing", {"amount": 70.0, "day": "2026-11-22"})  # another day
    save_limits(store, USER, SpendingLimits(per_day=500))
    budget = budget_for(store, USER, EVENING_UTC, excluding=mine)
    assert budget.spent_today == pytest.approx(400.0)
    with pytest.raises(SpendingLimitExceeded):
        check_spend(budget, 300.0)
    # Once the running spend is audited it is counted once, from the audit.
    store.transition_approval(running, ["executing"], "done")
    _spend(store, running, 400.0, "2026-11-23", "done")
    assert budget_for(store, USER, EVENING_UTC, excluding=mine).spent_today == pytest.approx(400)
    # A refused or failed one no longer counts.
    store.transition_approval(mine, ["executing"], "refused")
    assert spent_on(store, USER, "2026-11-23") == pytest.approx(400.0)
