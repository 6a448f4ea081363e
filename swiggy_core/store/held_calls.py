"""Tool-call audit rows held back, to be written with what their calls' results made.

While an approval is prepared, the app's own reads of the shop (addresses, payment
options, the cart) feed nothing but the approval it then stores: their rows are written
in that approval's transaction (`ChatStore.open_approval`), so no row is committed later
than anything made of its call, and three transactions a turn become none. Rows still
held when the holding ends (a refusal, a fault) are written together then.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from swiggy_core.store.database import Database
from swiggy_core.store.faults import StoreError
from swiggy_core.store.tool_audit import ToolCallEntry, record_tool_calls

logger = logging.getLogger(__name__)

# The database whose rows are held, and the rows: another store's calls are never taken.
_HELD: ContextVar[tuple[Database, list[ToolCallEntry]] | None] = ContextVar(
    "held_tool_calls", default=None
)


def held_here(db: Database) -> list[ToolCallEntry] | None:
    """The rows held for `db` in this context (thread, task); None when none are."""
    held = _HELD.get()
    return held[1] if held is not None and held[0] is db else None


@contextmanager
def holding(db: Database) -> Iterator[list[ToolCallEntry]]:
    """Hold the tool calls recorded for `db` in this context in the list given; what is
    left in it at the end is written then, in one transaction (best effort, like every
    audit row)."""
    rows: list[ToolCallEntry] = []
    token = _HELD.set((db, rows))
    try:
        yield rows
    finally:
        _HELD.reset(token)
        _write_left(db, rows)


def _write_left(db: Database, rows: list[ToolCallEntry]) -> None:
    if not rows:
        return
    try:
        record_tool_calls(db, rows)
    except StoreError as error:  # an audit fault never fails the turn (see hooks.rules)
        logger.error("tool call audit not stored for %d calls (%s)", len(rows), error.code)
