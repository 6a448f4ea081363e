"""`SignInService`: start a sign-in, finish it from the callback, refresh, revoke.

One per process is fine: pending authorisations are keyed by `state` and each is bound to
the user who started it, its redirect URI and its server URLs; it expires after ten minutes
and can be finished once. A failure raises OAuthError (E-51xx) and never returns a token.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from swiggy_core.constants import (
    OAUTH_CLIENT_NAME,
    OAUTH_HTTP_TIMEOUT_SECONDS,
    OAUTH_PENDING_TTL_SECONDS,
)
from swiggy_core.errors import ErrorCode, OAuthError
from swiggy_core.logsafe import register_secret
from swiggy_core.oauth import exchange
from swiggy_core.oauth.discovery import AuthServerMetadata, discover
from swiggy_core.oauth.errors import server_text
from swiggy_core.oauth.pending import MemoryPendingStore, PendingAuthorization, PendingStore
from swiggy_core.oauth.pkce import new_state, new_verifier
from swiggy_core.oauth.registration import ClientRegistry
from swiggy_core.oauth.token import SwiggyToken, utc_now
from swiggy_core.oauth.urls import is_allowed_endpoint, origin_of, pinned_issuer
from swiggy_core.oauth.web import new_client

if TYPE_CHECKING:  # the HTTP client loads with the first sign-in request, not the page
    import httpx2

logger = logging.getLogger(__name__)

NOT_ALLOWLISTED_MESSAGE = (
    "Swiggy's sign-in refused this app: it is not on Swiggy's allow-list (\"isn't whitelisted "
    'yet"). Paste a Swiggy token on the Connections page instead.'
)
_WHITELIST_WORDS = ("whitelist", "allowlist", "allow-list")


class SignInService:
    """Sign in with Swiggy (OAuth 2.1 + PKCE S256); thread-safe."""

    def __init__(
        self,
        *,
        client_name: str = OAUTH_CLIENT_NAME,
        client_id: str | None = None,
        pending: PendingStore | None = None,
        clock: Callable[[], datetime] = utc_now,
        pinned_issuers: Mapping[str, str] | None = None,
        timeout: float = OAUTH_HTTP_TIMEOUT_SECONDS,
    ) -> None:
        self._clients = ClientRegistry(client_name, client_id=client_id)
        self._pending: PendingStore = pending if pending is not None else MemoryPendingStore()
        self._clock = clock
        self._pins = dict(pinned_issuers or {})  # origin → issuer, over the built-in pins
        self._timeout = timeout
        self._ttl = timedelta(seconds=OAUTH_PENDING_TTL_SECONDS)

    def __repr__(self) -> str:
        return f"SignInService(clients={self._clients!r}, pending={self._pending!r})"

    def start(self, user_id: str, server_urls: Mapping[str, str], redirect_uri: str) -> str:
        """Begin a sign-in for `user_id`; returns the URL of Swiggy's sign-in page."""
        if not user_id:
            raise ValueError("user_id must not be empty")
        servers = _server_pairs(server_urls)
        resource = servers[0][1]
        with new_client(self._timeout) as http:
            metadata = self._discover(resource, http)
            client_id = self._clients.client_id_for(metadata, redirect_uri, http)
        verifier, state = new_verifier(), new_state()
        url = exchange.authorize_url(
            metadata.authorization_endpoint,
            client_id=client_id,
            redirect_uri=redirect_uri,
            state=state,
            verifier=verifier,
            resource=resource,
        )
        self._pending.add(
            PendingAuthorization(
                state=state,
                user_id=user_id,
                redirect_uri=redirect_uri,
                code_verifier=verifier,
                server_urls=servers,
                client_id=client_id,
                issuer=metadata.issuer,
                token_endpoint=metadata.token_endpoint,
                created_at=self._clock(),
            )
        )
        return url

    def finish(self, user_id: str, params: Mapping[str, str]) -> SwiggyToken:
        """The token for the callback's query parameters (`code`/`error`, `state`)."""
        pending = self._claim(user_id, str(params.get("state") or ""))
        _raise_for_callback_error(params)
        issuer = params.get("iss")
        if issuer and issuer != pending.issuer:  # RFC 9207: the answer came from elsewhere
            raise OAuthError(
                f"The sign-in answer came from {server_text(issuer)}, not {pending.issuer}.",
                code=ErrorCode.OAUTH_ISSUER_MISMATCH,
            )
        code = str(params.get("code") or "")
        if not code:
            raise OAuthError(
                "Swiggy's sign-in returned no authorisation code. Try signing in again.",
                code=ErrorCode.OAUTH_TOKEN_ENDPOINT,
            )
        register_secret(code)
        answer = exchange.exchange_code(
            pending.token_endpoint,
            code=code,
            verifier=pending.code_verifier,
            client_id=pending.client_id,
            redirect_uri=pending.redirect_uri,
            resource=pending.resource,
            timeout=self._timeout,
        )
        return self._token(answer, pending.issuer, pending.server_urls, pending.client_id)

    def refresh(self, token: SwiggyToken, server_urls: Mapping[str, str]) -> SwiggyToken:
        """A new token from the refresh token (Swiggy v1 issues none: E-5109, sign in again)."""
        if not token.refresh_token:
            raise OAuthError(
                "This Swiggy sign-in came without a refresh token (Swiggy issues none yet); "
                "sign in again.",
                code=ErrorCode.OAUTH_TOKEN_ENDPOINT,
            )
        servers = _server_pairs(server_urls)
        with new_client(self._timeout) as http:
            metadata = self._discover(servers[0][1], http)
        if metadata.issuer != token.issuer:
            raise OAuthError(
                f"This token was issued by {token.issuer}, not {metadata.issuer}; sign in again.",
                code=ErrorCode.OAUTH_ISSUER_MISMATCH,
            )
        answer = exchange.refresh_grant(
            metadata.token_endpoint,
            refresh_token=token.refresh_token,
            client_id=token.client_id,
            timeout=self._timeout,
        )
        return self._token(answer, metadata.issuer, servers, token.client_id)

    def _token(
        self,
        answer: Mapping[str, Any],
        issuer: str,
        servers: Sequence[tuple[str, str]],
        client_id: str,
    ) -> SwiggyToken:
        """The token endpoint's answer as a token for these (key, URL) servers, issued now."""
        return exchange.token_from_answer(
            answer,
            issuer=issuer,
            now=self._clock(),
            resources=tuple(url for _key, url in servers),
            client_id=client_id,
        )

    def revoke(self, token: SwiggyToken, server_urls: Mapping[str, str]) -> None:
        """End the session at Swiggy (`/auth/logout`); best effort, never raises."""
        import httpx2

        try:
            servers = _server_pairs(server_urls)
            with new_client(self._timeout) as http:
                metadata = self._discover(servers[0][1], http)
                response = http.post(
                    metadata.revocation_endpoint,
                    headers={"authorization": token.authorization_header},
                    data={"token": token.access_token, "token_type_hint": "access_token"},
                )
            if response.status_code >= 400:
                logger.warning("Swiggy sign-out answered HTTP %s", response.status_code)
        except (OAuthError, httpx2.HTTPError, ValueError) as error:
            logger.warning("Swiggy sign-out failed: %s", type(error).__name__)

    def _discover(self, server_url: str, http: httpx2.Client) -> AuthServerMetadata:
        return discover(server_url, http, self._expected_issuer)

    def _expected_issuer(self, server_url: str) -> str | None:
        return self._pins.get(origin_of(server_url)) or pinned_issuer(server_url)

    def _claim(self, user_id: str, state: str) -> PendingAuthorization:
        """The caller's pending authorisation for `state`, now used (E-5104/5105/5106)."""
        pending = self._pending.get(state) if state else None
        if pending is None or pending.user_id != user_id:
            raise OAuthError(
                "This sign-in answer does not belong to a sign-in you started here. "
                "Start again from the Connections page.",
                code=ErrorCode.OAUTH_STATE_MISMATCH,
            )
        if pending.used:
            raise _already_used()
        if self._clock() - pending.created_at > self._ttl:
            raise OAuthError(
                "This sign-in took longer than 10 minutes and has expired. Start again.",
                code=ErrorCode.OAUTH_PENDING_EXPIRED,
            )
        if not self._pending.claim(state):  # another tab finished it a moment ago
            raise _already_used()
        return pending


