"""Authorization codes, sessions and the token endpoint's rules (RFC 6749, OAuth 2.1, PKCE).

A code is single use, lives 120 s and is bound to the client, redirect URI, PKCE challenge
and resource it was issued for; presenting it a second time also revokes what it issued.
Access tokens go into the same `TokenStore` the MCP gate checks, valid five days; a refresh
token is issued only when the server is built to (Swiggy v1 issues none).
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from swiggy_core.constants import (
    OAUTH_CODE_TTL_SECONDS,
    OAUTH_SCOPES_SUPPORTED,
    SWIGGY_TOKEN_TTL_SECONDS,
)
from swiggy_core.logsafe import register_secret
from swiggy_core.oauth.pkce import s256_challenge, valid_verifier

if TYPE_CHECKING:  # the servers package imports this one
    from swiggy_sandbox.servers.auth import TokenStore

# Expired and used codes are forgotten after this (long after any replay could matter).
_CODE_MEMORY_SECONDS = 3_600
GRANTED_SCOPE = " ".join(OAUTH_SCOPES_SUPPORTED)  # Swiggy grants all three whatever is asked


class TokenRequestError(Exception):
    """An RFC 6749 §5.2 error answer: `error`, a description, and the HTTP status."""

    def __init__(self, error: str, description: str, status: int = 400) -> None:
        super().__init__(description)
        self.error = error
        self.description = description
        self.status = status


@dataclass(frozen=True, slots=True)
class CodeGrant:
    """What an authorization code was issued for."""

    user_id: str
    client_id: str
    redirect_uri: str
    challenge: str
    resource: str
    issued_at: float


@dataclass
class _Session:
    """One sign-in: its access tokens and its current refresh token."""

    user_id: str
    client_id: str
    access_tokens: set[str] = field(default_factory=set)
    refresh_token: str | None = None


class Grants:
    """Codes and sessions of the sandbox authorization server; thread-safe."""

    def __init__(
        self, store: TokenStore, resources: Collection[str], *, issue_refresh_tokens: bool
    ) -> None:
        self.store = store
        self.resources = frozenset(resources)
        self.issue_refresh_tokens = issue_refresh_tokens
        self._lock = threading.Lock()
        self._codes: dict[str, CodeGrant] = {}
        # Presented codes (issued at, the session they started) stay known for replays.
        self._used_codes: dict[str, tuple[float, _Session | None]] = {}
        self._by_access: dict[str, _Session] = {}
        self._by_refresh: dict[str, _Session] = {}

    def __repr__(self) -> str:
        with self._lock:
            return f"Grants(codes={len(self._codes)}, sessions={len(self._by_access)})"

    def issue_code(self, grant: CodeGrant) -> str:
        code = secrets.token_urlsafe(32)
        register_secret(code)
        oldest = self.store.clock() - _CODE_MEMORY_SECONDS
        with self._lock:
            self._codes = {c: g for c, g in self._codes.items() if g.issued_at >= oldest}
            self._used_codes = {c: u for c, u in self._used_codes.items() if u[0] >= oldest}
            self._codes[code] = grant
        return code

    def exchange(self, params: Mapping[str, str]) -> dict[str, Any]:
        """The token answer for an `authorization_code` or `refresh_token` grant."""
        grant_type = params.get("grant_type", "")
        if grant_type == "authorization_code":
            return self._redeem(params)
        if grant_type == "refresh_token":
            return self._refresh(params)
        raise TokenRequestError("unsupported_grant_type", "grant_type is not supported")

    def revoke_access(self, access_token: str) -> bool:
        """End the session an access token belongs to (`/auth/logout`); False if unknown."""
        with self._lock:
            session = self._by_access.get(access_token)
        if session is None:
            return False
        self._end(session)
        return True

    def _redeem(self, params: Mapping[str, str]) -> dict[str, Any]:
        code = params.get("code", "")
        with self._lock:
            grant = self._codes.pop(code, None)
            replayed = self._used_codes.get(code, (0.0, None))[1]
            if grant is not None:  # single use from the first presentation on
                self._used_codes[code] = (grant.issued_at, None)
        if grant is None:
            if replayed is not None:
                self._end(replayed)  # OAuth 2.1 §4.1.3: a replayed code revokes what it issued
            raise TokenRequestError("invalid_grant", "the code is unknown or already used")
        self._check_code(grant, params)
        session = _Session(grant.user_id, grant.client_id)
        answer = self._issue(session)
        with self._lock:
            self._used_codes[code] = (grant.issued_at, session)
        return answer

    def _check_code(self, grant: CodeGrant, params: Mapping[str, str]) -> None:
        if self.store.clock() - grant.issued_at > OAUTH_CODE_TTL_SECONDS:
            raise TokenRequestError("invalid_grant", "the code has expired")
        if params.get("client_id", grant.client_id) != grant.client_id:
            raise TokenRequestError("invalid_grant", "the code was issued to another client")
        if params.get("redirect_uri") != grant.redirect_uri:
            raise TokenRequestError("invalid_grant", "redirect_uri differs from the authorize one")
        verifier = params.get("code_verifier", "")
        if not valid_verifier(verifier):
            raise TokenRequestError("invalid_request", "code_verifier is missing or malformed")
        if not secrets.compare_digest(s256_challenge(verifier), grant.challenge):
            raise TokenRequestError("invalid_grant", "code_verifier does not match the challenge")
        resource = params.get("resource")
        if resource is not None and resource not in self.resources:
            raise TokenRequestError("invalid_target", "resource is not served here")

    def _refresh(self, params: Mapping[str, str]) -> dict[str, Any]:
        presented = params.get("refresh_token", "")
        with self._lock:
            session = self._by_refresh.pop(presented, None)
        if session is None:
            raise TokenRequestError("invalid_grant", "the refresh token is unknown or used")
        if params.get("client_id", session.client_id) != session.client_id:
            raise TokenRequestError("invalid_grant", "the refresh token belongs to another client")
        return self._issue(session)

    def _issue(self, session: _Session) -> dict[str, Any]:
        access = self.store.issue(session.user_id, expires_in=SWIGGY_TOKEN_TTL_SECONDS)
        answer: dict[str, Any] = {
            "access_token": access,
            "token_type": "Bearer",
            "expires_in": SWIGGY_TOKEN_TTL_SECONDS,
            "scope": GRANTED_SCOPE,
        }
        refresh = None
        if self.issue_refresh_tokens:
            refresh = f"sbr_{secrets.token_urlsafe(32)}"
            register_secret(refresh)
            answer["refresh_token"] = refresh
        with self._lock:
            session.access_tokens.add(access)
            session.refresh_token = refresh
            self._by_access[access] = session
            if refresh is not None:
                self._by_refresh[refresh] = session
        return answer

    def _end(self, session: _Session) -> None:
        with self._lock:
            tokens = set(session.access_tokens)
            if session.refresh_token is not None:
                self._by_refresh.pop(session.refresh_token, None)
                session.refresh_token = None
            for token in tokens:
                self._by_access.pop(token, None)
        for token in tokens:
            self.store.revoke(token)
