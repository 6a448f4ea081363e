"""Bearer tokens of the sandbox: issue, expire, revoke, look up (thread-safe, in memory)."""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from swiggy_core.logsafe import register_secret

DEMO_USER = "demo"
DEMO_TOKEN = "sandbox-demo-token"
TOKEN_ENV_VAR = "SWIGGY_SANDBOX_TOKEN"


class TokenState(Enum):
    """What a presented token means."""

    VALID = "valid"
    UNKNOWN = "unknown"  # → 401, re-authenticate (also: expired)
    REVOKED = "revoked"  # → 419, session revoked


@dataclass(frozen=True, slots=True)
class _Grant:
    user_id: str
    expires_at: float | None  # epoch seconds; None never expires (demo and per-user tokens)


class TokenStore:
    """Maps bearer tokens to user ids; revoked tokens are remembered so they answer 419.

    `clock` (epoch seconds) decides expiry, so tests can move time instead of waiting.
    """

    def __init__(self, *, demo: bool = True, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self._lock = threading.Lock()
        self._grants: dict[str, _Grant] = {DEMO_TOKEN: _Grant(DEMO_USER, None)} if demo else {}
        self._revoked: set[str] = set()

    def __repr__(self) -> str:
        with self._lock:
            return f"TokenStore(tokens={len(self._grants)}, revoked={len(self._revoked)})"

    def issue(
        self, user_id: str, token: str | None = None, *, expires_in: float | None = None
    ) -> str:
        """A new (or the given) token for `user_id`, valid for `expires_in` seconds if given."""
        if not user_id:
            raise ValueError("user_id must not be empty")
        token = token or f"sbx_{secrets.token_urlsafe(24)}"
        register_secret(token)  # masked in every log line of this process
        expires_at = None if expires_in is None else self.clock() + expires_in
        with self._lock:
            self._grants[token] = _Grant(user_id, expires_at)
            self._revoked.discard(token)
        return token

    def revoke(self, token: str) -> None:
        """End a token's session; later use answers 419."""
        with self._lock:
            if self._grants.pop(token, None) is not None:
                self._revoked.add(token)

    def user_for(self, token: str) -> str | None:
        """The user id of a valid (unexpired, unrevoked) token, else None."""
        with self._lock:
            grant = self._grants.get(token)
        if grant is None or self._expired(grant):
            return None
        return grant.user_id

    def state(self, token: str) -> TokenState:
        """Whether a token is valid, unknown (or expired) or revoked."""
        with self._lock:
            grant = self._grants.get(token)
            revoked = token in self._revoked
        if grant is not None:
            return TokenState.UNKNOWN if self._expired(grant) else TokenState.VALID
        return TokenState.REVOKED if revoked else TokenState.UNKNOWN

    def _expired(self, grant: _Grant) -> bool:
        return grant.expires_at is not None and self.clock() >= grant.expires_at
