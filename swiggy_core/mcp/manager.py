"""MCP sessions the app owns (the local engine): opened once, listed once, called many times.

Every session lives on the shared background loop (`swiggy_core.mcp.loop`), held open by
its own task because anyio scopes must be exited by the task that entered them. Sessions
and listings are keyed by URL and a digest of the token, so people never share one and
the token itself appears in no key, log, exception or repr.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import threading
import time
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeVar
from urllib.parse import urlsplit

import httpx2
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp.types import CONNECTION_CLOSED, INTERNAL_ERROR, INVALID_REQUEST

from swiggy_core.constants import CONNECT_TIMEOUT_SECONDS, MCP_SERVERS
from swiggy_core.conversation import truncate_tool_result
from swiggy_core.logsafe import mask_url_password, register_secret
from swiggy_core.mcp.client import McpCallError, stored_texts
from swiggy_core.mcp.loop import run_sync
from swiggy_core.tool_errors import classify_tool_failure

T = TypeVar("T")
LISTING_TTL_SECONDS = 300.0
IDLE_SECONDS = 600.0
CALL_TIMEOUT_SECONDS = 30.0
# Results above this many characters are shrunk for the model (the cards keep the full text).
MODEL_RESULT_LIMIT = 20_000
_AUTH_STATUSES = frozenset({401, 403, 419})
_SESSION_GONE = "Session terminated"
# JSON-RPC errors the client transport makes up when the connection (not the tool) fails.
_TRANSPORT_CODES = frozenset({CONNECTION_CLOSED, INVALID_REQUEST, INTERNAL_ERROR})


class ToolOutput(NamedTuple):
    """One tool call's full text, its error flag, and its structuredContent (if it had one)."""

    text: str
    is_error: bool
    structured: dict[str, Any] | None = None

    def texts(self) -> list[str]:
        """The stored result's text blocks: the text, then structuredContent as a JSON object."""
        return stored_texts(self.text, self.structured)

    def envelope_text(self) -> str:
        """The result as the `{success, data, message}` JSON text, whichever form it came in.

        Without structuredContent that is the text itself. structuredContent may be the whole
        envelope or only its `data` (both are seen); the latter is wrapped, the text becoming
        the message.
        """
        if self.structured is None:
            return self.text
        if "success" in self.structured:
            return json.dumps(self.structured, ensure_ascii=False)
        if self.is_error:
            envelope: dict[str, Any] = {"success": False, "error": {"message": self.text}}
        else:
            envelope = {"success": True, "data": self.structured, "message": self.text}
        return json.dumps(envelope, ensure_ascii=False)


@dataclass(frozen=True, slots=True)
class ServerHealth:
    """Whether a server answers `tools/list`, how fast, and the coded error if not."""

    ok: bool
    tool_count: int = 0
    latency_ms: float = 0.0
    error: str | None = None


def shrink_for_model(text: str, arguments: Mapping[str, Any] | None = None) -> str:
    """`text` cut to MODEL_RESULT_LIMIT, keeping what matches the call's query (JSON stays JSON)."""
    if len(text) <= MODEL_RESULT_LIMIT:
        return text
    args = arguments or {}
    query = args.get("query")
    if not isinstance(query, str):
        query = " ".join(v for v in args.values() if isinstance(v, str))
    return truncate_tool_result(text, query=query, limit=MODEL_RESULT_LIMIT)


def resolve_url(server_key_or_url: str) -> str:
    """A Swiggy server key ("instamart") becomes its URL; URLs pass through."""
    spec = MCP_SERVERS.get(server_key_or_url)
    if spec is not None:
        return spec.url
    if urlsplit(server_key_or_url).scheme in ("http", "https"):
        return server_key_or_url
    raise McpCallError(f"Unknown MCP server {server_key_or_url!r}.")


