"""The approval ledger as a state machine, on SQLite and a real PostgreSQL: only the moves
in the table happen, facts are written only while the status holds, and one person's
confirmations are serialised so a day limit holds across tabs and processes."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from approval_records import new_approval

from swiggy_core.approval.limits import Budget, SpendingLimitExceeded, SpendingLimits, check_spend
from swiggy_core.store import ApprovalStatus, ChatStore
from swiggy_core.store.approval_states import ALLOWED, FINAL, check_moves

USER = "asha@sandbox"
DAY = "2026-11-23"
NOW = datetime(2026, 11, 23, 6, 0, tzinfo=UTC)
S = ApprovalStatus


def _approval(store: ChatStore, *, user: str = USER) -> str:
    conversation = store.create_conversation(user, "food")
    fields = {"user_id": user, "arguments": {"addressId": "a1"}, "digest": "d", "view": {}}
    return store.create_approval(new_approval(conversation, **fields)).id


def test_the_table_has_every_status_and_final_ones_go_nowhere() -> None:
    assert set(ALLOWED) == set(ApprovalStatus)
    assert {S.DONE, S.FAILED, S.REFUSED, S.DECLINED, S.EXPIRED, S.SUPERSEDED} == FINAL
    check_moves(["pending"], "executing")
    for final in FINAL:
        with pytest.raises(ValueError, match="not allowed"):
            check_moves([final], "executing")


@pytest.mark.parametrize(
    ("start", "target"),
    [
        (S.DONE, S.EXECUTING),  # never run twice
        (S.FAILED, S.DONE),
        (S.UNKNOWN, S.EXECUTING),
        (S.EXECUTING, S.PENDING),  # a confirmed call can never be offered again
        (S.DECLINED, S.PENDING),
        (S.PENDING, S.DONE),  # nothing is done without running
    ],
)
def test_a_move_outside_the_table_is_refused_before_any_write(
    store: ChatStore, start: ApprovalStatus, target: ApprovalStatus
) -> None:
    approval = _approval(store)
    path = {
        S.DONE: [S.EXECUTING, S.DONE],
        S.FAILED: [S.EXECUTING, S.FAILED],
        S.UNKNOWN: [S.EXECUTING, S.UNKNOWN],
        S.EXECUTING: [S.EXECUTING],
        S.DECLINED: [S.DECLINED],
        S.PENDING: [],
    }[start]
    current = S.PENDING
    for step in path:
        assert store.transition_approval(approval, [current], step)
        current = step
    with pytest.raises(ValueError, match="not allowed"):
        store.transition_approval(approval, [start], target)
    record = store.get_approval(approval)
    assert record is not None and record.status == start


def test_a_lost_race_returns_false_and_changes_nothing(store: ChatStore) -> None:
    approval = _approval(store)
    assert store.transition_approval(approval, [S.PENDING], S.EXECUTING, result={"a": 1})
    assert not store.transition_approval(approval, [S.PENDING], S.DECLINED)
    assert store.transition_approval(approval, [S.EXECUTING], S.DONE, result={"b": 2})
    assert not store.transition_approval(approval, [S.EXECUTING], S.FAILED, result={"c": 3})
    record = store.get_approval(approval)
    assert record is not None and record.status == S.DONE and record.result == {"b": 2}


def test_facts_are_written_only_while_the_status_holds(store: ChatStore) -> None:
    approval = _approval(store)
    assert not store.record_approval_facts(approval, S.EXECUTING, {"calling": True})
    assert store.transition_approval(approval, [S.PENDING], S.EXECUTING)
    assert store.record_approval_facts(approval, S.EXECUTING, {"calling": True})
    assert store.transition_approval(approval, [S.EXECUTING], S.FAILED)
    assert not store.record_approval_facts(approval, S.EXECUTING, {"calling": False})
    record = store.get_approval(approval)
    assert record is not None and record.result == {"calling": True}


def _checker(limit: int, amount: int, seen: list[int]) -> Callable[[int], None]:
    def check(spent: int) -> None:
        seen.append(spent)
        check_spend(Budget(SpendingLimits(per_day=limit), spent), amount)

    return check


def test_two_confirms_under_a_day_limit_one_wins_the_other_hears_the_true_sum(
    open_store: Callable[..., ChatStore],
) -> None:
    """Two chats (each its own engine, like two replicas) confirm an ₹86 cart at once
    under an ₹87 day limit: exactly one goes ahead; the other is refused, told ₹172."""
    first, second = open_store(), open_store()
    approvals = [_approval(first), _approval(first)]
    facts = {"amount_paise": 8_600, "day": DAY}
    start = threading.Barrier(2)
    outcomes: list[object] = [None, None]
    seen: list[int] = []

    def confirm(index: int, store: ChatStore) -> None:
        start.wait()
        try:
            outcomes[index] = store.begin_spend(
                approvals[index], USER, facts, _checker(8_700, 8_600, seen), day=DAY, now=NOW
            )
        except SpendingLimitExceeded as error:
            outcomes[index] = error

    threads = [
        threading.Thread(target=confirm, args=(index, store))
        for index, store in enumerate((first, second))
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(seen) == [0, 8_600]  # the second saw the first, never both 0
    winners = [outcome for outcome in outcomes if outcome is True]
    refusals = [outcome for outcome in outcomes if isinstance(outcome, SpendingLimitExceeded)]
    assert len(winners) == 1 and len(refusals) == 1
    assert "₹172" in refusals[0].message and "₹86 already spent today" in refusals[0].message
    statuses = sorted(str(first.get_approval(a).status) for a in approvals)  # type: ignore[union-attr]
    assert statuses == ["executing", "pending"]


def test_begin_spend_refuses_an_expired_or_already_confirmed_approval(store: ChatStore) -> None:
    approval = _approval(store)
    facts = {"amount_paise": 100, "day": DAY}
    later = datetime.now(UTC) + timedelta(hours=1)
    assert not store.begin_spend(approval, USER, facts, lambda _spent: None, day=DAY, now=later)
    assert store.begin_spend(
        approval, USER, facts, lambda _spent: None, day=DAY, now=datetime.now(UTC)
    )
    assert not store.begin_spend(
        approval, USER, facts, lambda _spent: None, day=DAY, now=datetime.now(UTC)
    )
    assert store.spent_today(USER, DAY) == 100


def test_another_persons_spending_never_counts(store: ChatStore) -> None:
    theirs = _approval(store, user="ravi@sandbox")
    facts = {"amount_paise": 50_000, "day": DAY}
    assert store.begin_spend(theirs, "ravi@sandbox", facts, lambda _s: None, day=DAY, now=NOW)
    seen: list[int] = []
    mine = _approval(store)
    store.begin_spend(mine, USER, facts, _checker(60_000, 50_000, seen), day=DAY, now=NOW)
    assert seen == [0]
