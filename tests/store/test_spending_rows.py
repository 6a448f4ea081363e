"""Today's spending from today's rows: the same paise as the whole-history computation, on
SQLite and PostgreSQL, from rows kept as each spend is audited or confirmed, back-filled
by the migration, and read without touching the rest of the history."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import pytest
from all_history_spending import all_history_spent_on
from sqlalchemy import create_engine, insert, select
from sqlite_steps import query_plans, steps_of
from storehelpers import new_approval

from swiggy_core.store import ChatStore
from swiggy_core.store.database import Database
from swiggy_core.store.migrations import MIGRATIONS
from swiggy_core.store.schema import approvals, audit, schema_version, spends, utc_now
from swiggy_core.store.spending import MAX_SPEND_PAISE

USERS = ("asha@sandbox", "ravi@sandbox")
DAYS = ("2026-11-22", "2026-11-23", "2026-11-24")
TODAY = DAYS[1]
OUTCOMES = ("done", "failed", "unknown", "refused", None)
# How a spend's amount has been written over time, odd ones included.
AMOUNTS: tuple[dict[str, Any], ...] = (
    {"amount_paise": 12_345},
    {"amount_paise": 8_600.7},
    {"amount": 86.07},  # rupees, before paise were kept
    {"amount_paise": None},  # a free table booking
    {"amount_paise": True},
    {"amount_paise": -500},
    {},
)
WHEN_OLD_SCHEMA = 6  # the last migration before today's spending had rows of its own


def _spend_detail(rng: random.Random, approval: str) -> dict[str, Any]:
    detail: dict[str, Any] = {"approval": approval, **rng.choice(AMOUNTS)}
    outcome = rng.choice(OUTCOMES)
    if outcome is not None:
        detail["outcome"] = outcome
    if rng.random() < 0.9:
        detail["day"] = rng.choice(DAYS)
    return detail


def _facts(rng: random.Random) -> dict[str, Any]:
    return {"day": rng.choice(DAYS), **rng.choice(AMOUNTS), "calling": True}


@dataclass
class History:
    """A person's approvals and audit entries, made through the store's own calls."""

    store: ChatStore
    rng: random.Random
    asked: dict[str, list[str]] = field(default_factory=dict)
    running: dict[str, list[str]] = field(default_factory=dict)

    def step(self) -> None:
        user = self.rng.choice(USERS)
        asked, running = self.asked.setdefault(user, []), self.running.setdefault(user, [])
        move = self.rng.choice(("ask", "confirm", "finish", "audit", "settle", "facts"))
        if move == "ask" or not asked:
            conversation = self.store.create_conversation(user, "food")
            fields = {"user_id": user, "digest": "d", "view": {}}
            asked.append(self.store.create_approval(new_approval(conversation, **fields)).id)
        elif move == "confirm":
            approval = self.rng.choice(asked)
            facts, now = _facts(self.rng), datetime.now(UTC)
            day = str(facts["day"])
            if self.store.begin_spend(approval, user, facts, lambda _: None, day=day, now=now):
                running.append(approval)
        elif move == "finish" and running:
            approval = running.pop(self.rng.randrange(len(running)))
            target = self.rng.choice(("done", "failed", "unknown", "refused"))
            facts = _facts(self.rng) if self.rng.random() < 0.5 else None
            self.store.transition_approval(approval, ["executing"], target, result=facts)
        elif move == "facts" and running:
            self.store.record_approval_facts(
                self.rng.choice(running), "executing", _facts(self.rng)
            )
        elif move == "audit":
            approval = self.rng.choice([*asked, f"ghost-{self.rng.randrange(5)}"])
            self.store.record_audit(user, "spend_call", _spend_detail(self.rng, approval))
        else:
            detail = {"approval": self.rng.choice(asked), "outcome": self.rng.choice(OUTCOMES)}
            self.store.record_audit(user, "spend_settled", detail)

    def approvals(self) -> list[str | None]:
        return [None, *(a for ids in self.asked.values() for a in ids)]


def _both(store: ChatStore, user: str, day: str, excluding: str | None) -> tuple[int, int]:
    with store.engine.connect() as conn:
        before = all_history_spent_on(conn, user, day, excluding=excluding)
    return store.spent_today(user, day, excluding=excluding), before


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_days_rows_add_up_to_what_the_whole_history_did(store: ChatStore, seed: int) -> None:
    """Confirmations, outcomes, audits, settles and odd amounts in any order: every person,
    day and excluded approval comes to the same paise as the old computation."""
    history = History(store, random.Random(seed))
    for round_ in range(4):
        for _ in range(25):
            history.step()
        for user in USERS:
            for day in DAYS:
                for excluding in random.Random(round_).sample(history.approvals(), 3):
                    now, before = _both(store, user, day, excluding)
                    assert now == before, (user, day, excluding)
    totals = [store.spent_today(user, day) for user in USERS for day in DAYS]
    assert any(totals)  # the histories spent something
    assert _kept_rows(store) == _audited(store)


def _kept_rows(store: ChatStore) -> set[tuple[str, str]]:
    with store.engine.connect() as conn:
        rows = conn.execute(select(spends.c.user_id, spends.c.approval_id)).all()
    return {(row.user_id, row.approval_id) for row in rows}


def _audited(store: ChatStore) -> set[tuple[str, str]]:
    """(person, approval) of every spend the audit recorded: one row each."""
    return {
        (user, str(detail.get("approval", "")))
        for user in USERS
        for _action, detail in store.audit_entries(user, actions=("spend_call",))
    }


def test_an_amount_past_any_order_is_capped_yet_stops_every_limit(store: ChatStore) -> None:
    huge = {"approval": "a", "outcome": "done", "day": TODAY, "amount_paise": 10**30}
    store.record_audit(USERS[0], "spend_call", huge)
    assert store.spent_today(USERS[0], TODAY) == MAX_SPEND_PAISE
    rupees = {**huge, "approval": "b", "amount_paise": None, "amount": 1e307}
    store.record_audit(USERS[0], "spend_call", rupees)
    assert store.spent_today(USERS[0], TODAY) == 2 * MAX_SPEND_PAISE
    store.record_audit(USERS[0], "spend_settled", {"approval": "b", "outcome": "failed"})
    assert store.spent_today(USERS[0], TODAY) == MAX_SPEND_PAISE


def _spends(store: ChatStore, count: int, day: str) -> None:
    """`count` spends of `day`: half audited, half confirmed and still running."""
    for index in range(count):
        conversation = store.create_conversation(USERS[0], "food")
        fields = {"user_id": USERS[0], "digest": "d", "view": {}}
        approval = store.create_approval(new_approval(conversation, **fields)).id
        facts = {"amount_paise": 1_000 + index, "day": day}
        store.begin_spend(approval, USERS[0], facts, lambda _: None, day=day, now=datetime.now(UTC))
        if index % 2:
            store.record_audit(
                USERS[0], "spend_call", {"approval": approval, "outcome": "done", **facts}
            )


def _history(open_one: Callable[[], ChatStore], past: int) -> ChatStore:
    store = open_one()
    _spends(store, past, DAYS[0])
    _spends(store, 3, TODAY)
    return store


def test_today_is_read_from_todays_rows_only(tmp_path) -> None:
    """The same work for today at 10 and at 200 past spends (SQLite's own step count)."""
    opened = iter(ChatStore(f"sqlite:///{tmp_path / name}") for name in ("few.db", "many.db"))
    few, many = _history(lambda: next(opened), 10), _history(lambda: next(opened), 200)
    try:
        assert few.spent_today(USERS[0], TODAY) == many.spent_today(USERS[0], TODAY) == 3_003
        little = steps_of(few, lambda: few.spent_today(USERS[0], TODAY, excluding="x"))
        lots = steps_of(many, lambda: many.spent_today(USERS[0], TODAY, excluding="x"))
        assert lots == little, (little, lots)
        plans = query_plans(many.engine, lambda: many.spent_today(USERS[0], TODAY))
        assert any("ix_spends_user_day" in step for step in plans), plans
        assert any("ix_approvals_user_spend_day" in step for step in plans), plans
        assert not any(step.startswith("SCAN") and "CONSTANT" not in step for step in plans)
    finally:
        few.close()
        many.close()


# -- the migration back-fills what older code stored ---------------------------------------
def _old_database(url: str) -> None:
    """A database as the code before today's spending rows left it (migrations 1 to 6)."""
    db = Database(url, busy_timeout_ms=5_000)
    try:
        for migration in MIGRATIONS[:WHEN_OLD_SCHEMA]:
            with db.write() as conn:
                schema_version.create(conn, checkfirst=True)
                migration.apply(conn)
                conn.execute(
                    insert(schema_version).values(version=migration.version, applied_at=utc_now())
                )
    finally:
        db.close()


def _old_rows(rng: random.Random, count: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Approvals and spend audit entries as the older code wrote them (JSON facts only)."""
    moment = datetime(2026, 11, 23, 6, tzinfo=UTC)
    statuses = ("pending", "executing", "done", "failed", "unknown", "refused", "expired")
    approval_rows, audit_rows = [], []
    for index in range(count):
        user, approval = rng.choice(USERS), f"old-{index:05d}"
        result = None if rng.random() < 0.2 else json.dumps(_facts(rng))
        approval_rows.append({
            "id": approval, "user_id": user, "conversation_id": "c", "vertical_id": "food",
            "server_key": "instamart", "tool": "checkout", "arguments": "{}", "digest": "d",
            "view": "{}", "tool_use_id": "t", "status": rng.choice(statuses),
            "expires_at": moment, "created_at": moment, "updated_at": moment,
            "result": result, "note": "",
        })  # fmt: skip
        for _ in range(rng.randrange(3)):
            action = rng.choice(("spend_call", "spend_call", "spend_settled"))
            detail = _spend_detail(rng, approval)
            audit_rows.append(
                {"at": moment, "user_id": user, "action": action, "detail": json.dumps(detail)}
            )
    return approval_rows, audit_rows


@pytest.mark.empty_database
def test_the_migration_back_fills_older_spends_to_the_same_paise(database_url, open_store) -> None:
    """More rows than one back-fill batch, odd facts included: every person, day and
    excluded approval comes to what the older code computed on the same database."""
    _old_database(database_url)
    approval_rows, audit_rows = _old_rows(random.Random(7), 700)
    assert len(audit_rows) > 500 and len(approval_rows) > 500
    engine = create_engine(database_url)
    try:
        with engine.begin() as conn:
            conn.execute(insert(approvals), approval_rows)
            conn.execute(insert(audit), audit_rows)
        with engine.connect() as conn:
            cases = [
                (user, day, excluding)
                for user in USERS
                for day in DAYS
                for excluding in (None, "old-00003", "old-00010")
            ]
            before = {
                case: all_history_spent_on(conn, *case[:2], excluding=case[2]) for case in cases
            }
    finally:
        engine.dispose()
    store = open_store()
    after = {case: store.spent_today(*case[:2], excluding=case[2]) for case in cases}
    assert after == before
    calls = [row for row in audit_rows if row["action"] == "spend_call"]
    assert _kept_rows(store) == {
        (row["user_id"], json.loads(row["detail"])["approval"]) for row in calls
    }
    assert sum(before.values()) > 0
    # And the rows go on from there: one more spend today counts once.
    store.record_audit(USERS[0], "spend_call", {"approval": "new", "outcome": "done",
                                                "day": TODAY, "amount_paise": 100})  # fmt: skip
    assert store.spent_today(USERS[0], TODAY) == before[(USERS[0], TODAY, None)] + 100
