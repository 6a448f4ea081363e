"""No test may send traffic beyond this machine: every socket connect in the test process
is checked, and one to an address off loopback fails the test with the address named.

The real Anthropic API and Swiggy are unreachable here anyway, but a test that tried to
reach them would hang on a timeout or, on a machine with a network, quietly pass on a real
service. Unix sockets (PostgreSQL's) and loopback (every sandbox server) are allowed.
Subprocesses are not covered: their servers are started with loopback URLs only.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterator
from typing import Any

import pytest

from swiggy_core.constants import LOOPBACK_HOSTS


class OutboundConnectBlocked(ConnectionRefusedError):
    """A test tried to connect off this machine."""


def is_loopback_address(address: Any) -> bool:
    """True for a loopback (host, port) and for anything that is not an internet address."""
    if not isinstance(address, tuple) or not address:
        return True  # a Unix socket path or an abstract name: this machine
    host = str(address[0]).split("%", 1)[0]
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host in LOOPBACK_HOSTS  # a name, not an address: only "localhost" is one


def _checked(connect: Any) -> Any:
    def guarded(sock: socket.socket, address: Any) -> Any:
        if sock.family in (socket.AF_INET, socket.AF_INET6) and not is_loopback_address(address):
            raise OutboundConnectBlocked(f"a test tried to connect off this machine: {address!r}")
        return connect(sock, address)

    return guarded


@pytest.fixture(autouse=True, scope="session")
def only_loopback() -> Iterator[None]:
    """Every test runs with off-machine connects refused (asyncio's included: it calls
    `socket.connect` on its non-blocking sockets)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(socket.socket, "connect", _checked(socket.socket.connect))
        patch.setattr(socket.socket, "connect_ex", _checked(socket.socket.connect_ex))
        yield
