"""The approval ledger as a state machine: the statuses and the only moves between them.

Every status change goes through `swiggy_core.store.approvals.transition`, which checks
the move against `ALLOWED` before touching the database and then applies it as one
compare-and-set. A move that is not in the table is a bug (ValueError), never a write.

    pending ──► executing ──► done | failed | unknown | refused
       │            │            unknown ──► done | failed   (settled by reading orders)
       │            └──► awaiting_payment ──► done | failed | unknown
       │                        └──► paid_confirming ──► done | unknown
       └──► declined | expired | superseded

A UPI order waits for the person's payment (`awaiting_payment`: Swiggy made it, nothing
is placed yet); once paid, the app moves it to `paid_confirming` before it calls
`confirm_order`, so only one process ever confirms it. (Every name fits the ledger's
16-character status column.)
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from enum import StrEnum
from typing import Final


class ApprovalStatus(StrEnum):
    """Where one spending action stands."""

    PENDING = "pending"  # waiting for the person's Confirm or Cancel
    EXECUTING = "executing"  # confirmed; its call is about to run, running or just ran
    DONE = "done"  # the order or booking exists
    FAILED = "failed"  # Swiggy refused it, or it never ran: nothing was placed
    UNKNOWN = "unknown"  # it may have run and nothing could tell: never run again
    REFUSED = "refused"  # stopped at Confirm (the cart changed, a limit): never ran
    DECLINED = "declined"  # the person pressed Cancel
    EXPIRED = "expired"  # nobody decided in time
    SUPERSEDED = "superseded"  # a newer question or a cart change replaced it
    AWAITING_PAYMENT = "awaiting_payment"  # a UPI order waiting for the person to pay
    CONFIRMING_PAYMENT = "paid_confirming"  # paid; the app is confirming the order


S = ApprovalStatus
ALLOWED: Final[dict[ApprovalStatus, frozenset[ApprovalStatus]]] = {
    S.PENDING: frozenset({S.EXECUTING, S.DECLINED, S.EXPIRED, S.SUPERSEDED, S.REFUSED}),
    S.EXECUTING: frozenset({S.DONE, S.FAILED, S.UNKNOWN, S.REFUSED, S.AWAITING_PAYMENT}),
    S.AWAITING_PAYMENT: frozenset({S.CONFIRMING_PAYMENT, S.DONE, S.FAILED, S.UNKNOWN}),
    S.CONFIRMING_PAYMENT: frozenset({S.DONE, S.UNKNOWN}),
    S.UNKNOWN: frozenset({S.DONE, S.FAILED}),
    S.DONE: frozenset(),
    S.FAILED: frozenset(),
    S.REFUSED: frozenset(),
    S.DECLINED: frozenset(),
    S.EXPIRED: frozenset(),
    S.SUPERSEDED: frozenset(),
}
# A confirmed call that is running or may have run: it counts against today's limit and
# is settled by reading orders (never by calling again) when its turn is gone.
UNSETTLED: Final = frozenset({S.EXECUTING, S.UNKNOWN})
# A UPI payment under way: the payment panel polls it (never the spending call again).
PAYING: Final = frozenset({S.AWAITING_PAYMENT, S.CONFIRMING_PAYMENT})
# Spends that count against the daily limit until proven otherwise.
COUNTED: Final = frozenset({S.EXECUTING, S.DONE, S.UNKNOWN}) | PAYING
# Nothing will ever happen to these again.
FINAL: Final = frozenset(status for status, onward in ALLOWED.items() if not onward)


def statuses(values: Iterable[str]) -> list[ApprovalStatus]:
    """Status names as enum members, sorted; ValueError for a name that is no status."""
    try:
        return sorted({ApprovalStatus(value) for value in values})
    except ValueError as error:
        raise ValueError(f"unknown approval status: {error}") from None


def check_moves(from_statuses: Collection[str], to_status: str) -> None:
    """Raise ValueError unless every `from → to` move is in the table."""
    target = ApprovalStatus(to_status)
    wrong = [s for s in statuses(from_statuses) if target not in ALLOWED[s]]
    if wrong:
        names = ", ".join(str(status) for status in wrong)
        raise ValueError(f"approval move not allowed: {names} → {target}")
