"""Bearer tokens of the sandbox: issue, revoke, look up (thread-safe, in memory)."""

from __future__ import annotations

import secrets
import threading
from enum import Enum

from swiggy_core.logsafe import register_secret

DEMO_USER = "demo"
DEMO_TOKEN = "sandbox-demo-token"
TOKEN_ENV_VAR = "SWIGGY_SANDBOX_TOKEN"


class TokenState(Enum):
    """What a presented token means."""

    VALID = "valid"
    UNKNOWN = "unknown"  # → 401, re-authenticate
    REVOKED = "revoked"  # → 419, session revoked


class TokenStore:
    """Maps bearer tokens to user ids; revoked tokens are remembered so they answer 419."""

    def __init__(self, *, demo: bool = True) -> None:
        self._lock = threading.Lock()
        self._users: dict[str, str] = {DEMO_TOKEN: DEMO_USER} if demo else {}
        self._revoked: set[str] = set()

    def __repr__(self) -> str:
        with self._lock:
            return f"TokenStore(tokens={len(self._users)}, revoked={len(self._revoked)})"

    def issue(self, user_id: str, token: str | None = None) -> str:
        """A new (or the given) token for `user_id`."""
        if not user_id:
            raise ValueError("user_id must not be empty")
        token = token or f"sbx_{secrets.token_urlsafe(24)}"
        register_secret(token)  # masked in every log line of this process
        with self._lock:
            self._users[token] = user_id
            self._revoked.discard(token)
        return token

    def revoke(self, token: str) -> None:
        """End a token's session; later use answers 419."""
        with self._lock:
            if self._users.pop(token, None) is not None:
                self._revoked.add(token)

    def user_for(self, token: str) -> str | None:
        """The user id of a valid token, else None."""
        with self._lock:
            return self._users.get(token)

    def state(self, token: str) -> TokenState:
        """Whether a token is valid, unknown or revoked."""
        with self._lock:
            if token in self._users:
                return TokenState.VALID
            return TokenState.REVOKED if token in self._revoked else TokenState.UNKNOWN
