"""Where an MCP server lives and how to reach it: Streamable HTTP, SSE, stdio or in memory.

A target (a Swiggy key, a URL, a configured server, or an in-process server for tests)
becomes an `Endpoint`; `mcp_client` gives the SDK's `Client` for it, reaching a server that
is not in-process through `open_transport`, which yields the `(read, write)` streams and
records on a `Wire` what the connection saw (HTTP error statuses, lines that were not
JSON-RPC, the end of the stream) so failures can be coded. Only the SDK's public API is used.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Literal
from urllib.parse import urlsplit

import httpx2
from mcp import Client, StdioServerParameters
from mcp.client import Transport
from mcp.client.sse import sse_client
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.server.mcpserver import MCPServer
from mcp.shared.message import SessionMessage

from swiggy_core.constants import CONNECT_TIMEOUT_SECONDS, MCP_SERVERS
from swiggy_core.mcp.checked_dial import CheckedNetwork, checked_client
from swiggy_core.mcp.client import McpCallError
from swiggy_core.mcp.config import ResolvedServer, ServerConfig
from swiggy_core.mcp.egress import HostRefused

Kind = Literal["stdio", "http", "sse", "memory"]
# An SSE stream may stay quiet between answers; this is how long we wait for the next event.
SSE_READ_TIMEOUT_SECONDS = 300.0


@dataclass(frozen=True, slots=True)
class MemoryServer:
    """An in-process MCP server (tests and embedded tools), reached without any I/O."""

    key: str
    server: MCPServer = field(repr=False, compare=False)


ServerTarget = str | ServerConfig | ResolvedServer | MemoryServer


@dataclass(frozen=True, slots=True, repr=False)
class Endpoint:
    """One server as the manager reaches it; its repr shows the key and host only."""

    key: str  # the configured key, or the host for a bare URL
    kind: Kind
    url: str = ""
    headers: tuple[tuple[str, str], ...] = ()
    command: str = ""
    args: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()
    cwd: str | None = None
    named: bool = False  # a configured key (shown in messages) rather than a bare URL
    checked: bool = False  # a person's server: every address dialled must be public (egress)
    token: str | None = field(default=None, repr=False, compare=False)
    memory: MCPServer | None = field(default=None, repr=False, compare=False)

    def __repr__(self) -> str:
        return f"Endpoint({self.kind} {self.label})"

    @property
    def identity(self) -> str:
        """What makes two endpoints the same server (a changed config opens a new session)."""
        shape: list[Any] = [self.kind, self.key, self.url, self.command, list(self.args)]
        shape += [self.cwd, sorted(self.headers), sorted(self.env), id(self.memory)]
        shape += [self.checked]  # an unchecked session is never handed to a person's server
        return hashlib.sha256(json.dumps(shape, default=str).encode()).hexdigest()[:24]

    @property
    def host(self) -> str:
        """Scheme, host, port and path of the URL: no user info, no query string."""
        where = urlsplit(self.url)
        port = f":{where.port}" if where.port else ""
        return f"{where.scheme}://{where.hostname}{port}{where.path}"

    @property
    def label(self) -> str:
        """How messages name the server: its key and host, never headers or tokens."""
        if self.kind in ("http", "sse"):
            return f"'{self.key}' at {self.host}" if self.named else f"at {self.host}"
        return f"'{self.key}'"


def resolve_url(server_key_or_url: str) -> str:
    """A Swiggy server key ("instamart") becomes its URL; URLs pass through."""
    spec = MCP_SERVERS.get(server_key_or_url)
    if spec is not None:
        return spec.url
    if urlsplit(server_key_or_url).scheme in ("http", "https"):
        return server_key_or_url
    raise McpCallError(f"Unknown MCP server {server_key_or_url!r}.")


def endpoint_for(target: ServerTarget, token: str | None) -> Endpoint:
    """The endpoint of `target`; a ResolvedServer's own token is used when none is given."""
    if isinstance(target, MemoryServer):
        return Endpoint(target.key, "memory", named=True, memory=target.server)
    if isinstance(target, ResolvedServer):
        return endpoint_for(target.config, token if token is not None else target.token)
    if isinstance(target, str):
        url = resolve_url(target)
        return Endpoint(urlsplit(url).hostname or url, "http", url=url, token=token)
    if target.transport == "stdio":
        return Endpoint(
            target.key,
            "stdio",
            command=target.command,
            args=tuple(target.args),
            env=tuple(sorted(target.env.items())),
            cwd=target.cwd,
            named=True,
        )
    headers = tuple(sorted(target.headers.items()))
    return Endpoint(
        target.key,
        target.transport,
        url=target.url,
        headers=headers,
        named=True,
        checked=target.origin == "user",
        token=token,
    )


