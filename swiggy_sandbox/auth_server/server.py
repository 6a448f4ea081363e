"""`AuthorizationServer`: the sandbox's OAuth 2.1 server, sharing the MCP gate's TokenStore."""

from __future__ import annotations

import os
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from swiggy_core.constants import OAUTH_LOOPBACK_ISSUER_PATH, OAUTH_SCOPES_SUPPORTED
from swiggy_sandbox.auth_server.clients import ClientDirectory
from swiggy_sandbox.auth_server.consent import Consent
from swiggy_sandbox.auth_server.grants import Grants

if TYPE_CHECKING:  # the servers package imports this one
    from swiggy_sandbox.servers.auth import TokenStore

AUTO_APPROVE_ENV_VAR = "SWIGGY_SANDBOX_AUTH_AUTO_APPROVE"


@dataclass(frozen=True, slots=True)
class AuthSettings:
    """How the sandbox authorization server behaves."""

    # Skip the phone/OTP/consent page and redirect with a code at once (tests, demos).
    auto_approve: bool = False
    # Swiggy v1 issues no refresh tokens; switch on to exercise the refresh grant.
    issue_refresh_tokens: bool = False
    # Client ids or registered app names refused as "isn't whitelisted yet".
    blocked_clients: frozenset[str] = field(default_factory=frozenset)

    @classmethod
    def from_env(cls, auto_approve: bool | None = None) -> AuthSettings:
        """Settings with auto-approve from the argument, else $SWIGGY_SANDBOX_AUTH_AUTO_APPROVE."""
        if auto_approve is None:
            auto_approve = os.environ.get(AUTO_APPROVE_ENV_VAR, "").strip().lower() in (
                "1",
                "true",
                "yes",
            )
        return cls(auto_approve=auto_approve)


class AuthorizationServer:
    """Registration, the authorize steps, codes and tokens for one sandbox base URL."""

    def __init__(
        self,
        base_url: str,
        store: TokenStore,
        resources: Collection[str],
        settings: AuthSettings | None = None,
    ) -> None:
        settings = settings or AuthSettings()
        self.base_url = base_url.rstrip("/")
        self.issuer = f"{self.base_url}{OAUTH_LOOPBACK_ISSUER_PATH}"
        self.settings = settings
        self.clients = ClientDirectory(settings.blocked_clients)
        self.grants = Grants(store, resources, issue_refresh_tokens=settings.issue_refresh_tokens)
        self.consent = Consent(
            self.clients,
            self.grants,
            default_resource=next(iter(resources), self.base_url),
            auto_approve=settings.auto_approve,
        )

    def __repr__(self) -> str:
        return f"AuthorizationServer(issuer={self.issuer!r}, grants={self.grants!r})"

    def metadata(self) -> dict[str, Any]:
        """RFC 8414 metadata exactly as Swiggy's fields go (no revocation endpoint named)."""
        return {
            "issuer": self.issuer,
            "authorization_endpoint": f"{self.issuer}/authorize",
            "token_endpoint": f"{self.issuer}/token",
            "registration_endpoint": f"{self.issuer}/register",
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "refresh_token"],
            "code_challenge_methods_supported": ["S256"],
            "scopes_supported": list(OAUTH_SCOPES_SUPPORTED),
            "token_endpoint_auth_methods_supported": ["none"],
        }

    def logout(self, access_token: str) -> None:
        """End the session of `access_token`; a token issued otherwise is revoked alone."""
        if not self.grants.revoke_access(access_token):
            self.grants.store.revoke(access_token)
