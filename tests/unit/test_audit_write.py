"""The audit hook under a busy database: the entry is written after a pause, not dropped."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from swiggy_core.errors import ErrorCode
from swiggy_core.hooks import CallScope, ToolOutcome
from swiggy_core.hooks.rules import AUDIT_RETRY_PAUSES, audit_to
from swiggy_core.mcp.manager import ToolOutput
from swiggy_core.store import ChatStore, StoreError
from swiggy_core.store.faults import store_error
from swiggy_core.store.tool_audit import ToolCallEntry

SCOPE = CallScope("b-0123456789abcdef0123456789abcdef@sandbox", "food", "c-1")
INFO = SCOPE.info("instamart", "search_products", {"query": "milk"})
OUTCOME = ToolOutcome(INFO, ToolOutput("{}", False), 4.0, None)


class FlakyStore:
    """Refuses the first `faults` writes with `code`, then keeps every entry."""

    def __init__(self, faults: int, code: ErrorCode = ErrorCode.STORE_BUSY) -> None:
        self.faults = faults
        self.code = code
        self.attempts = 0
        self.kept: list[ToolCallEntry] = []

    def record(self, entry: ToolCallEntry) -> None:
        self.attempts += 1
        if self.attempts <= self.faults:
            raise store_error(self.code)
        self.kept.append(entry)


def test_a_busy_database_is_tried_again_until_the_entry_is_written() -> None:
    store, pauses = FlakyStore(faults=len(AUDIT_RETRY_PAUSES)), []
    audit_to(store.record, sleep=pauses.append)(OUTCOME)
    assert [entry.tool for entry in store.kept] == ["search_products"]
    assert pauses == list(AUDIT_RETRY_PAUSES)


def test_a_database_busy_for_longer_than_the_retries_is_logged_not_raised(
    caplog: pytest.LogCaptureFixture,
) -> None:
    store, pauses = FlakyStore(faults=99), []
    with caplog.at_level(logging.WARNING):
        audit_to(store.record, sleep=pauses.append)(OUTCOME)
    assert store.attempts == len(AUDIT_RETRY_PAUSES) + 1
    assert not store.kept
    lost = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert [r.getMessage() for r in lost] == [
        f"tool call audit not stored for search_products ({ErrorCode.STORE_BUSY})"
    ]


def test_a_fault_that_waiting_cannot_fix_is_not_retried() -> None:
    store, pauses = FlakyStore(faults=1, code=ErrorCode.STORE_READ_ONLY), []
    audit_to(store.record, sleep=pauses.append)(OUTCOME)
    assert (store.attempts, store.kept, pauses) == (1, [], [])


def test_a_real_sqlite_lock_held_past_the_busy_timeout_still_gets_the_row(
    tmp_path: Path,
) -> None:
    """Another writer holds SQLite's write lock longer than the store waits for it: the
    first try fails busy (E-4103); that writer finishes while the hook pauses; the row is
    written on the next try."""
    database = tmp_path / "chats.db"
    store = ChatStore(f"sqlite:///{database}", busy_timeout_ms=50)
    other_writer = sqlite3.connect(database, isolation_level=None)
    other_writer.execute("BEGIN IMMEDIATE")
    tries: list[ErrorCode | None] = []

    def record(entry: ToolCallEntry) -> None:
        try:
            store.record_tool_call(entry)
        except StoreError as error:
            tries.append(error.code)
            raise
        tries.append(None)

    def pause(seconds: float) -> None:
        if other_writer.in_transaction:
            other_writer.execute("ROLLBACK")

    try:
        audit_to(record, sleep=pause)(OUTCOME)
    finally:
        other_writer.close()
    assert tries == [ErrorCode.STORE_BUSY, None]
    assert [e.tool for e in store.tool_calls(INFO.user_id)] == ["search_products"]
    store.close()
