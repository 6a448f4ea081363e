"""A person's server is dialled only at public addresses, checked on the address dialled.

Real loopback listeners record every TCP connection and every byte that reaches them. Names
are answered by stub resolvers, and the one "public" address is mapped onto a loopback
listener by a test network backend, so nothing here leaves 127.0.0.1 and no real name is
ever looked up.
"""

from __future__ import annotations

import functools
import socket
import threading
import uuid
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import anyio
import httpcore2
import pytest
from session_peers import Shop, finish, new_session

from swiggy_core.actions import typed_message
from swiggy_core.constants import ALLOW_PRIVATE_SERVERS_ENV
from swiggy_core.errors import ErrorCode
from swiggy_core.mcp import McpCallError, McpManager, transports
from swiggy_core.mcp.checked_dial import CheckedNetwork, checked_client
from swiggy_core.mcp.config import ResolvedServer, ServerConfig
from swiggy_core.mcp.egress import HostRefused
from swiggy_core.mcp.user_servers import save_user_server, user_servers
from swiggy_core.store import ChatStore
from swiggy_sandbox.connector import Finish

PUBLIC = "93.184.216.34"  # what the stub resolvers answer for a "public" server
ME = "u-me@sandbox"
REFUSED = str(ErrorCode.SERVER_HOST_REFUSED)


class Listener:
    """A TCP listener on 127.0.0.1 that records each connection's bytes, then answers
    `reply` (or nothing) and hangs up."""

    def __init__(self, reply: bytes = b"") -> None:
        self._socket = socket.create_server(("127.0.0.1", 0))
        self._socket.settimeout(0.2)
        self.port = int(self._socket.getsockname()[1])
        self.received: list[bytes] = []
        self._reply = reply
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                peer, _ = self._socket.accept()
            except TimeoutError:
                continue
            with peer:
                peer.settimeout(2)
                try:
                    data = peer.recv(65536)
                except OSError:
                    data = b""
                self.received.append(data)
                if self._reply:
                    peer.sendall(self._reply)

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self._socket.close()


class MappedNetwork(httpcore2.AsyncNetworkBackend):
    """Connects PUBLIC to `port` on 127.0.0.1 and loopback as itself; refuses anything else,
    so a test can reach a "public" server without any traffic leaving the machine."""

    def __init__(self, port: int) -> None:
        self._port = port
        self._real = httpcore2.AnyIOBackend()
        self.dialled: list[tuple[str, int]] = []

    async def connect_tcp(
        self, host: str, port: int, timeout: float | None = None, **options: Any
    ) -> httpcore2.AsyncNetworkStream:
        self.dialled.append((host, port))
        if host == PUBLIC:
            return await self._real.connect_tcp("127.0.0.1", self._port, timeout=timeout)
        if host in ("127.0.0.1", "::1"):
            return await self._real.connect_tcp(host, port, timeout=timeout)
        raise httpcore2.ConnectError(f"this test never leaves the machine ({host})")

    async def sleep(self, seconds: float) -> None:
        await anyio.sleep(seconds)


def answering(table: dict[str, list[str]]) -> Callable[[str], list[str]]:
    """A resolver that answers from `table` (changed in place to rebind a name)."""

    def resolve(host: str) -> list[str]:
        if host not in table:
            raise socket.gaierror(socket.EAI_NONAME, "unknown name")
        return list(table[host])

    return resolve


def redirect_to(location: str, *, close: bool = True) -> bytes:
    connection = b"Connection: close\r\n" if close else b""
    return (
        b"HTTP/1.1 307 Temporary Redirect\r\nLocation: "
        + location.encode()
        + b"\r\nContent-Length: 0\r\n"
        + connection
        + b"\r\n"
    )


@pytest.fixture
def listener() -> Iterator[Listener]:
    peer = Listener()
    yield peer
    peer.close()


@pytest.fixture
def manager() -> Iterator[McpManager]:
    pool = McpManager(call_timeout=5)
    yield pool
    pool.close()


def dial_through(
    monkeypatch: pytest.MonkeyPatch, resolver: Callable[[str], list[str]], **options: Any
) -> None:
    """Person's servers resolve names with `resolver` (and dial through `options['inner']`)."""
    network = functools.partial(CheckedNetwork, resolver=resolver, **options)
    monkeypatch.setattr(transports, "CheckedNetwork", network)


def mine(url: str, transport: str = "http") -> ServerConfig:
    return ServerConfig("mine", transport, url=url, origin="user")  # type: ignore[arg-type]


@pytest.mark.parametrize("transport", ["http", "sse"])
def test_a_person_server_on_loopback_is_refused_before_any_connection(
    manager: McpManager, listener: Listener, transport: str
) -> None:
    server = mine(f"http://127.0.0.1:{listener.port}/mcp", transport)
    health = manager.health(server, user=ME)
    assert (health.ok, health.code, health.latency_ms) == (False, REFUSED, 0.0)
    assert "this app's own machine (127.0.0.1)" in (health.error or "")
    with pytest.raises(McpCallError) as caught:
        manager.list_tools(server, user=ME)
    assert caught.value.code == ErrorCode.SERVER_HOST_REFUSED
    assert listener.received == []  # not even a TCP handshake


