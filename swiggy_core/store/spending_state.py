"""What a new spending request is checked against, read in one snapshot: the person's
limits, what they spent today, and their UPI orders still waiting for a payment."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from swiggy_core.store import approval_queries as queries
from swiggy_core.store.approval_states import PAYING
from swiggy_core.store.audit import preference_in
from swiggy_core.store.database import Database
from swiggy_core.store.records import ApprovalRecord
from swiggy_core.store.spending import spent_on


@dataclass(frozen=True, slots=True)
class SpendingState:
    """A person's spending as a new request finds it."""

    limits: dict[str, Any] | None  # the stored limits preference, as stored
    spent_today: int  # paise (see `spending.spent_on`)
    paying: tuple[ApprovalRecord, ...]  # their UPI orders waiting for the payment


def spending_state(db: Database, user_id: str, day: str, limits_name: str) -> SpendingState:
    """The person's limits (the preference `limits_name`), what they spent on the India
    date `day` and their orders waiting for a payment, in one read."""
    paying = {"user_id": user_id, "statuses": sorted(status.value for status in PAYING)}
    with db.read() as conn:
        limits = preference_in(conn, user_id, limits_name)
        spent = spent_on(conn, user_id, day)
        rows = conn.execute(queries.OF_USER, paying).all()
    return SpendingState(limits, spent, tuple(queries.record_of(row) for row in rows))
