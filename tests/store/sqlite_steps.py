"""How much work SQLite does for a call: its virtual machine's steps, counted exactly.

A query that reads only the rows it needs takes the same number of steps however many
other rows the tables hold (an index search is one step at any depth); one that reads
the whole history takes more steps with every row. No clock is involved.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine

from swiggy_core.store import ChatStore


@contextmanager
def counted_steps(store: ChatStore) -> Iterator[list[int]]:
    """Counts the steps of every statement `store` runs inside the block (into [0])."""
    steps = [0]
    watched: list[sqlite3.Connection] = []

    def tick() -> int:
        steps[0] += 1
        return 0  # go on

    def watch(_conn: Any, cursor: Any, *_rest: Any) -> None:
        raw: sqlite3.Connection = cursor.connection
        if raw not in watched:
            raw.set_progress_handler(tick, 1)
            watched.append(raw)

    event.listen(store.engine, "before_cursor_execute", watch)
    try:
        yield steps
    finally:
        event.remove(store.engine, "before_cursor_execute", watch)
        for raw in watched:
            raw.set_progress_handler(None, 1)


def steps_of(store: ChatStore, call: Callable[[], object]) -> int:
    """The steps of one call (after a first, uncounted one warms the connection)."""
    call()
    with counted_steps(store) as steps:
        call()
    return steps[0]


def query_plans(engine: Engine, call: Callable[[], object]) -> list[str]:
    """SQLite's plan of every SELECT the call runs, one line per step of each plan."""
    seen: list[tuple[str, Any]] = []

    def keep(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_rest: Any) -> None:
        if statement.lstrip().upper().startswith("SELECT"):
            seen.append((statement, parameters))

    event.listen(engine, "before_cursor_execute", keep)
    try:
        call()
    finally:
        event.remove(engine, "before_cursor_execute", keep)
    plans: list[str] = []
    with engine.connect() as conn:
        for statement, parameters in seen:
            rows = conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}", parameters)
            plans.extend(str(row[3]) for row in rows)
    return plans