class _Connection:
    """One initialised session, kept open by a task that waits until it is told to close."""

    def __init__(self, url: str, token: str | None, timeout: float) -> None:
        self.url = url
        self._timeout = timeout
        register_secret(token)  # whatever the SDKs log about this connection, masked
        self._headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.session: ClientSession | None = None
        self.statuses: list[int] = []
        self.failure: BaseException | None = None
        self.last_used = time.monotonic()
        self._ready = asyncio.Event()
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def __repr__(self) -> str:
        return f"_Connection(url={mask_url_password(self.url)!r}, alive={self.alive})"

    @property
    def alive(self) -> bool:
        return self.session is not None and self._task is not None and not self._task.done()

    async def open(self) -> None:
        """Connect and initialise; raise McpCallError when the server can't be used."""
        self._task = asyncio.create_task(self._hold())
        ready = asyncio.create_task(self._ready.wait())
        pending = {self._task, ready}
        await asyncio.wait(pending, timeout=self._timeout, return_when=asyncio.FIRST_COMPLETED)
        ready.cancel()
        if not self.alive:
            await self.close()
            raise self.error("connecting", timed_out=self.failure is None)

    async def request(
        self, work: Callable[[ClientSession], Coroutine[Any, Any, T]], timeout: float
    ) -> T:
        """Run `work` on the session; a transport that dies meanwhile fails it at once."""
        assert self.session is not None and self._task is not None
        self.last_used = time.monotonic()
        job: asyncio.Task[T] = asyncio.create_task(work(self.session))
        await asyncio.wait({job, self._task}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if job.done():
            return job.result()
        job.cancel()
        raise self.error("waiting for an answer", timed_out=not self._task.done())

    async def close(self) -> None:
        self._stop.set()
        if self._task is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(self._task, CONNECT_TIMEOUT_SECONDS)

    def error(self, doing: str, *, timed_out: bool = False, detail: str = "") -> McpCallError:
        """A coded error naming the host only (never headers, which hold the token)."""
        where = urlsplit(self.url)  # host and port only: no user info, no query string
        port = f":{where.port}" if where.port else ""
        host = f"{where.scheme}://{where.hostname}{port}{where.path}"
        refused = [status for status in self.statuses if status in _AUTH_STATUSES]
        if refused:
            # Swiggy's catalogue: 401 reconnect, 403 scope too narrow, 419 session revoked.
            code = classify_tool_failure(status=refused[0]).code
            message = f"The MCP server at {host} refused the token ({refused[0]}) "
            return McpCallError(f"{message}while {doing}. Reconnect.", code=code)
        if self.statuses:
            status = self.statuses[0]
            message = f"The MCP server at {host} answered {status} while {doing}"
            code = classify_tool_failure(status=status).code
            return McpCallError(f"{message}: {detail}." if detail else f"{message}.", code=code)
        elif timed_out:
            message = f"The MCP server at {host} did not answer in time while {doing}"
        else:
            message = f"Could not reach the MCP server at {host} while {doing}"
        return McpCallError(f"{message}: {detail}." if detail else f"{message}.")

    async def _hold(self) -> None:
        async def note(response: httpx2.Response) -> None:
            if response.status_code >= 400:
                self.statuses.append(response.status_code)

        timeout = httpx2.Timeout(self._timeout, connect=CONNECT_TIMEOUT_SECONDS)
        hooks = {"response": [note]}
        try:
            async with (
                httpx2.AsyncClient(headers=self._headers, timeout=timeout, event_hooks=hooks) as h,
                streamable_http_client(self.url, http_client=h) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                self.session = session
                self._ready.set()
                await self._stop.wait()
        except Exception as error:  # kept, not raised: nobody awaits this task's result
            self.failure = error
        finally:
            self.session = None


class McpManager:
    """Pooled MCP sessions plus a short-lived tool-listing cache, safe to share by threads."""

    def __init__(
        self,
        *,
        listing_ttl: float = LISTING_TTL_SECONDS,
        idle_seconds: float = IDLE_SECONDS,
        call_timeout: float = CALL_TIMEOUT_SECONDS,
    ) -> None:
        self.listing_ttl = listing_ttl
        self.idle_seconds = idle_seconds
        self.call_timeout = call_timeout
        self._connections: dict[tuple[str, str], _Connection] = {}  # touched on the loop only
        self._listings: dict[tuple[str, str], tuple[float, list[dict[str, Any]]]] = {}
        self._cache_lock = threading.Lock()
        self._open_lock: asyncio.Lock | None = None

    def __repr__(self) -> str:
        return f"McpManager(sessions={len(self._connections)}, listings={len(self._listings)})"

    def list_tools(
        self, server: str, token: str | None, *, refresh: bool = False
    ) -> list[dict[str, Any]]:
        """`[{name, description, input_schema}]` of the server, cached for `listing_ttl`."""
        url = resolve_url(server)
        key = _key(url, token)
        with self._cache_lock:
            cached = self._listings.get(key)
        if cached is not None and not refresh and time.monotonic() - cached[0] < self.listing_ttl:
            return [dict(tool) for tool in cached[1]]
        tools = self._run(self._list(url, token))
        with self._cache_lock:
            self._listings[key] = (time.monotonic(), tools)
        return [dict(tool) for tool in tools]

    def call_tool(
        self, server: str, token: str | None, name: str, arguments: Mapping[str, Any]
    ) -> ToolOutput:
        """Call one tool; a refused or unreachable server raises a coded McpCallError."""
        return self._run(self._call(resolve_url(server), token, name, dict(arguments)))

    def health(self, server: str, token: str | None) -> ServerHealth:
        """List the tools afresh and time it; failures become a coded message, not a raise."""
        started = time.monotonic()
        try:
            tools = self.list_tools(server, token, refresh=True)
        except McpCallError as error:
            return ServerHealth(ok=False, error=str(error))
        latency = (time.monotonic() - started) * 1000
        return ServerHealth(ok=True, tool_count=len(tools), latency_ms=round(latency, 1))

    def close(self) -> None:
        """Close every session (a later call opens new ones)."""
        self._run(self._close_all())
        with self._cache_lock:
            self._listings.clear()

    def _run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        try:
            # The coroutine bounds itself; this outer wait only guards against a stuck loop.
            return run_sync(coroutine, self.call_timeout + 2 * CONNECT_TIMEOUT_SECONDS)
        except TimeoutError:
            raise McpCallError("The MCP server did not answer in time.") from None

    async def _list(self, url: str, token: str | None) -> list[dict[str, Any]]:
        async def listing(session: ClientSession) -> list[dict[str, Any]]:
            result = await session.list_tools()
            return [_listed(tool) for tool in result.tools]

        return await self._with_session(url, token, listing, "listing tools", idempotent=True)

    async def _call(
        self, url: str, token: str | None, name: str, args: dict[str, Any]
    ) -> ToolOutput:
        async def call(session: ClientSession) -> ToolOutput:
            try:
                result = await session.call_tool(name, args)
            except MCPError as error:
                if error.error.code in _TRANSPORT_CODES:
                    raise  # the connection failed, not the tool
                return ToolOutput(error.error.message, True)
            except RuntimeError as error:  # a result that breaks its declared output schema
                return ToolOutput(str(error), True)
            return ToolOutput(_result_text(result), bool(result.is_error), _structured(result))

        return await self._with_session(url, token, call, f"calling {name}")

    async def _with_session(
        self,
        url: str,
        token: str | None,
        work: Callable[[ClientSession], Coroutine[Any, Any, T]],
        doing: str,
        *,
        idempotent: bool = False,
    ) -> T:
        """Run `work` on the pooled session; reconnect once when that cannot repeat an action."""
        key = _key(url, token)
        for attempt in range(2):
            connection = await self._connection(key, url, token)
            try:
                return await connection.request(work, self.call_timeout)
            except MCPError as error:
                await self._drop(key)
                # A forgotten session was refused before anything ran; a closed connection
                # may have run the call already, so only idempotent work is sent again.
                forgotten = error.error.message == _SESSION_GONE
                if attempt or not (forgotten or idempotent):
                    detail = "" if connection.statuses else error.error.message
                    raise connection.error(doing, detail=detail) from None
            except McpCallError:
                await self._drop(key)
                raise
            except Exception:
                await self._drop(key)
                raise connection.error(doing) from None
        raise AssertionError("unreachable")

    async def _connection(self, key: tuple[str, str], url: str, token: str | None) -> _Connection:
        await self._close_idle()
        existing = self._connections.get(key)
        if existing is not None and existing.alive:
            return existing
        if self._open_lock is None:
            self._open_lock = asyncio.Lock()
        # Swiggy asks clients to initialise its servers one after another, never at once.
        async with self._open_lock:
            existing = self._connections.get(key)
            if existing is not None and existing.alive:
                return existing
            await self._drop(key)
            connection = _Connection(url, token, self.call_timeout)
            await connection.open()
            self._connections[key] = connection
            return connection

    async def _close_idle(self) -> None:
        cutoff = time.monotonic() - self.idle_seconds
        for key in [k for k, c in self._connections.items() if c.last_used < cutoff]:
            await self._drop(key)

    async def _drop(self, key: tuple[str, str]) -> None:
        connection = self._connections.pop(key, None)
        if connection is not None:
            await connection.close()

    async def _close_all(self) -> None:
        for key in list(self._connections):
            await self._drop(key)


def _key(url: str, token: str | None) -> tuple[str, str]:
    digest = hashlib.sha256(token.encode()).hexdigest()[:24] if token else ""
    return url, digest


def _listed(tool: Any) -> dict[str, Any]:
    return {
        "name": tool.name,
        "description": tool.description or "",
        "input_schema": dict(tool.input_schema or {"type": "object"}),
    }


def _result_text(result: Any) -> str:
    parts = [
        part.text
        if getattr(part, "type", None) == "text"
        else json.dumps(part.model_dump(mode="json", exclude_none=True))
        for part in result.content
    ]
    text = "".join(parts)
    if not text and result.structured_content is not None:
        text = json.dumps(result.structured_content)
    return text


def _structured(result: Any) -> dict[str, Any] | None:
    structured = result.structured_content
    return dict(structured) if isinstance(structured, dict) else None


_shared: McpManager | None = None
_shared_lock = threading.Lock()


def shared_manager() -> McpManager:
    """The process-wide manager (sessions are per token, so sharing it is safe)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = McpManager()
        return _shared
