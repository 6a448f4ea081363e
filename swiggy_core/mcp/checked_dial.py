"""The HTTP client for a person's server: it dials only addresses `egress` allows.

httpcore hands its network backend the URL's host and port. This backend resolves the host
itself, checks every address (`swiggy_core.mcp.egress`) and connects to a checked one, so
a name cannot answer one address to the check and another to the connect (DNS rebinding).
TLS still names the URL's host (httpcore passes it to `start_tls`) and the Host header is
built from the URL, so only the socket's peer is pinned. Every connection the client
opens, a followed redirect's included, comes through here: nothing is sent to a refused
address, not even a TCP handshake.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import anyio.to_thread
import httpcore2
import httpx2

from swiggy_core.mcp.egress import HostRefused, Resolver, dial_addresses, system_resolver

__all__ = ["CheckedNetwork", "checked_client"]

OnRefused = Callable[[HostRefused], None]
SocketOption = Any  # httpcore's SOCKET_OPTION union, passed through untouched
_LIMITS = httpx2.Limits(max_connections=100, max_keepalive_connections=20)  # httpx2's own


class CheckedNetwork(httpcore2.AsyncNetworkBackend):
    """A network backend that connects only to addresses a person's server may use.

    `inner` does the actual connecting (httpcore's own backend unless a test maps the
    checked addresses elsewhere); `on_refused` hears every refusal before it is raised,
    so the caller can code the failure whatever the layers above make of the exception.
    """

    def __init__(
        self,
        *,
        resolver: Resolver = system_resolver,
        inner: httpcore2.AsyncNetworkBackend | None = None,
        on_refused: OnRefused | None = None,
    ) -> None:
        self._resolver = resolver
        self._inner = inner or httpcore2.AnyIOBackend()
        self._on_refused = on_refused

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[SocketOption] | None = None,
    ) -> httpcore2.AsyncNetworkStream:
        addresses = await self._addresses(host)
        failure: httpcore2.ConnectError | None = None
        for address in addresses:
            try:
                return await self._inner.connect_tcp(
                    address,
                    port,
                    timeout=timeout,
                    local_address=local_address,
                    socket_options=socket_options,
                )
            except httpcore2.ConnectError as error:
                failure = error
        assert failure is not None  # dial_addresses never returns an empty list
        raise failure

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[SocketOption] | None = None,
    ) -> httpcore2.AsyncNetworkStream:
        raise httpcore2.ConnectError("a person's server is reached over TCP only")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)

    async def _addresses(self, host: str) -> list[str]:
        try:
            # getaddrinfo blocks; a lookup that outlives a cancelled connect is abandoned.
            return await anyio.to_thread.run_sync(
                dial_addresses, host, self._resolver, abandon_on_cancel=True
            )
        except HostRefused as refusal:
            if self._on_refused is not None:
                self._on_refused(refusal)
            raise
        except OSError as error:
            raise httpcore2.ConnectError(f"could not resolve {host}") from error


class _CheckedTransport(httpx2.AsyncHTTPTransport):
    """httpx2's transport over a pool that uses `network` (httpx2 has no argument for it)."""

    def __init__(self, network: CheckedNetwork) -> None:
        super().__init__()
        # Fail closed: if httpx2 ever keeps its pool elsewhere, the unchecked default pool
        # would quietly do the dialling, so refuse to build a client at all.
        if not isinstance(getattr(self, "_pool", None), httpcore2.AsyncConnectionPool):
            raise RuntimeError("httpx2's transport changed: cannot check a server's address")
        self._pool = httpcore2.AsyncConnectionPool(
            ssl_context=httpx2.create_ssl_context(),
            max_connections=_LIMITS.max_connections,
            max_keepalive_connections=_LIMITS.max_keepalive_connections,
            keepalive_expiry=_LIMITS.keepalive_expiry,
            network_backend=network,
        )


def checked_client(network: CheckedNetwork, **options: Any) -> httpx2.AsyncClient:
    """An `httpx2.AsyncClient` (same `options`) whose every connection goes through `network`.

    A client with its own transport ignores proxy settings from the environment: a proxy
    would do the dialling, and the check would then judge the proxy instead of the server.
    """
    return httpx2.AsyncClient(transport=_CheckedTransport(network), **options)
