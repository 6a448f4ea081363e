"""Which URLs Sign in with Swiggy may use: loopback redirects, https (or loopback) endpoints."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from swiggy_core.constants import (
    OAUTH_CALLBACK_PATH,
    OAUTH_LOOPBACK_HOSTS,
    OAUTH_LOOPBACK_ISSUER_PATH,
    OAUTH_PINNED_ISSUERS,
)
from swiggy_core.errors import ErrorCode, OAuthError

_LOOPBACK_NAMES = "|".join(map(re.escape, OAUTH_LOOPBACK_HOSTS))
_HOST_HEADER = re.compile(rf"({_LOOPBACK_NAMES})(?::(\d{{1,5}}))?")
_MAX_PORT = 65_535
_NOT_LOOPBACK = (
    "Sign in with Swiggy needs the app on http://localhost or http://127.0.0.1: Swiggy only "
    "allows loopback redirects for apps that are not allow-listed; paste a token instead."
)


def redirect_uri_for(host_header: str, scheme: str = "http") -> str:
    """The loopback callback URL for the address the browser used to reach the app."""
    host = host_header.strip().lower()
    match = _HOST_HEADER.fullmatch(host)
    if scheme != "http" or match is None or not _port_ok(match.group(2)):
        raise OAuthError(_NOT_LOOPBACK, code=ErrorCode.OAUTH_REDIRECT_NOT_ALLOWED)
    return f"http://{host}{OAUTH_CALLBACK_PATH}"


def _port_ok(port: str | None) -> bool:
    return port is None or 0 < int(port) <= _MAX_PORT


def is_loopback_url(url: str) -> bool:
    """An http(s) URL whose host is localhost or 127.0.0.1."""
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and host in OAUTH_LOOPBACK_HOSTS


def is_allowed_endpoint(url: str) -> bool:
    """https anywhere, or http on loopback (the sandbox); nothing else is ever contacted."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    if not parts.hostname or parts.username or parts.password:
        return False
    return parts.scheme == "https" or (parts.scheme == "http" and is_loopback_url(url))


def origin_of(url: str) -> str:
    """`scheme://host[:port]` of a URL."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def pinned_issuer(server_url: str) -> str | None:
    """The issuer expected for an MCP server's host: Swiggy's `…/auth`, loopback likewise."""
    origin = origin_of(server_url)
    if origin in OAUTH_PINNED_ISSUERS:
        return OAUTH_PINNED_ISSUERS[origin]
    if is_loopback_url(server_url):
        return f"{origin}{OAUTH_LOOPBACK_ISSUER_PATH}"
    return None
