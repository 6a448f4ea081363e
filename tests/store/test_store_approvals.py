"""Approvals: stored exactly, moved only by compare-and-set, expired and superseded."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta, timezone

import pytest
from storehelpers import new_approval

RACES = 50


@pytest.fixture
def conversation_id(store):
    return store.create_conversation("alice", "food")


def test_a_new_approval_is_pending_and_reads_back_exactly(store, conversation_id):
    expires = datetime(2030, 1, 2, 3, 4, 5, tzinfo=UTC)
    created = store.create_approval(new_approval(conversation_id, expires_at=expires))
    assert created.status == "pending" and len(created.id) == 32
    assert created.result is None and created.note == ""
    fetched = store.get_approval(created.id)
    assert fetched == created
    assert fetched.expires_at == expires and fetched.expires_at.tzinfo is UTC
    assert fetched.created_at.tzinfo is UTC and fetched.updated_at.tzinfo is UTC
    assert fetched.arguments == {"address_id": "a1", "payment": "cod"}
    assert fetched.view["lines"][0]["qty"] == 2
    assert store.get_approval("0" * 32) is None


def test_expiry_given_in_another_timezone_is_kept_as_the_same_moment(store, conversation_id):
    ist = datetime(2030, 1, 1, 23, 30, tzinfo=timezone(timedelta(hours=5, minutes=30)))
    created = store.create_approval(new_approval(conversation_id, expires_at=ist))
    assert store.get_approval(created.id).expires_at == datetime(2030, 1, 1, 18, 0, tzinfo=UTC)


def test_only_the_first_of_two_transitions_wins(store, conversation_id):
    approval = store.create_approval(new_approval(conversation_id))
    assert store.transition_approval(approval.id, ["pending"], "executing") is True
    assert store.transition_approval(approval.id, ["pending"], "executing") is False
    done = {"order_id": "o-1", "status": "placed"}
    assert store.transition_approval(approval.id, {"executing"}, "done", result=done, note="ok")
    record = store.get_approval(approval.id)
    assert (record.status, record.result, record.note) == ("done", done, "ok")
    assert record.updated_at >= record.created_at
    assert store.transition_approval("f" * 32, ["pending"], "executing") is False


def _race_to_confirm(stores, approval_id: str) -> list[bool]:
    """Each store tries pending -> executing at the same moment, from its own thread."""
    start = threading.Barrier(len(stores))
    outcomes: list[bool] = []

    def confirm(store) -> None:
        start.wait()
        outcomes.append(store.transition_approval(approval_id, ["pending"], "executing"))

    threads = [threading.Thread(target=confirm, args=(store,)) for store in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def test_racing_confirmations_have_exactly_one_winner(open_store):
    """Two threads, each with its own store (engine), race on the same approval 50 times."""
    stores = [open_store(), open_store()]
    conversation_id = stores[0].create_conversation("alice", "food")
    for _race in range(RACES):
        approval = stores[0].create_approval(new_approval(conversation_id))
        assert sorted(_race_to_confirm(stores, approval.id)) == [False, True]
        assert stores[1].get_approval(approval.id).status == "executing"


def test_require_unexpired_refuses_an_expired_approval(store, conversation_id):
    now = datetime.now(UTC)
    expired = store.create_approval(
        new_approval(conversation_id, expires_at=now - timedelta(seconds=1))
    )
    live = store.create_approval(new_approval(conversation_id, expires_at=now + timedelta(hours=1)))
    assert not store.transition_approval(
        expired.id, ["pending"], "executing", require_unexpired=True, now=now
    )
    assert store.get_approval(expired.id).status == "pending"
    assert store.transition_approval(
        live.id, ["pending"], "executing", require_unexpired=True, now=now
    )
    # Without the check the caller decides (e.g. declining an expired one is fine).
    assert store.transition_approval(expired.id, ["pending"], "declined", now=now)


def test_expire_moves_only_pending_approvals_past_their_expiry(store, conversation_id):
    now = datetime.now(UTC)
    past = new_approval(conversation_id, expires_at=now - timedelta(minutes=1))
    stale = store.create_approval(past)
    already_running = store.create_approval(past)
    store.transition_approval(already_running.id, ["pending"], "executing")
    fresh = store.create_approval(
        new_approval(conversation_id, expires_at=now + timedelta(hours=1))
    )
    assert store.expire_approvals(now=now) == [stale.id]
    assert store.get_approval(stale.id).status == "expired"
    assert store.get_approval(already_running.id).status == "executing"
    assert store.get_approval(fresh.id).status == "pending"
    assert store.expire_approvals(now=now) == []
    assert store.expire_approvals(now=now + timedelta(hours=2)) == [fresh.id]


def test_supersede_moves_pending_approvals_of_one_conversation(store, conversation_id):
    other_conversation = store.create_conversation("alice", "food")
    cart = store.create_approval(new_approval(conversation_id, server_key="instamart"))
    table = store.create_approval(new_approval(conversation_id, server_key="dineout"))
    confirmed = store.create_approval(new_approval(conversation_id, server_key="instamart"))
    store.transition_approval(confirmed.id, ["pending"], "executing")
    elsewhere = store.create_approval(new_approval(other_conversation))

    assert store.supersede_approvals(conversation_id, "instamart", note="cart changed") == [cart.id]
    assert store.get_approval(cart.id).note == "cart changed"
    assert store.get_approval(table.id).status == "pending"
    assert store.supersede_approvals(conversation_id) == [table.id]
    assert store.get_approval(confirmed.id).status == "executing"
    assert store.get_approval(elsewhere.id).status == "pending"


def test_approvals_for_lists_oldest_first_and_filters_by_status(store, conversation_id):
    ids = [store.create_approval(new_approval(conversation_id)).id for _ in range(3)]
    store.transition_approval(ids[1], ["pending"], "declined", note="no thanks")
    assert [a.id for a in store.approvals_for(conversation_id)] == ids
    assert [a.id for a in store.approvals_for(conversation_id, ["pending"])] == [ids[0], ids[2]]
    assert [a.id for a in store.approvals_for(conversation_id, {"declined"})] == [ids[1]]
    assert store.approvals_for(conversation_id, []) == []
    assert store.approvals_for("another-conversation") == []


def test_approvals_for_finds_those_asked_by_given_tool_uses(store, conversation_id):
    asked = [new_approval(conversation_id, tool_use_id=f"ask{n}") for n in range(3)]
    asked = [store.create_approval(new) for new in asked]
    store.transition_approval(asked[2].id, ["pending"], "declined", note="no thanks")
    found = store.approvals_for(conversation_id, tool_use_ids={"ask2", "ask0", "gone"})
    assert [a.id for a in found] == [asked[0].id, asked[2].id]
    pending = store.approvals_for(conversation_id, ["pending"], tool_use_ids=["ask2", "ask1"])
    assert [a.id for a in pending] == [asked[1].id]
    assert store.approvals_for(conversation_id, tool_use_ids=[]) == []
    assert store.approvals_for("another-conversation", tool_use_ids=["ask0"]) == []


def _requested(record):
    return "approval_requested", {"approval": record.id, "api_key": "sk-ant-secret-123456"}


def test_opening_an_approval_supersedes_the_open_one_and_audits_it(store, conversation_id):
    other = store.create_conversation("alice", "food")
    old = store.create_approval(new_approval(conversation_id, tool_use_id="ask0"))
    confirmed = store.create_approval(new_approval(conversation_id, tool_use_id="ask1"))
    store.transition_approval(confirmed.id, ["pending"], "executing")
    elsewhere = store.create_approval(new_approval(other))
    new = store.open_approval(new_approval(conversation_id, tool_use_id="ask2"), _requested)
    assert store.get_approval(new.id) == new and new.status == "pending"
    assert store.get_approval(old.id).status == "superseded"
    assert store.get_approval(confirmed.id).status == "executing"
    assert store.get_approval(elsewhere.id).status == "pending"
    entries = store.audit_entries("alice", conversation_id=conversation_id)
    assert entries == [("approval_requested", {"approval": new.id, "api_key": "[redacted]"})]


def test_an_approval_that_cannot_be_audited_is_not_opened(store, conversation_id):
    old = store.create_approval(new_approval(conversation_id, tool_use_id="ask0"))

    def unauditable(record):
        raise RuntimeError("the audit entry could not be made")

    with pytest.raises(RuntimeError):
        store.open_approval(new_approval(conversation_id, tool_use_id="ask1"), unauditable)
    # One transaction: the open question is still the old one, and nothing new is stored.
    assert [(a.id, a.status) for a in store.approvals_for(conversation_id)] == [(old.id, "pending")]
    assert store.audit_entries("alice", conversation_id=conversation_id) == []


def test_approvals_outlive_their_conversation(store, conversation_id):
    approval = store.create_approval(new_approval(conversation_id))
    store.delete_conversation(conversation_id)
    assert store.get_approval(approval.id) == approval


def test_an_unknown_status_is_a_programming_error(store, conversation_id):
    approval = store.create_approval(new_approval(conversation_id))
    with pytest.raises(ValueError, match="confirmed"):
        store.transition_approval(approval.id, ["pending"], "confirmed")
    with pytest.raises(ValueError, match="waiting"):
        store.approvals_for(conversation_id, ["waiting"])
    assert store.get_approval(approval.id).status == "pending"
