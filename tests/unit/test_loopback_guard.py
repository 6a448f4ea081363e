"""The suite's guard: a connect off this machine fails at once, loopback still works."""

from __future__ import annotations

import asyncio
import socket

import httpx2
import pytest
from loopback_guard import OutboundConnectBlocked, is_loopback_address

OFF_MACHINE = ("10.255.255.1", 443)  # private and unroutable here: never reached


def test_addresses_that_count_as_this_machine() -> None:
    assert is_loopback_address(("127.0.0.1", 80)) and is_loopback_address(("::1", 80, 0, 0))
    assert is_loopback_address(("127.3.4.5", 80)) and is_loopback_address("/tmp/.s.PGSQL.5432")
    assert not is_loopback_address(OFF_MACHINE)
    assert not is_loopback_address(("api.anthropic.com", 443))


def test_a_blocking_connect_off_the_machine_is_refused() -> None:
    with socket.socket() as sock, pytest.raises(OutboundConnectBlocked, match=r"10\.255\.255\.1"):
        sock.connect(OFF_MACHINE)


def test_an_http_client_off_the_machine_is_refused_and_loopback_is_not() -> None:
    with pytest.raises(httpx2.ConnectError, match="off this machine"):
        httpx2.get("https://10.255.255.1/", timeout=5)
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        with socket.create_connection(server.getsockname(), timeout=5):
            pass


def test_an_asyncio_connect_off_the_machine_is_refused() -> None:
    async def connect() -> None:
        await asyncio.wait_for(asyncio.open_connection(*OFF_MACHINE), 5)

    with pytest.raises(OSError, match="off this machine"):
        asyncio.run(connect())
