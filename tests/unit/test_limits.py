"""Spending limits in integer paise: the stored preference, today's total from the audit
and the ledger, and the check."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from approval_records import new_approval
from sqlalchemy import event

from swiggy_core.approval import ApprovalView, approval_amount
from swiggy_core.approval.limits import (
    LIMITS_PREFERENCE,
    Budget,
    SpendingLimitExceeded,
    SpendingLimits,
    budget_for,
    budget_of,
    check_spend,
    india_day,
    load_limits,
    parse_limit,
    save_limits,
)
from swiggy_core.errors import ErrorCode
from swiggy_core.parsers import CartLine
from swiggy_core.store import ChatStore

USER = "asha@sandbox"
# 20:00 UTC on the 22nd is already the 23rd in India (UTC+5:30).
EVENING_UTC = datetime(2026, 11, 22, 20, 0, tzinfo=UTC)


@pytest.fixture
def store(tmp_path) -> Iterator[ChatStore]:
    chats = ChatStore(f"sqlite:///{tmp_path / 'limits.db'}")
    yield chats
    chats.close()


def _spend(store: ChatStore, approval: str, amount: int | None, day: str, outcome: str) -> None:
    detail = {"approval": approval, "outcome": outcome, "amount_paise": amount, "day": day}
    store.record_audit(USER, "spend_call", detail)


def spent_on(store: ChatStore, user: str, day: str) -> int:
    return store.spent_today(user, day)


def test_limits_are_kept_per_user_and_world(store: ChatStore) -> None:
    assert load_limits(store, USER) == SpendingLimits()
    save_limits(store, USER, SpendingLimits(per_order=50_000, per_day=None))
    assert load_limits(store, USER) == SpendingLimits(per_order=50_000, per_day=None)
    assert load_limits(store, "asha@swiggy") == SpendingLimits()
    save_limits(store, USER, SpendingLimits())
    assert not load_limits(store, USER).any


def test_a_malformed_stored_limit_reads_as_no_limit(store: ChatStore) -> None:
    store.set_preference(USER, "spending_limits", {"per_order": "lots", "per_day": -5})
    assert load_limits(store, USER) == SpendingLimits()
    negative = {"per_order_paise": -5, "per_day_paise": True}
    store.set_preference(USER, "spending_limits", negative)
    assert load_limits(store, USER) == SpendingLimits()


def test_limits_stored_in_rupees_before_paise_read_as_paise(store: ChatStore) -> None:
    store.set_preference(USER, "spending_limits", {"per_order": 499.99, "per_day": 1000})
    assert load_limits(store, USER) == SpendingLimits(per_order=49_999, per_day=100_000)


@pytest.mark.parametrize(
    ("typed", "amount"),
    [
        ("", None),
        ("  ", None),
        (None, None),
        ("500", 50_000),
        ("₹1,500", 150_000),
        (0, 0),
        ("0.1", 10),  # exactly ten paise, not 10.000000000000002
        ("86.07", 8_607),
    ],
)
def test_a_typed_limit_is_rupees_kept_as_exact_paise(typed: object, amount: int | None) -> None:
    parsed = parse_limit(typed)
    assert parsed == amount
    assert parsed is None or type(parsed) is int


@pytest.mark.parametrize("typed", ["abc", "-1", "nan", "inf", "2000000", True])
def test_a_limit_that_is_not_an_amount_is_rejected(typed: object) -> None:
    with pytest.raises(ValueError):
        parse_limit(typed)


def test_the_india_date_decides_the_day() -> None:
    assert india_day(EVENING_UTC) == "2026-11-23"


def test_today_counts_done_and_unsettled_spends_of_that_india_date(store: ChatStore) -> None:
    _spend(store, "a", 30_000, "2026-11-23", "done")
    _spend(store, "b", 20_000, "2026-11-23", "failed")
    _spend(store, "c", 5_050, "2026-11-23", "unknown")  # may have gone through
    _spend(store, "d", 99_900, "2026-11-22", "done")  # yesterday
    _spend(store, "e", None, "2026-11-23", "done")  # a free table booking
    store.record_audit("someone@sandbox", "spend_call", {"approval": "x", "amount_paise": 80})
    # An entry written before paise were kept: rupees.
    store.record_audit(
        USER, "spend_call", {"approval": "f", "outcome": "done", "amount": 0.1, "day": "2026-11-23"}
    )
    assert spent_on(store, USER, "2026-11-23") == 35_060
    # Settling the unclear one as failed takes it out.
    store.record_audit(USER, "spend_settled", {"approval": "c", "outcome": "failed"})
    assert spent_on(store, USER, "2026-11-23") == 30_010
    save_limits(store, USER, SpendingLimits(per_day=100_000))
    assert budget_for(store, USER, EVENING_UTC).spent_today == 30_010
    # What a new request is checked against: the same budget, from one transaction.
    transactions: list[object] = []
    event.listen(store.engine, "checkout", lambda *args: transactions.append(args))
    state = store.spending_state(USER, india_day(EVENING_UTC), LIMITS_PREFERENCE)
    assert len(transactions) == 1
    assert budget_of(state) == budget_for(store, USER, EVENING_UTC)
    assert budget_of(state).limits.per_day == 100_000 and state.paying == ()


def test_the_per_order_limit_refuses_only_a_larger_total() -> None:
    budget = Budget(SpendingLimits(per_order=50_000), spent_today=0)
    check_spend(budget, 50_000)
    with pytest.raises(SpendingLimitExceeded) as refused:
        check_spend(budget, 50_001)
    assert refused.value.code is ErrorCode.SPENDING_LIMIT
    assert "per-order limit of ₹500" in refused.value.message
    assert "Nothing was placed" in refused.value.message


def test_the_per_day_limit_counts_what_today_has_spent() -> None:
    budget = Budget(SpendingLimits(per_day=100_000), spent_today=70_000)
    check_spend(budget, 30_000)
    with pytest.raises(SpendingLimitExceeded) as refused:
        check_spend(budget, 30_050)
    assert "₹1,000.50" in refused.value.message and "₹700 already spent" in refused.value.message
    # Already over today (the limit was lowered): something free is still allowed.
    check_spend(Budget(SpendingLimits(per_order=0, per_day=10_000), spent_today=50_000), 0)


def test_no_limit_allows_anything_and_an_unknown_total_is_refused_under_a_limit() -> None:
    check_spend(Budget(SpendingLimits(), spent_today=10**8), None)
    with pytest.raises(SpendingLimitExceeded):
        check_spend(Budget(SpendingLimits(per_day=10_000), spent_today=0), None)


def test_the_amount_of_an_approval_is_its_to_pay_and_a_free_table_is_free() -> None:
    line = CartLine(name="Milk", quantity=2, line_total=60.1)
    order = ApprovalView(kind="order", tool="checkout", title="", lines=[line], to_pay=75.3)
    assert approval_amount(order) == 7_530
    assert approval_amount(order.model_copy(update={"to_pay": None})) == 6_010
    unpriced = CartLine(name="Milk", quantity=2, line_total=None)
    assert approval_amount(order.model_copy(update={"to_pay": None, "lines": [unpriced]})) is None
    booking = ApprovalView(kind="booking", tool="book_table", title="", guests=2)
    assert approval_amount(booking) == 0


def test_the_summary_names_both_limits_and_today() -> None:
    budget = Budget(SpendingLimits(per_order=150_000, per_day=500_000), spent_today=123_450)
    assert budget.summary() == (
        "Your limits: ₹1,500 per order · ₹5,000 per day (₹1,234.50 used today)"
    )
    loose = Budget(SpendingLimits(per_day=500_000), spent_today=0)
    assert loose.summary() == "Your limits: no per-order limit · ₹5,000 per day (₹0 used today)"
    unset = Budget(SpendingLimits(), spent_today=11_300)
    assert unset.summary() == "No spending limits set (₹113 used today)"


def _approval(store: ChatStore, status: str, facts: dict[str, object] | None) -> str:
    conversation = store.create_conversation(USER, "food")
    fields = {"user_id": USER, "arguments": {"addressId": "a1"}, "digest": "d", "view": {}}
    expires_at = EVENING_UTC + timedelta(minutes=10)
    record = store.create_approval(new_approval(conversation, expires_at=expires_at, **fields))
    if status != "pending":
        assert store.transition_approval(record.id, ["pending"], status, result=facts)
    return record.id


def test_a_spend_confirmed_in_another_tab_counts_while_it_runs(store: ChatStore) -> None:
    """Two tabs confirming at once: the second check sees the first spend before its audit."""
    running = _approval(store, "executing", {"amount_paise": 40_000, "day": "2026-11-23"})
    mine = _approval(store, "executing", {"amount_paise": 30_000, "day": "2026-11-23"})
    _approval(store, "pending", None)  # only asked: spends nothing yet
    _approval(store, "executing", {"amount_paise": 7_000, "day": "2026-11-22"})  # another day
    save_limits(store, USER, SpendingLimits(per_day=50_000))
    budget = budget_for(store, USER, EVENING_UTC, excluding=mine)
    assert budget.spent_today == 40_000
    with pytest.raises(SpendingLimitExceeded):
        check_spend(budget, 30_000)
    # Once the running spend is audited it is counted once, from the audit.
    store.transition_approval(running, ["executing"], "done")
    _spend(store, running, 40_000, "2026-11-23", "done")
    assert budget_for(store, USER, EVENING_UTC, excluding=mine).spent_today == 40_000
    # A refused or failed one no longer counts.
    store.transition_approval(mine, ["executing"], "refused")
    assert spent_on(store, USER, "2026-11-23") == 40_000
