"""`SwiggyToken`: the bearer token Sign in with Swiggy obtains (one serves all three servers)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from swiggy_core.logsafe import register_secret


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class SwiggyToken:
    """An access token and what is known about it; the secrets never appear in its repr."""

    access_token: str = field(repr=False)
    token_type: str
    scope: str
    issuer: str
    obtained_at: datetime
    expires_at: datetime | None
    refresh_token: str | None = field(default=None, repr=False)
    # The MCP server URLs it was obtained for (the first is the requested resource).
    resources: tuple[str, ...] = ()
    # The client id that obtained it (a refresh must use the same one).
    client_id: str = ""

    def __post_init__(self) -> None:
        # Masked in every log line from the moment the token exists, however it was made.
        register_secret(self.access_token)
        register_secret(self.refresh_token)
        if self.obtained_at.tzinfo is None:
            raise ValueError("obtained_at must be timezone-aware")
        if self.expires_at is not None and self.expires_at.tzinfo is None:
            raise ValueError("expires_at must be timezone-aware")

    def expired(self, now: datetime | None = None) -> bool:
        """Whether the token has expired (a token without a known expiry never does)."""
        return self.expires_within(timedelta(0), now)

    def expires_within(self, delta: timedelta, now: datetime | None = None) -> bool:
        """Whether the token is expired or expires within `delta` of `now`."""
        if self.expires_at is None:
            return False
        return self.expires_at <= (now or utc_now()) + delta

    @property
    def authorization_header(self) -> str:
        """The value of the HTTP Authorization header that carries this token."""
        return f"Bearer {self.access_token}"

    def to_json(self) -> str:
        """Every field as JSON, secrets included: encrypt it before it is stored anywhere."""
        return json.dumps(
            {
                "access_token": self.access_token,
                "token_type": self.token_type,
                "scope": self.scope,
                "issuer": self.issuer,
                "obtained_at": self.obtained_at.isoformat(),
                "expires_at": self.expires_at.isoformat() if self.expires_at else None,
                "refresh_token": self.refresh_token,
                "resources": list(self.resources),
                "client_id": self.client_id,
            }
        )

    @classmethod
    def from_json(cls, text: str) -> SwiggyToken:
        """The token `to_json` wrote; ValueError when the text is not one."""
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("not a token")
        return cls._from_fields(data)

    @classmethod
    def _from_fields(cls, data: Mapping[str, Any]) -> SwiggyToken:
        try:
            expires = data.get("expires_at")
            return cls(
                access_token=_text(data["access_token"]),
                token_type=_text(data.get("token_type", "Bearer")),
                scope=_text(data.get("scope", "")),
                issuer=_text(data.get("issuer", "")),
                obtained_at=datetime.fromisoformat(_text(data["obtained_at"])),
                expires_at=datetime.fromisoformat(_text(expires)) if expires else None,
                refresh_token=_text(data["refresh_token"]) if data.get("refresh_token") else None,
                resources=tuple(_text(url) for url in data.get("resources", ())),
                client_id=_text(data.get("client_id", "")),
            )
        except (KeyError, TypeError) as error:
            raise ValueError("not a token") from error


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError("expected a string")
    return value
