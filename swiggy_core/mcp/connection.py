"""One open MCP session, held by its own task on the background loop, with coded failures.

anyio scopes must be exited by the task that entered them, so a task opens the transport
and the session and then waits until it is told to close (or the transport ends). Every
failure becomes an `McpCallError` whose code says what went wrong (E-32xx, E-3209 for a
person's server on an address it may not use, or the E-31xx catalogue for HTTP statuses)
and whose message names the server's key or host only.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import time
from collections.abc import Callable, Coroutine
from typing import Any, NamedTuple, TypeVar

import httpx2
from mcp import ClientSession
from mcp.shared.exceptions import MCPError
from mcp.types import CONNECTION_CLOSED, INTERNAL_ERROR, INVALID_REQUEST
from pydantic import ValidationError

from swiggy_core.constants import MCP_SERVERS
from swiggy_core.errors import ErrorCode, rate_limited_message
from swiggy_core.logsafe import register_secret
from swiggy_core.mcp.client import McpCallError, RateLimited
from swiggy_core.mcp.transports import Endpoint, Wire, mcp_client
from swiggy_core.retry_after import (
    RATE_LIMIT_DEFAULT_WAIT_SECONDS,
    retry_after_text,
    retry_after_value,
)
from swiggy_core.tool_errors import classify_tool_failure

T = TypeVar("T")
_AUTH_STATUSES = frozenset({401, 403, 419})
_TOO_MANY = 429
# JSON-RPC errors the client transport makes up when the connection (not the tool) fails.
TRANSPORT_CODES = frozenset({CONNECTION_CLOSED, INVALID_REQUEST, INTERNAL_ERROR})
# A stdio server gets its stdin closed, then SIGTERM, then SIGKILL (2 s each) before this.
CLOSE_TIMEOUT_SECONDS = 10.0


class ConnectionLost(McpCallError):
    """The transport ended while a request was out: it may or may not have run."""


class SessionKey(NamedTuple):
    """Whose session on which server: person, server identity, token digest."""

    user: str
    server: str
    token: str


def session_key(user: str, endpoint: Endpoint) -> SessionKey:
    """The pool key: the token itself is kept only as a digest."""
    token = endpoint.token
    digest = hashlib.sha256(token.encode()).hexdigest()[:24] if token else ""
    return SessionKey(user, endpoint.identity, digest)


class Connection:
    """One initialised session on one endpoint, for one person and token."""

    def __init__(self, endpoint: Endpoint, timeout: float) -> None:
        self.endpoint = endpoint
        self.wire = Wire()
        self.session: ClientSession | None = None
        self.failure: BaseException | None = None
        self.last_used = time.monotonic()
        self._timeout = timeout
        register_secret(endpoint.token)  # whatever the SDKs log about this connection, masked
        self._ready = asyncio.Event()
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def __repr__(self) -> str:
        return f"Connection({self.endpoint.kind} {self.endpoint.label}, alive={self.alive})"

    @property
    def alive(self) -> bool:
        """Open, initialised, and its transport has not ended."""
        return (
            self.session is not None
            and self._task is not None
            and not self._task.done()
            and not self.wire.closed.is_set()
            and not self._writer_lost
        )

    @property
    def limits_seen(self) -> int:
        """How many 429s this connection has seen (a mark to compare with later)."""
        return sum(1 for status, _ in self.wire.statuses if status == _TOO_MANY)

    @property
    def _writer_lost(self) -> bool:
        # The SSE client stops sending for good once one of its POSTs is refused.
        return self.endpoint.kind == "sse" and self.wire.limited.is_set()

    async def open(self) -> None:
        """Connect and initialise; raise a coded McpCallError when the server can't be used."""
        self._task = asyncio.create_task(self._hold())
        ready = asyncio.create_task(self._ready.wait())
        limited = asyncio.create_task(self.wire.limited.wait())  # an SSE 429 is never answered
        await asyncio.wait(
            {self._task, ready, limited},
            timeout=self._timeout,
            return_when=asyncio.FIRST_COMPLETED,
        )
        ready.cancel()
        limited.cancel()
        if not self.alive:
            timed_out = not self._task.done()
            await self.close()
            if self.limits_seen:
                raise self.rate_limited(str(_leaf(self.failure) or ""))
            raise self.failed("connecting", error=self.failure, timed_out=timed_out)

    async def request(
        self, work: Callable[[ClientSession], Coroutine[Any, Any, T]], timeout: float, doing: str
    ) -> T:
        """Run `work` on the session; a transport that ends meanwhile fails it at once."""
        assert self.session is not None and self._task is not None
        self.last_used = time.monotonic()
        job: asyncio.Task[T] = asyncio.create_task(work(self.session))
        ended = asyncio.create_task(self.wire.closed.wait())
        # A refused SSE POST is never answered: the 429 itself ends the wait.
        limited = asyncio.create_task(self.wire.limited.wait())
        watched = {job, self._task, ended} | ({limited} if self.endpoint.kind == "sse" else set())
        try:
            await asyncio.wait(watched, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        finally:
            ended.cancel()
            limited.cancel()
        if not job.done() and self._writer_lost:
            job.cancel()
            raise self.rate_limited()
        if job.done():
            error = job.exception()
            if isinstance(error, MCPError) and error.error.code == CONNECTION_CLOSED:
                raise self.lost(doing)
            return job.result()
        job.cancel()
        if self._task.done() or self.wire.closed.is_set():
            raise self.lost(doing)
        raise self.failed(doing, timed_out=True)

    async def close(self) -> None:
        """End the session (and a stdio server's process)."""
        self._stop.set()
        if self._task is not None and not self._ready.is_set():
            self._task.cancel()  # still connecting: nothing waits for the stop signal yet
        if self._task is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(self._task, CLOSE_TIMEOUT_SECONDS)

    def rate_limited(self, text: str = "") -> RateLimited:
        """The 429 this connection saw; the wait is its Retry-After, else the one `text`
        names, else a minute (Swiggy counts its limits per minute)."""
        wait = retry_after_value(self.wire.retry_after)
        if wait is None:
            wait = retry_after_text(text)
        if wait is None:
            wait = RATE_LIMIT_DEFAULT_WAIT_SECONDS
        endpoint = self.endpoint
        own = endpoint.named and endpoint.key not in MCP_SERVERS
        who = f"The server '{endpoint.key}'" if own else "Swiggy"
        return RateLimited(rate_limited_message(who), retry_after_seconds=wait)

    def lost(self, doing: str) -> McpCallError:
        """The transport ended during a request."""
        found = self.failed(doing, died=True)
        return ConnectionLost(
            found.message, code=found.code, status=found.status, status_text=found.status_text
        )

    def failed(
        self,
        doing: str,
        *,
        error: BaseException | None = None,
        timed_out: bool = False,
        died: bool = False,
    ) -> McpCallError:
        """The coded error for what this connection saw (a refused address, then statuses,
        then the rest)."""
        name = f"The MCP server {self.endpoint.label}"
        if self.wire.refused is not None:
            # Whatever else went wrong followed from the refusal: the address was never dialled.
            message = f"{name} cannot be used. {self.wire.refused.message}"
            return McpCallError(message, code=ErrorCode.SERVER_HOST_REFUSED)
        # A 429 is coded where it arrives (rate_limited); it never explains a later failure.
        statuses = [status for status in self.wire.statuses if status[0] != _TOO_MANY]
        refused = [status for status in statuses if status[0] in _AUTH_STATUSES]
        if refused or statuses:
            status, reason = (refused or statuses)[0]
            # Swiggy's catalogue: 401 reconnect, 403 scope too narrow, 419 session revoked.
            code = classify_tool_failure(status=status).code
            said = "refused the token" if refused else "answered"
            tail = ". Reconnect." if refused else "."
            return McpCallError(
                f"{name} {said} ({status}) while {doing}{tail}",
                code=code,
                status=status,
                status_text=f"{status} {reason}".strip(),
            )
        if self.wire.garbage:
            message = f"{name} sent something that is not MCP while {doing}."
            return McpCallError(message, code=ErrorCode.SERVER_GARBAGE)
        if timed_out:
            message = f"{name} did not answer in time while {doing}."
            return McpCallError(message, code=ErrorCode.SERVER_TIMEOUT)
        if died:
            return McpCallError(f"{name} stopped while {doing}.", code=ErrorCode.SERVER_DIED)
        return self._failed_by(error, name, doing)

    def _failed_by(self, error: BaseException | None, name: str, doing: str) -> McpCallError:
        leaf = _leaf(error)
        stdio = self.endpoint.kind == "stdio"
        if stdio and isinstance(leaf, OSError):
            reason = leaf.strerror or type(leaf).__name__
            message = f"Could not start the MCP server {self.endpoint.label}: {reason}."
            return McpCallError(message, code=ErrorCode.SERVER_UNREACHABLE)
        if isinstance(leaf, MCPError) and leaf.error.code == CONNECTION_CLOSED:
            ended = "exited" if stdio else "closed the connection"
            message = f"{name} {ended} before answering while {doing}."
            return McpCallError(message, code=ErrorCode.SERVER_UNREACHABLE)
        if isinstance(leaf, MCPError):
            if leaf.error.code in TRANSPORT_CODES:
                message = f"{name} stopped answering while {doing}: {leaf.error.message}."
                return McpCallError(message, code=ErrorCode.SERVER_DIED)
            code = classify_tool_failure(rpc_code=leaf.error.code).code
            return McpCallError(f"{name} failed while {doing}: {leaf.error.message}.", code=code)
        if isinstance(leaf, ValidationError | ValueError):
            message = f"{name} sent something that is not MCP while {doing}."
            return McpCallError(message, code=ErrorCode.SERVER_GARBAGE)
        if isinstance(leaf, httpx2.TimeoutException):
            message = f"{name} did not answer in time while {doing}."
            return McpCallError(message, code=ErrorCode.SERVER_TIMEOUT)
        where = f"the MCP server {self.endpoint.label}"
        return McpCallError(
            f"Could not reach {where} while {doing}.", code=ErrorCode.SERVER_UNREACHABLE
        )

    async def _hold(self) -> None:
        try:
            async with mcp_client(self.endpoint, self.wire, self._timeout) as client:
                self.session = client.session  # initialised on entry
                self._ready.set()
                await _first(self._stop.wait(), self.wire.closed.wait())
        except Exception as error:  # kept, not raised: nobody awaits this task's result
            self.failure = error
        finally:
            self.session = None


async def _first(*waits: Coroutine[Any, Any, Any]) -> None:
    tasks = [asyncio.create_task(wait) for wait in waits]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()


def _leaf(error: BaseException | None) -> BaseException | None:
    """The first real error inside (possibly nested) exception groups."""
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    return error