@dataclass
class Wire:
    """What one connection saw: HTTP error statuses, junk instead of JSON-RPC, its end, and
    an address it refused to dial."""

    statuses: list[tuple[int, str]] = field(default_factory=list)
    garbage: int = 0
    closed: asyncio.Event = field(default_factory=asyncio.Event)
    refused: HostRefused | None = None
    retry_after: str | None = None  # the newest 429's Retry-After header, as sent
    limited: asyncio.Event = field(default_factory=asyncio.Event)  # a 429 arrived

    def note_refused(self, refusal: HostRefused) -> None:
        """The first refusal is kept: the SDK may report it as anything, or not at all."""
        if self.refused is None:
            self.refused = refusal

    async def note_response(self, response: httpx2.Response) -> None:
        if response.status_code >= 400:
            self.statuses.append((response.status_code, response.reason_phrase))
        if response.status_code == 429:  # read where the error is coded (connection.py)
            self.retry_after = response.headers.get("retry-after")
            self.limited.set()

    async def note_message(self, message: Any) -> None:
        """ClientSession's message handler: transport faults arrive here as exceptions."""
        if isinstance(message, Exception):
            self.garbage += 1


class _WatchedReader:
    """The transport's read stream, setting `wire.closed` when it ends (the peer is gone)."""

    def __init__(self, inner: Any, wire: Wire) -> None:
        self._inner = inner
        self._wire = wire

    @property
    def last_context(self) -> Any:
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> SessionMessage | Exception:
        try:
            item: SessionMessage | Exception = await self._inner.receive()
        except Exception:
            self._wire.closed.set()
            raise
        return item

    def __aiter__(self) -> _WatchedReader:
        return self

    async def __anext__(self) -> SessionMessage | Exception:
        try:
            item: SessionMessage | Exception = await self._inner.__anext__()
        except StopAsyncIteration:
            self._wire.closed.set()
            raise
        return item

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> _WatchedReader:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._wire.closed.set()
        await self._inner.aclose()


def mcp_client(endpoint: Endpoint, wire: Wire, timeout: float) -> Client:
    """The SDK's client for `endpoint`, not yet entered: an in-process server is handed to it
    whole (the SDK alone may run it), any other is reached through `open_transport`.

    It runs the initialize handshake every 2025-era server expects (`mode="legacy"`), keeps no
    response cache (the manager caches listings itself) and reports transport faults to `wire`.
    """
    target: MCPServer | Transport
    if endpoint.memory is not None:
        target = endpoint.memory
    else:
        target = open_transport(endpoint, wire, timeout)
    return Client(target, mode="legacy", cache=None, message_handler=wire.note_message)


@asynccontextmanager
async def open_transport(
    endpoint: Endpoint, wire: Wire, timeout: float
) -> AsyncIterator[tuple[Any, Any]]:
    """The session streams for `endpoint` (not in-process); the read side is watched for its
    end."""
    async with _streams(endpoint, wire, timeout) as (read, write):
        yield _WatchedReader(read, wire), write


@asynccontextmanager
async def _streams(endpoint: Endpoint, wire: Wire, timeout: float) -> AsyncIterator[Any]:
    if endpoint.kind == "memory":
        raise ValueError("An in-process server is reached through mcp_client only.")
    if endpoint.kind == "stdio":
        # The SDK merges `env` over a minimal inherited environment (PATH, HOME, ...).
        params = StdioServerParameters(
            command=endpoint.command,
            args=list(endpoint.args),
            env=dict(endpoint.env) or None,
            cwd=endpoint.cwd,
        )
        async with stdio_client(params) as streams:
            yield streams
        return
    headers = dict(endpoint.headers)
    if endpoint.token:
        headers["Authorization"] = f"Bearer {endpoint.token}"
    client = _client_factory(endpoint, wire)
    if endpoint.kind == "sse":
        async with sse_client(
            endpoint.url,
            headers=headers,
            timeout=CONNECT_TIMEOUT_SECONDS,
            sse_read_timeout=SSE_READ_TIMEOUT_SECONDS,
            httpx_client_factory=client,
        ) as streams:
            yield streams
        return
    limits = httpx2.Timeout(timeout, connect=CONNECT_TIMEOUT_SECONDS)
    async with (
        client(headers=headers, timeout=limits) as http,
        streamable_http_client(endpoint.url, http_client=http) as streams,
    ):
        yield streams


def _client_factory(endpoint: Endpoint, wire: Wire) -> Callable[..., httpx2.AsyncClient]:
    """Builds the endpoint's HTTP clients (the SSE transport asks for its own): a person's
    server gets one that dials only public addresses and tells `wire` what it refused."""
    hooks = {"response": [wire.note_response]}

    def client(
        headers: dict[str, str] | None = None,
        timeout: httpx2.Timeout | None = None,
        auth: httpx2.Auth | None = None,
    ) -> httpx2.AsyncClient:
        if endpoint.checked:
            network = CheckedNetwork(on_refused=wire.note_refused)
            return checked_client(
                network, headers=headers, timeout=timeout, auth=auth, event_hooks=hooks
            )
        return httpx2.AsyncClient(headers=headers, timeout=timeout, auth=auth, event_hooks=hooks)

    return client
