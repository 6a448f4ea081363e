"""The audit of every tool call: who called what, where, with which outcome, how long.

One row per call, whichever engine made it (the model's calls in the local engine, the
results Anthropic's connector streams back) and every call the app runs itself (the
reads around an approval and the confirmed spending call). Arguments are stored with
credentials redacted; tokens never reach this table. The Activity view reads it back
newest first and exports it as CSV.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final, Literal

from sqlalchemy import Connection, insert, select

from swiggy_core import logsafe
from swiggy_core.spreadsheet import spreadsheet_cell
from swiggy_core.store.database import BEST_EFFORT_WAIT_MS, Database
from swiggy_core.store.redaction import redact
from swiggy_core.store.schema import (
    ID_LENGTH,
    NAME_LENGTH,
    STATUS_LENGTH,
    TITLE_LENGTH,
    USER_ID_LENGTH,
    VERTICAL_ID_LENGTH,
    as_utc,
    tool_calls,
)

Outcome = Literal["ok", "error", "denied"]
OUTCOMES: Final[tuple[Outcome, ...]] = ("ok", "error", "denied")
CSV_COLUMNS: Final = (
    "at",
    "world",
    "page",
    "conversation",
    "server",
    "tool",
    "outcome",
    "duration_ms",
    "error_code",
    "arguments",
)
# The stores' user ids end in the world they belong to (`person@sandbox`, `person@swiggy`).
WORLDS: Final = ("sandbox", "swiggy")
_INSERT: Final = insert(tool_calls)


@dataclass(frozen=True, slots=True)
class ToolCallEntry:
    """One audited tool call; `arguments` are redacted before they are stored."""

    at: datetime
    user_id: str
    world: str
    vertical_id: str
    conversation_id: str | None
    server: str
    tool: str
    arguments: dict[str, Any] = field(default_factory=dict)
    outcome: Outcome = "ok"
    duration_ms: float = 0.0
    error_code: str | None = None


def world_of(user_id: str) -> str:
    """The world a store user id names ("sandbox" / "swiggy"), or "" when it names none."""
    _, at, world = user_id.rpartition("@")
    return world if at and world in WORLDS else ""


def safe_arguments(arguments: Any) -> dict[str, Any]:
    """Arguments as they may be stored: credential keys and values, registered secrets masked."""
    text = logsafe.redact(json.dumps(redact(arguments), default=str, ensure_ascii=False))
    loaded = json.loads(text)
    return loaded if isinstance(loaded, dict) else {"value": loaded}


def record_tool_call(db: Database, entry: ToolCallEntry) -> None:
    """Append one entry (arguments redacted, long names cut to their columns)."""
    record_tool_calls(db, [entry])


def record_tool_calls(db: Database, entries: Sequence[ToolCallEntry]) -> None:
    """Append these entries in one transaction of their own."""
    # Best effort: the audit hook tries a busy database again a few times, then moves on.
    with db.write(wait_ms=BEST_EFFORT_WAIT_MS) as conn:
        write_tool_calls(conn, entries)


def write_tool_calls(conn: Connection, entries: Sequence[ToolCallEntry]) -> None:
    """Append these entries in the caller's transaction."""
    if entries:  # built once: building it per call cost more than running it
        conn.execute(_INSERT, [_row(entry) for entry in entries])


def _row(entry: ToolCallEntry) -> dict[str, Any]:
    return {
        "at": as_utc(entry.at),
        "user_id": entry.user_id[:USER_ID_LENGTH],
        "world": entry.world[:NAME_LENGTH],
        "vertical_id": entry.vertical_id[:VERTICAL_ID_LENGTH],
        "conversation_id": _cut(entry.conversation_id, ID_LENGTH),
        "server": entry.server[:NAME_LENGTH],
        "tool": entry.tool[:TITLE_LENGTH],
        "arguments": json.dumps(safe_arguments(entry.arguments), ensure_ascii=False),
        "outcome": entry.outcome,
        "duration_ms": max(0.0, float(entry.duration_ms)),
        "error_code": _cut(entry.error_code, STATUS_LENGTH),
    }


def tool_call_entries(
    db: Database,
    user_id: str,
    *,
    limit: int = 200,
    server: str | None = None,
    tool: str | None = None,
    outcome: str | None = None,
    since: datetime | None = None,
) -> list[ToolCallEntry]:
    """The person's latest calls, newest first, optionally filtered."""
    query = select(tool_calls).where(tool_calls.c.user_id == user_id)
    if server:
        query = query.where(tool_calls.c.server == server)
    if tool:
        query = query.where(tool_calls.c.tool == tool)
    if outcome:
        query = query.where(tool_calls.c.outcome == outcome)
    if since is not None:
        query = query.where(tool_calls.c.at >= as_utc(since))
    query = query.order_by(tool_calls.c.id.desc()).limit(max(0, limit))
    with db.read() as conn:
        rows = conn.execute(query).all()
    return [_entry(row._mapping) for row in rows]


def tool_calls_csv(entries: Iterable[ToolCallEntry]) -> str:
    """The entries as CSV (header first), safe to open in a spreadsheet."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for entry in entries:
        row = (
            as_utc(entry.at).isoformat(timespec="seconds"),
            entry.world,
            entry.vertical_id,
            entry.conversation_id or "",
            entry.server,
            entry.tool,
            entry.outcome,
            f"{entry.duration_ms:.0f}",
            entry.error_code or "",
            json.dumps(entry.arguments, ensure_ascii=False, sort_keys=True),
        )
        writer.writerow([spreadsheet_cell(value) for value in row])
    return buffer.getvalue()


def _cut(value: str | None, length: int) -> str | None:
    return value[:length] if value else None


def _entry(row: Any) -> ToolCallEntry:
    try:
        arguments = json.loads(row["arguments"])
    except ValueError:
        arguments = {}
    return ToolCallEntry(
        at=row["at"],
        user_id=row["user_id"],
        world=row["world"],
        vertical_id=row["vertical_id"],
        conversation_id=row["conversation_id"],
        server=row["server"],
        tool=row["tool"],
        arguments=arguments if isinstance(arguments, dict) else {},
        outcome=row["outcome"] if row["outcome"] in OUTCOMES else "error",
        duration_ms=float(row["duration_ms"]),
        error_code=row["error_code"],
    )