def test_the_same_address_is_reached_as_the_apps_server_or_with_the_operator_switch(
    manager: McpManager, listener: Listener, monkeypatch: pytest.MonkeyPatch
) -> None:
    app_server = ServerConfig("mine", "http", url=f"http://127.0.0.1:{listener.port}/mcp")
    assert manager.health(app_server, user=ME).code != REFUSED
    assert len(listener.received) == 1  # the listener does see a connection when one is made
    monkeypatch.setenv(ALLOW_PRIVATE_SERVERS_ENV, "true")
    dial_through(monkeypatch, answering({"rebind.test": ["127.0.0.1"]}))
    health = manager.health(mine(f"http://rebind.test:{listener.port}/mcp"), user=ME)
    assert health.code != REFUSED
    # Dialled at the resolved address, still speaking to the name the person gave.
    assert f"Host: rebind.test:{listener.port}".encode() in listener.received[1]


def test_a_name_rebound_to_loopback_after_it_was_added_is_refused_when_dialled(
    manager: McpManager, listener: Listener, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    answers = {"rebind.test": [PUBLIC]}
    store = ChatStore(f"sqlite:///{tmp_path / 'chats.db'}")
    try:
        url = f"https://rebind.test:{listener.port}/mcp"
        save_user_server(store, ME, mine(url), resolver=answering(answers))  # public: accepted
        answers["rebind.test"] = ["127.0.0.1"]
        dial_through(monkeypatch, answering(answers))
        server = user_servers(store, ME)["mine"]
    finally:
        store.close()
    health = manager.health(server, user=ME)
    assert (health.ok, health.code) == (False, REFUSED)
    assert "(rebind.test)" in (health.error or "") and "127.0.0.1" not in (health.error or "")
    assert listener.received == []


def test_a_redirect_to_loopback_is_refused_before_it_is_dialled(listener: Listener) -> None:
    allowed = Listener(redirect_to(f"http://127.0.0.1:{listener.port}/mcp"))
    network = MappedNetwork(allowed.port)
    refused: list[HostRefused] = []
    checked = CheckedNetwork(
        resolver=answering({"shop.test": [PUBLIC]}), inner=network, on_refused=refused.append
    )

    async def follow() -> None:
        async with checked_client(checked, follow_redirects=True) as http:
            await http.get(f"http://shop.test:{allowed.port}/start")

    try:
        with pytest.raises(HostRefused) as caught:
            anyio.run(follow)
    finally:
        allowed.close()
    assert caught.value.code == ErrorCode.SERVER_HOST_REFUSED
    assert len(allowed.received) == 1  # the allowed server was asked, and answered 307
    assert network.dialled == [(PUBLIC, allowed.port)]  # the redirect target never was
    assert refused == [caught.value]
    assert listener.received == []


def test_a_redirect_the_sdk_follows_is_checked_again_when_it_reconnects(
    manager: McpManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The server answers a same-origin redirect and hangs up; by the time the client dials
    # again its name has been rebound to loopback.
    answers = {"shop.test": [PUBLIC]}
    shop = Listener(redirect_to("/mcp/"))
    network = MappedNetwork(shop.port)

    def rebinding(host: str) -> list[str]:
        found = answering(answers)(host)
        answers["shop.test"] = ["127.0.0.1"]
        return found

    dial_through(monkeypatch, rebinding, inner=network)
    try:
        health = manager.health(mine(f"http://shop.test:{shop.port}/mcp"), user=ME)
    finally:
        shop.close()
    assert (health.ok, health.code) == (False, REFUSED)
    assert len(shop.received) == 1  # the first request only
    assert network.dialled == [(PUBLIC, shop.port)]


def test_a_refused_server_of_ones_own_is_left_out_and_audited_with_its_code(
    emu: Any, store: ChatStore, shop: Shop
) -> None:
    user = f"u-{uuid.uuid4().hex[:10]}@sandbox"
    tables = ServerConfig("tables", "http", url=shop.sandbox.url_for("dineout"), origin="user")
    session = new_session(store, shop, emu.base_url, engine="local", user_id=user)
    session.setup = replace(session.setup, extra_servers=(ResolvedServer(tables, None),))
    emu.brain.enqueue(Finish("Here is what I found."))
    finish(session.send(typed_message("where can I eat?")))
    offered = [tool["name"] for tool in emu.requests[0].body["tools"]]
    assert "search_products" in offered  # the app's own servers still work
    assert not [name for name in offered if name.startswith("tables__")]
    (entry,) = [entry for entry in store.tool_calls(user) if entry.server == "tables"]
    assert (entry.tool, entry.outcome, entry.error_code) == ("tools/list", "error", REFUSED)
