"""MCP sessions the app owns: opened once, listed once, called many times, any transport.

Every session lives on the shared background loop (`swiggy_core.mcp.loop`), held open by
its own task (`swiggy_core.mcp.connection`) in a pool that decides when one is reused,
reopened or retried (`swiggy_core.mcp.session_pool`). Sessions and listings are keyed by
person, server and a digest of the token, so people never share one and the token itself
appears in no key, log, exception or repr. Servers are reached over Streamable HTTP, SSE,
stdio or in memory (`swiggy_core.mcp.transports`).
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import threading
import time
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from mcp import ClientSession, types
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel

from swiggy_core.constants import LARGE_RESULT_CHARS
from swiggy_core.conversation import reduce_for_model
from swiggy_core.errors import ErrorCode
from swiggy_core.mcp.client import (
    McpCallError,
    RateLimited,
    ToolCallResult,
    ToolOutput,
    listed_tool,
    result_text,
    structured_of,
)
from swiggy_core.mcp.connection import (
    CLOSE_TIMEOUT_SECONDS,
    TRANSPORT_CODES,
    SessionKey,
    session_key,
)
from swiggy_core.mcp.loop import run_sync
from swiggy_core.mcp.media import media_parts, without_mirror
from swiggy_core.mcp.session_pool import SessionPool
from swiggy_core.mcp.transports import Endpoint, ServerTarget, endpoint_for, resolve_url
from swiggy_core.retry_after import try_again_text

T = TypeVar("T")
R = TypeVar("R", bound=BaseModel)
LISTING_TTL_SECONDS = 300.0
IDLE_SECONDS = 600.0
CALL_TIMEOUT_SECONDS = 30.0
# Results above this many characters are reduced for the model (the cards keep the full text).
MODEL_RESULT_LIMIT = LARGE_RESULT_CHARS
# Re-exported: callers import the result type and resolve_url from here.
__all__ = ["McpManager", "ServerHealth", "ToolOutput", "resolve_url", "shared_manager"]


@dataclass(frozen=True, slots=True)
class ServerHealth:
    """Whether a server answers `tools/list`, how fast, and the coded error if not."""

    ok: bool
    tool_count: int = 0
    latency_ms: float = 0.0
    error: str | None = None
    code: str | None = None  # the error's code ("E-3202"), None when ok


def shrink_for_model(text: str, arguments: Mapping[str, Any] | None = None) -> str:
    """`text` reduced by importance to MODEL_RESULT_LIMIT (JSON stays JSON); list items
    naming the call's query are kept first."""
    args = arguments or {}
    query = args.get("query")
    if not isinstance(query, str):
        query = " ".join(v for v in args.values() if isinstance(v, str))
    return reduce_for_model(text, limit=MODEL_RESULT_LIMIT, query=query).text