def _already_used() -> OAuthError:
    return OAuthError(
        "This sign-in was already completed (the answer was used once). Start again if needed.",
        code=ErrorCode.OAUTH_PENDING_USED,
    )


def _raise_for_callback_error(params: Mapping[str, str]) -> None:
    error = str(params.get("error") or "")
    if not error:
        return
    description = str(params.get("error_description") or "")
    if error == "unauthorized_client" or any(
        word in description.lower() for word in _WHITELIST_WORDS
    ):
        raise OAuthError(NOT_ALLOWLISTED_MESSAGE, code=ErrorCode.OAUTH_NOT_ALLOWLISTED)
    if error == "access_denied":
        raise OAuthError(
            "Sign in with Swiggy was cancelled: consent was not given. Nothing was changed.",
            code=ErrorCode.OAUTH_DENIED,
        )
    shown = server_text(error) + (f": {server_text(description)}" if description else "")
    raise OAuthError(
        f"Swiggy's sign-in did not complete ({shown}). Nothing was changed.",
        code=ErrorCode.OAUTH_DENIED,
    )


def _server_pairs(server_urls: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    pairs = tuple((str(key), str(url)) for key, url in server_urls.items())
    if not pairs:
        raise ValueError("server_urls must name at least one MCP server")
    for _key, url in pairs:
        if not is_allowed_endpoint(url):
            raise OAuthError(
                "The Swiggy server addresses must use https (or be the local sandbox).",
                code=ErrorCode.OAUTH_DISCOVERY,
            )
    return pairs
