"""Several app replicas on one PostgreSQL and one Redis, as a deployment behind one address
runs them: real `streamlit run app.py` processes, each killable with SIGKILL, plus read-only
looks into the shared database (polled, never the page) for what a crash left behind."""

from __future__ import annotations

import json
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from e2e_support import POLL_SECONDS, Server, spawn_app, wait_healthy
from sandbox_clock import FIXED_SANDBOX_NOW, SANDBOX_NOW_ENV
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine

STATE_SECONDS = 120.0  # what a crash test waits for in the database (a loaded machine)
LEASE_SECONDS = "3"  # a dead replica's chat lease lapses this fast in these tests


@contextmanager
def replica(folder: Path, database_url: str, redis_url: str, **env: str) -> Iterator[Server]:
    """One app process on the shared database and Redis; killed (if still alive) at the end."""
    folder.mkdir(parents=True, exist_ok=True)
    settings = {
        "SWIGGY_DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "SWIGGY_TURN_LEASE_SECONDS": LEASE_SECONDS,
        "SWIGGY_HEALTH_POLL": "off",
        SANDBOX_NOW_ENV: FIXED_SANDBOX_NOW,
        **env,
    }
    server = spawn_app(folder, settings, f"replica-{time.monotonic_ns()}.log")
    try:
        wait_healthy(server)
        yield server
    finally:
        if server.process.poll() is None:
            server.process.send_signal(signal.SIGKILL)
        server.process.wait(30)


def kill(server: Server) -> None:
    """SIGKILL: no `finally`, no atexit, no goodbye (an OOM kill or a lost machine)."""
    server.process.send_signal(signal.SIGKILL)
    server.process.wait(30)


class SharedDatabase:
    """Read-only looks at what the replicas stored (chats, ledger, audit, the demo shop)."""

    def __init__(self, url: str) -> None:
        self.engine: Engine = create_engine(url)

    def close(self) -> None:
        self.engine.dispose()

    def rows(self, sql: str, **params: Any) -> list[Any]:
        with self.engine.connect() as conn:
            return list(conn.execute(text(sql), params))

    def approvals(self, user: str) -> list[Any]:
        return self.rows(
            "SELECT id, status, result, conversation_id, tool_use_id FROM approvals "
            "WHERE user_id = :user ORDER BY created_at",
            user=user,
        )

    def orders(self, user: str) -> int:
        return len(self.rows("SELECT order_id FROM sandbox_orders WHERE user_id = :u", u=user))

    def spend_audits(self, user: str) -> list[dict[str, Any]]:
        found = self.rows(
            "SELECT detail FROM audit WHERE user_id = :user AND action = 'spend_call' ORDER BY id",
            user=user,
        )
        return [json.loads(row.detail) for row in found]

    def messages(self, conversation_id: str) -> list[dict[str, Any]]:
        found = self.rows(
            "SELECT body FROM messages WHERE conversation_id = :c ORDER BY seq", c=conversation_id
        )
        return [json.loads(row.body) for row in found]

    def wait_for(self, what: str, check: Callable[[], Any], server: Server | None = None) -> Any:
        """Poll the database until `check()` is truthy (generous: a loaded machine)."""
        deadline = time.monotonic() + STATE_SECONDS
        while True:
            found = check()
            if found:
                return found
            if time.monotonic() > deadline:
                log = server.output() if server is not None else ""
                pytest.fail(f"never saw {what} in the database\n--- replica log ---\n{log}")
            time.sleep(POLL_SECONDS)


def answers_for(messages: list[dict[str, Any]], tool_use_id: str) -> list[dict[str, Any]]:
    """The approval answers the model was given for one request (parsed JSON)."""
    found: list[dict[str, Any]] = []
    for message in messages:
        content = message.get("content")
        if message.get("role") != "user" or not isinstance(content, list):
            continue
        for block in content:
            if block.get("type") == "tool_result" and block.get("tool_use_id") == tool_use_id:
                inner = block["content"]
                body = inner if isinstance(inner, str) else inner[0]["text"]
                found.append(json.loads(body))
    return found
