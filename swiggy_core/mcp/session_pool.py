"""The open MCP sessions, one per (person, server, token), and the rules for reusing them.

A session found dead before anything is sent is replaced; one lost while a request was out
is retried only for work that cannot repeat an action; a 429 keeps the session and refuses
every request of that person to that server until its Retry-After is over. Everything here
runs on the shared background loop (`swiggy_core.mcp.loop`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from mcp import ClientSession
from mcp.shared.exceptions import MCPError

from swiggy_core.mcp.client import McpCallError, RateLimited
from swiggy_core.mcp.connection import Connection, ConnectionLost, SessionKey
from swiggy_core.mcp.transports import Endpoint
from swiggy_core.mcp.waits import ServerWaits, request_noting_429

T = TypeVar("T")
# What a Streamable HTTP server answers to a session id it has forgotten (nothing ran).
_SESSION_GONE = "Session terminated"
Work = Callable[[ClientSession], Coroutine[Any, Any, T]]


class SessionPool:
    """Open sessions by key, each opened once per person, server and token; on the loop only."""

    def __init__(
        self, *, call_timeout: float, idle_seconds: float, clock: Callable[[], float]
    ) -> None:
        self.call_timeout = call_timeout
        self.idle_seconds = idle_seconds
        self.connections: dict[SessionKey, Connection] = {}
        self._waits = ServerWaits(clock)  # servers that answered 429, per person
        self._open_locks: dict[str, asyncio.Lock] = {}  # per host or command

    def __repr__(self) -> str:
        return f"SessionPool(sessions={len(self.connections)})"

    async def run(
        self,
        endpoint: Endpoint,
        key: SessionKey,
        work: Work[T],
        doing: str,
        wait: float,
        idempotent: bool = False,
        *,
        reopen: bool = True,
    ) -> T:
        """Run `work` on the pooled session; reconnect once when that cannot repeat an action.

        A session found dead before anything is sent is replaced first (safe for any work);
        a transport lost while a request was out is retried only for idempotent work. A 429
        is no dead transport: nothing is re-sent, and until its Retry-After is over every
        request of this person to this server fails here, without reaching the server.
        """
        self._waits.refuse_while_waiting(key)
        try:
            for attempt in range(2):
                connection = await self._connection(key, endpoint, reopen=reopen)
                try:
                    return await request_noting_429(connection, work, wait, doing)
                except RateLimited:
                    raise  # the session stays (an SSE one, its writer gone, is replaced later)
                except Exception as error:
                    await self._drop(key, connection)
                    again = attempt == 0 and _may_send_again(error, idempotent)
                    if not again:
                        raise _failure(connection, error, doing) from None
        except RateLimited as limited:
            self._waits.remember(key, limited)
            raise
        raise AssertionError("unreachable")

    async def close_all(self) -> None:
        """Close every session and stop every stdio server."""
        dropped = [self.connections.pop(key) for key in list(self.connections)]
        await asyncio.gather(*(connection.close() for connection in dropped))

    async def _connection(self, key: SessionKey, endpoint: Endpoint, *, reopen: bool) -> Connection:
        await self._close_idle()
        existing = self.connections.get(key)
        if existing is not None and existing.alive:
            return existing
        if existing is not None and not reopen:
            await self._drop(key)
            raise existing.failed("waiting for its next request", died=True)
        # Swiggy asks clients to initialise its servers one after another, never at once.
        lock = self._open_locks.setdefault(
            endpoint.host if endpoint.url else endpoint.key, asyncio.Lock()
        )
        async with lock:
            existing = self.connections.get(key)
            if existing is not None and existing.alive:
                return existing
            await self._drop(key)
            connection = Connection(endpoint, self.call_timeout)
            await connection.open()
            self.connections[key] = connection
            return connection

    async def _close_idle(self) -> None:
        cutoff = time.monotonic() - self.idle_seconds
        for key in [k for k, c in self.connections.items() if c.last_used < cutoff]:
            await self._drop(key)

    async def _drop(self, key: SessionKey, only: Connection | None = None) -> None:
        """Close the session under `key` (when `only` is given, only if it is still that one)."""
        connection = self.connections.get(key)
        if connection is None or (only is not None and connection is not only):
            if only is not None:
                await only.close()
            return
        del self.connections[key]
        await connection.close()


def _may_send_again(error: Exception, idempotent: bool) -> bool:
    """Whether work that failed with `error` may be sent once more on a new session.

    A forgotten session was refused before anything ran; a lost or closed connection may
    have run the work already, so only idempotent work is sent again. Anything else is final.
    """
    if isinstance(error, ConnectionLost):
        return idempotent
    if isinstance(error, MCPError):
        return idempotent or error.error.message == _SESSION_GONE
    return False


def _failure(connection: Connection, error: Exception, doing: str) -> Exception:
    """What a failed request raises: coded errors as they are, anything else coded here."""
    if isinstance(error, McpCallError):  # ConnectionLost included
        return error
    return connection.failed(doing, error=error)