class McpManager:
    """Pooled MCP sessions over any transport plus a listing cache, safe to share by threads.

    A session belongs to one (person, server, token): `user` keeps two people apart even
    when they reach the same server with the same credential.
    """

    def __init__(
        self,
        *,
        listing_ttl: float = LISTING_TTL_SECONDS,
        idle_seconds: float = IDLE_SECONDS,
        call_timeout: float = CALL_TIMEOUT_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        from swiggy_core.logsafe import install_redaction

        install_redaction()  # at DEBUG the SDKs log bearer tokens: masked even without app.py
        self.listing_ttl = listing_ttl
        self.call_timeout = call_timeout
        self._pool = SessionPool(call_timeout=call_timeout, idle_seconds=idle_seconds, clock=clock)
        self._listings: dict[SessionKey, tuple[float, list[dict[str, Any]]]] = {}
        self._cache_lock = threading.Lock()

    def __repr__(self) -> str:
        sessions = len(self._pool.connections)
        return f"McpManager(sessions={sessions}, listings={len(self._listings)})"

    def list_tools(
        self,
        server: ServerTarget,
        token: str | None = None,
        *,
        user: str = "",
        refresh: bool = False,
    ) -> list[dict[str, Any]]:
        """`[{name, description, input_schema}]` of the server, cached for `listing_ttl`."""
        endpoint = endpoint_for(server, token)
        key = session_key(user, endpoint)
        with self._cache_lock:
            cached = self._listings.get(key)
        if cached is not None and not refresh and time.monotonic() - cached[0] < self.listing_ttl:
            return [dict(tool) for tool in cached[1]]
        tools = self._run(self._list(endpoint, key, reconnect=True), self.call_timeout)
        self._remember(key, tools)
        return [dict(tool) for tool in tools]

    def call_tool(
        self,
        server: ServerTarget,
        token: str | None,
        name: str,
        arguments: Mapping[str, Any],
        *,
        user: str = "",
        timeout: float | None = None,
    ) -> ToolOutput:
        """Call one tool; a refused, dead, slow or garbled server raises a coded McpCallError."""
        endpoint = endpoint_for(server, token)
        wait = timeout or self.call_timeout
        return self._run(
            self._call(endpoint, session_key(user, endpoint), name, dict(arguments), wait), wait
        )

    def send_request(
        self,
        server: ServerTarget,
        token: str | None,
        request: types.ClientRequest,
        result_type: type[R],
        *,
        user: str = "",
        timeout: float | None = None,
        idempotent: bool = False,
    ) -> R:
        """Send one raw request on the pooled session and return its typed result.

        Nothing is validated against a listing (a pinned listing means none was asked for).
        A JSON-RPC error the server answers is raised as the SDK's `MCPError`; transport
        failures are coded McpCallErrors.
        """
        endpoint = endpoint_for(server, token)
        wait = timeout or self.call_timeout

        async def send(session: ClientSession) -> R | MCPError:
            try:
                return await session.send_request(request, result_type)
            except MCPError as error:
                if error.error.code in TRANSPORT_CODES:
                    raise  # the connection failed: coded, and the session is replaced
                return error  # the server's answer: the session stays

        doing = f"sending {request.method}"
        key = session_key(user, endpoint)
        answer = self._run(self._pool.run(endpoint, key, send, doing, wait, idempotent), wait)
        if isinstance(answer, MCPError):
            raise answer
        return answer

    def health(
        self, server: ServerTarget, token: str | None = None, *, user: str = ""
    ) -> ServerHealth:
        """List the tools afresh and time it; a failure is reported with its code, not raised.

        A session whose transport has ended is reported down (and dropped, so the next call
        reconnects) rather than silently reopened.
        """
        started = time.monotonic()
        try:
            endpoint = endpoint_for(server, token)
            key = session_key(user, endpoint)
            tools = self._run(self._list(endpoint, key, reconnect=False), self.call_timeout)
        except RateLimited as error:  # its text for the model says what not to call
            said = f"{error.message} {try_again_text(error.retry_after_seconds)}"
            return ServerHealth(ok=False, error=said, code=str(error.code))
        except McpCallError as error:
            return ServerHealth(ok=False, error=str(error), code=str(error.code))
        self._remember(key, tools)
        latency = (time.monotonic() - started) * 1000
        return ServerHealth(ok=True, tool_count=len(tools), latency_ms=round(latency, 1))

    def close(self) -> None:
        """Close every session and stop every stdio server (a later call opens new ones)."""
        self._run(self._pool.close_all(), CLOSE_TIMEOUT_SECONDS)
        with self._cache_lock:
            self._listings.clear()

    def _remember(self, key: SessionKey, tools: list[dict[str, Any]]) -> None:
        with self._cache_lock:
            self._listings[key] = (time.monotonic(), tools)

    def _run(self, coroutine: Coroutine[Any, Any, T], wait: float) -> T:
        try:
            # The coroutine bounds itself; this outer wait only guards against a stuck loop.
            return run_sync(coroutine, wait + self.call_timeout + 2 * CLOSE_TIMEOUT_SECONDS)
        except TimeoutError:
            raise McpCallError(
                "The MCP server did not answer in time.", code=ErrorCode.SERVER_TIMEOUT
            ) from None

    async def _list(
        self, endpoint: Endpoint, key: SessionKey, *, reconnect: bool
    ) -> list[dict[str, Any]]:
        async def listing(session: ClientSession) -> list[dict[str, Any]]:
            result = await session.list_tools()
            return [listed_tool(tool) for tool in result.tools]

        wait = self.call_timeout
        return await self._pool.run(
            endpoint, key, listing, "listing tools", wait, idempotent=reconnect, reopen=reconnect
        )

    async def _call(
        self, endpoint: Endpoint, key: SessionKey, name: str, args: dict[str, Any], wait: float
    ) -> ToolOutput:
        async def call(session: ClientSession) -> ToolOutput:
            try:
                result = await session.call_tool(name, args)
            except MCPError as error:
                if error.error.code in TRANSPORT_CODES:
                    raise  # the connection failed, not the tool
                return ToolOutput(error.error.message, True)
            except RuntimeError as error:  # a result that breaks its declared output schema
                return ToolOutput(str(error), True)
            structured, media = structured_of(result), media_parts(result)
            if media:  # a mirror of the content would carry each image's base64 as text
                structured = without_mirror(structured)
            text = result_text(result, structured if media else result.structured_content)
            return ToolOutput(text, bool(result.is_error), structured, media)

        return await self._pool.run(endpoint, key, call, f"calling {name}", wait)


_shared: McpManager | None = None
_shared_lock = threading.Lock()


def shared_manager() -> McpManager:
    """The process-wide manager (sessions are per person and token, so sharing it is safe)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = McpManager()
            atexit.register(_close_shared)
        return _shared


def _close_shared() -> None:
    """At exit: close every session and stop every stdio server the app started."""
    with _shared_lock:
        manager = _shared
    if manager is not None:
        # Servers that stopped before the app cannot be told goodbye; that is no news.
        logging.getLogger("mcp.client.streamable_http").setLevel(logging.ERROR)
        with contextlib.suppress(Exception):
            manager.close()


def call_tool(url: str, token: str, name: str, arguments: dict[str, Any]) -> ToolCallResult:
    """Call one tool through the shared manager (pooled session); errors are McpCallError."""
    output = shared_manager().call_tool(url, token, name, arguments)
    return ToolCallResult(text=output.text, is_error=output.is_error, structured=output.structured)
