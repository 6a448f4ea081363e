"""Dynamic client registration (RFC 7591) as a public client, remembered per authorization server.

Swiggy answers every registration with the same public client id (`swiggy-mcp`), whatever
name or redirect URIs are sent; registering once per server and redirect URI is enough.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from swiggy_core.constants import OAUTH_SCOPE
from swiggy_core.errors import ErrorCode, OAuthError
from swiggy_core.oauth.discovery import AuthServerMetadata
from swiggy_core.oauth.errors import server_text
from swiggy_core.oauth.web import post_json

if TYPE_CHECKING:  # the HTTP client loads with the first sign-in request, not the page
    import httpx2

_OK_STATUSES = (200, 201)


class ClientRegistry:
    """Client ids by (issuer, redirect URI); thread-safe, in memory for the process."""

    def __init__(self, client_name: str, *, client_id: str | None = None) -> None:
        self._client_name = client_name
        self._preset = client_id  # a fixed client id: registration is skipped
        self._lock = threading.Lock()
        self._ids: dict[tuple[str, str], str] = {}

    def __repr__(self) -> str:
        return f"ClientRegistry(client_name={self._client_name!r}, known={len(self._ids)})"

    def client_id_for(
        self, metadata: AuthServerMetadata, redirect_uri: str, http: httpx2.Client
    ) -> str:
        """This app's client id at the server, registering it on first use (E-5103 on failure)."""
        if self._preset:
            return self._preset
        key = (metadata.issuer, redirect_uri)
        # Held across the request: two sign-ins at once register once.
        with self._lock:
            if key not in self._ids:
                self._ids[key] = self._register(metadata, redirect_uri, http)
            return self._ids[key]

    def _register(
        self, metadata: AuthServerMetadata, redirect_uri: str, http: httpx2.Client
    ) -> str:
        if metadata.registration_endpoint is None:
            raise OAuthError(
                "Swiggy's sign-in offers no client registration; paste a token instead.",
                code=ErrorCode.OAUTH_REGISTRATION,
            )
        payload = {
            "client_name": self._client_name,
            "redirect_uris": [redirect_uri],
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "token_endpoint_auth_method": "none",
            "scope": OAUTH_SCOPE,
        }
        status, answer, reason = post_json(http, metadata.registration_endpoint, payload)
        client_id = (answer or {}).get("client_id")
        if status in _OK_STATUSES and isinstance(client_id, str) and client_id:
            return client_id
        detail = reason or server_text((answer or {}).get("error_description") or "no client id")
        raise OAuthError(
            f"Swiggy refused to register this app (HTTP {status or 'unreachable'}: {detail}).",
            code=ErrorCode.OAUTH_REGISTRATION,
        )
