"""May this app dial this address for a person's server? Public addresses only.

A person's own MCP server is reached from the app's host, so without this check its URL
could point the app at the host itself, its private network or a cloud metadata service,
and the Servers page (status, latency, error codes) would report what it found there.

A host is refused when it is, or resolves to, an address that is not public: loopback,
link-local (169.254.169.254 included), private (RFC 1918, fc00::/7), shared CGNAT space,
unspecified, multicast, reserved or broadcast, also when written as IPv4 inside IPv6
(mapped, compatible, NAT64, 6to4) or in one of the spellings `inet_aton` accepts
(`2130706433`, `0x7f.1`, `017700000001`). Names that only ever mean the host or its
network (`localhost`, `*.localhost`, `*.internal`, `*.local`) are refused by name.
An operator can switch all of this off (`SWIGGY_ALLOW_PRIVATE_SERVERS=true`).
"""

from __future__ import annotations

import os
import re
import socket
from collections.abc import Callable
from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network, ip_address

from swiggy_core.constants import ALLOW_PRIVATE_SERVERS_ENV
from swiggy_core.errors import ErrorCode, McpServerError

__all__ = [
    "HostRefused",
    "Resolver",
    "check_host",
    "dial_addresses",
    "ip_literal",
    "private_servers_allowed",
    "refusal_reason",
    "system_resolver",
]

Resolver = Callable[[str], list[str]]
IPAddress = IPv4Address | IPv6Address

_TRUE = frozenset({"1", "true", "yes", "on"})
_CGNAT = IPv4Network("100.64.0.0/10")
_NAT64 = IPv6Network("64:ff9b::/96")
_UNIQUE_LOCAL = IPv6Network("fc00::/7")
_IPV4_PRIVATE = tuple(IPv4Network(net) for net in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"))
# Special-use names (RFC 6761, RFC 6762, ICANN's .internal) that never name a public host.
_PRIVATE_SUFFIXES = (".localhost", ".internal", ".local")
# What `socket.inet_aton` (and so getaddrinfo) reads as IPv4: one to four parts, each
# decimal, octal (leading 0) or hex (0x); anything else is a name.
_IPV4_SPELLING = re.compile(r"(0x[0-9a-f]*|[0-9]+)(\.(0x[0-9a-f]*|[0-9]+)){0,3}")

_LOOPBACK = "this app's own machine"
_LINK_LOCAL = "a link-local address, such as a cloud metadata service"
_PRIVATE = "on a private network"
_SHARED = "on a carrier's shared network"
_NOT_PUBLIC = "not public"


class HostRefused(McpServerError):
    """A person's server whose address is not public; `host` is the host as it was given."""

    code = ErrorCode.SERVER_HOST_REFUSED

    def __init__(self, host: str, reason: str) -> None:
        super().__init__(
            f"This server's address is {reason} ({host}); "
            "this app only connects your servers to public addresses."
        )
        self.host = host


def private_servers_allowed() -> bool:
    """Whether the operator lets people's servers use private addresses here."""
    return os.environ.get(ALLOW_PRIVATE_SERVERS_ENV, "").strip().lower() in _TRUE


def system_resolver(host: str) -> list[str]:
    """Every address the system resolver gives for `host` (OSError when there is none)."""
    found = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in found))


def check_host(host: str, resolver: Resolver | None = system_resolver) -> None:
    """Raise HostRefused when a person's server at `host` would reach a non-public address.

    With `resolver` None a name is judged by itself only (no lookup, for page renders);
    a name that does not resolve now passes, since every dial is checked again anyway.
    """
    if private_servers_allowed():
        return
    literal = ip_literal(host)
    if literal is not None:
        _check_address(literal, host)
        return
    _check_name(host)
    if resolver is None:
        return
    try:
        answers = resolver(_bare(host))
    except OSError:
        return
    for answer in answers:
        _check_address(_parsed(answer, host), host)


def dial_addresses(host: str, resolver: Resolver = system_resolver) -> list[str]:
    """The addresses to connect to for `host`, every one checked (HostRefused otherwise).

    A name with any non-public answer is refused as a whole: a mix of public and private
    answers is how a name gets a client to reach both. OSError when nothing resolves.
    """
    checking = not private_servers_allowed()
    literal = ip_literal(host)
    if literal is not None:
        if checking:
            _check_address(literal, host)
        return [str(literal)]
    if checking:
        _check_name(host)
    addresses = [_parsed(answer, host) for answer in resolver(_bare(host))]
    if not addresses:
        raise OSError(f"no address found for {host}")
    if checking:
        for address in addresses:
            _check_address(address, host)
    return [str(address) for address in addresses]


def ip_literal(host: str) -> IPAddress | None:
    """`host` as an IP address when it is written as one (any spelling), else None."""
    text = _bare(host)
    try:
        return ip_address(text)
    except ValueError:
        pass
    if _IPV4_SPELLING.fullmatch(text):
        try:
            return IPv4Address(socket.inet_aton(text))
        except OSError:
            return None
    return None


def refusal_reason(address: IPAddress) -> str | None:
    """Why `address` is not one a person's server may use, or None when it is public."""
    if isinstance(address, IPv6Address):
        embedded = _embedded_ipv4(address)
        if embedded is not None:
            return refusal_reason(embedded)
    if address.is_loopback:
        return _LOOPBACK
    if address.is_link_local:
        return _LINK_LOCAL
    if isinstance(address, IPv4Address) and address in _CGNAT:
        return _SHARED
    if _is_private_range(address):
        return _PRIVATE
    if address.is_unspecified or address.is_multicast or address.is_reserved:
        return _NOT_PUBLIC
    if isinstance(address, IPv6Address) and address.is_site_local:
        return _NOT_PUBLIC
    return None if address.is_global else _NOT_PUBLIC


def _check_address(address: IPAddress, host: str) -> None:
    reason = refusal_reason(address)
    if reason is not None:
        raise HostRefused(host, reason)


def _check_name(host: str) -> None:
    name = _bare(host)
    if name == "localhost" or name.endswith(".localhost"):
        raise HostRefused(host, _LOOPBACK)
    if name.endswith(_PRIVATE_SUFFIXES):
        raise HostRefused(host, _PRIVATE)


def _parsed(answer: str, host: str) -> IPAddress:
    """A resolver's answer as an address; anything unreadable is refused, not dialled."""
    try:
        return ip_address(answer)
    except ValueError:
        raise HostRefused(host, _NOT_PUBLIC) from None


def _bare(host: str) -> str:
    """The host without URL brackets or the root's trailing dot, lower-cased."""
    text = host.strip().lower()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    return text[:-1] if text.endswith(".") else text


def _embedded_ipv4(address: IPv6Address) -> IPv4Address | None:
    """The IPv4 address an IPv6 one carries (mapped, NAT64, 6to4, compatible), if any."""
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address in _NAT64:
        return IPv4Address(int(address) & 0xFFFFFFFF)
    if address.sixtofour is not None:
        return address.sixtofour
    value = int(address)
    if 1 < value <= 0xFFFFFFFF:  # IPv4-compatible (::a.b.c.d); :: and ::1 are judged as IPv6
        return IPv4Address(value)
    return None


def _is_private_range(address: IPAddress) -> bool:
    if isinstance(address, IPv4Address):
        return any(address in network for network in _IPV4_PRIVATE)
    return address in _UNIQUE_LOCAL
