"""Registered apps of the sandbox authorization server, as Swiggy treats them.

Every registration gets the same public client id (`swiggy-mcp`), whatever is sent; the
redirect URIs it names are remembered and a redirect URI must match one exactly, except
that a loopback URI may use any port (RFC 8252). Swiggy's documented loopback URIs are
allowed from the start. Apps named in `blocked` are refused as not allow-listed.
"""

from __future__ import annotations

import threading
from collections.abc import Collection, Mapping
from typing import Any
from urllib.parse import SplitResult, urlsplit

from swiggy_core.constants import (
    OAUTH_CALLBACK_PATH,
    OAUTH_LOOPBACK_HOSTS,
    OAUTH_SHARED_CLIENT_ID,
)

# Swiggy's manifest allow-list (the loopback entries): each host, bare and with the callback.
DOCUMENTED_REDIRECT_URIS = tuple(
    f"http://{host}{path}" for host in OAUTH_LOOPBACK_HOSTS for path in ("", OAUTH_CALLBACK_PATH)
)


class RegistrationError(ValueError):
    """A registration request the server refuses (RFC 7591 error code + description)."""

    def __init__(self, error: str, description: str) -> None:
        super().__init__(description)
        self.error = error
        self.description = description


class ClientDirectory:
    """Known client ids, their redirect URIs and app names; thread-safe."""

    def __init__(self, blocked: Collection[str] = ()) -> None:
        self.blocked = frozenset(blocked)
        self._lock = threading.Lock()
        # (redirect URI, app name) pairs of every registration, newest last.
        self._registered: list[tuple[str, str]] = [
            (uri, OAUTH_SHARED_CLIENT_ID) for uri in DOCUMENTED_REDIRECT_URIS
        ]

    def register(self, request: Mapping[str, Any]) -> dict[str, Any]:
        """Remember a registration; the answer always carries the shared client id."""
        uris = request.get("redirect_uris")
        if not isinstance(uris, list) or not uris or not all(isinstance(u, str) for u in uris):
            raise RegistrationError("invalid_redirect_uri", "redirect_uris must list URIs")
        for uri in uris:
            if not _acceptable(uri):
                raise RegistrationError(
                    "invalid_redirect_uri", "redirect URIs must be https or http://localhost"
                )
        name = request.get("client_name")
        app_name = name.strip()[:80] if isinstance(name, str) and name.strip() else "This app"
        with self._lock:
            self._registered.extend((uri, app_name) for uri in uris)
        return {
            "client_id": OAUTH_SHARED_CLIENT_ID,
            "client_name": app_name,
            "redirect_uris": uris,
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "token_endpoint_auth_method": "none",
        }

    def known(self, client_id: str) -> bool:
        return client_id == OAUTH_SHARED_CLIENT_ID or client_id in self.blocked

    def app_name(self, client_id: str, redirect_uri: str) -> str | None:
        """The app registered with this redirect URI, or None when it is not allowed."""
        with self._lock:
            names = [name for uri, name in self._registered if redirect_matches(uri, redirect_uri)]
        if not names:
            return None
        # A blocked client id of its own is known by that id only.
        return client_id if client_id in self.blocked else names[-1]

    def is_blocked(self, client_id: str, app_name: str) -> bool:
        return client_id in self.blocked or app_name in self.blocked


def redirect_matches(registered: str, given: str) -> bool:
    """Exact match, except that loopback http URIs may differ in port (RFC 8252 §7.3)."""
    if registered == given:
        return True
    a, b = _split(registered), _split(given)
    if a is None or b is None:
        return False
    return (
        a.scheme == b.scheme == "http"
        and a.hostname in OAUTH_LOOPBACK_HOSTS
        and a.hostname == b.hostname
        and (a.path or "/") == (b.path or "/")
        and a.query == b.query
        and not b.fragment
        and not b.username
    )


def _acceptable(uri: str) -> bool:
    parts = _split(uri)
    if parts is None or parts.fragment or not parts.hostname:
        return False
    return parts.scheme == "https" or (
        parts.scheme == "http" and parts.hostname in OAUTH_LOOPBACK_HOSTS
    )


def _split(uri: str) -> SplitResult | None:
    """The parts of a URI, or None when it is malformed (a bad port included)."""
    try:
        parts = urlsplit(uri)
        parts.port  # noqa: B018 - raises ValueError for a malformed port
    except ValueError:
        return None
    return parts
