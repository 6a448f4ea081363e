"""Pending sign-ins in the shared state, so the callback may land on any replica.

Same rules as `MemoryPendingStore`: entries are remembered a day (the service refuses them
after 10 minutes), and `claim` succeeds once, atomically, across every replica. Keys hold a
digest of the OAuth `state`, never the value; the PKCE verifier is stored (the callback
needs it) but never logged or shown in a repr.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from swiggy_core.constants import OAUTH_PENDING_MEMORY_SECONDS
from swiggy_core.errors import PendingSignInsUnreachable
from swiggy_core.oauth.pending import MemoryPendingStore, PendingAuthorization, PendingStore
from swiggy_core.shared_state import RedisState, SharedState, SharedStateError, shared_state

_PENDING_KEY = "oauth-pending:"
_CLAIMED_KEY = "oauth-claimed:"


class RedisPendingStore:
    """Pending authorisations in a `SharedState` (Redis across replicas)."""

    def __init__(
        self,
        state: SharedState,
        memory: timedelta = timedelta(seconds=OAUTH_PENDING_MEMORY_SECONDS),
    ) -> None:
        self._state = state
        self._memory = memory.total_seconds()

    def __repr__(self) -> str:
        return f"RedisPendingStore(state={self._state!r})"

    def add(self, pending: PendingAuthorization) -> None:
        with _reachable():
            self._state.set(_PENDING_KEY + _digest(pending.state), _dumps(pending), self._memory)

    def get(self, state: str) -> PendingAuthorization | None:
        digest = _digest(state)
        with _reachable():
            text = self._state.get(_PENDING_KEY + digest)
            if text is None:
                return None
            used = self._state.get(_CLAIMED_KEY + digest) is not None
        pending = _loads(text)
        if pending is None or pending.state != state:
            return None
        return replace(pending, used=True) if used else pending

    def claim(self, state: str) -> bool:
        digest = _digest(state)
        with _reachable():
            if self._state.get(_PENDING_KEY + digest) is None:
                return False
            # Set-if-absent is the atomic step: one caller in any replica wins.
            return self._state.set_if_absent(_CLAIMED_KEY + digest, "1", self._memory)


def pending_store(state_factory: Callable[[], SharedState] = shared_state) -> PendingStore:
    """Redis-backed pending sign-ins when $REDIS_URL is in use, else this process's memory."""
    state = state_factory()
    if isinstance(state, RedisState):
        return RedisPendingStore(state)
    return MemoryPendingStore()


@contextmanager
def _reachable() -> Iterator[None]:
    try:
        yield
    except SharedStateError as error:
        raise PendingSignInsUnreachable(
            f"Pending sign-ins are kept in Redis, which did not answer ({error.message}). "
            "Try signing in again in a moment."
        ) from None


def _digest(state: str) -> str:
    return hashlib.sha256(state.encode()).hexdigest()


def _dumps(pending: PendingAuthorization) -> str:
    return json.dumps(
        {
            "state": pending.state,
            "user_id": pending.user_id,
            "redirect_uri": pending.redirect_uri,
            "code_verifier": pending.code_verifier,
            "server_urls": [list(pair) for pair in pending.server_urls],
            "client_id": pending.client_id,
            "issuer": pending.issuer,
            "token_endpoint": pending.token_endpoint,
            "created_at": pending.created_at.isoformat(),
        },
        separators=(",", ":"),
    )


def _loads(text: str) -> PendingAuthorization | None:
    """The entry `_dumps` wrote, or None for anything else (never raises)."""
    try:
        data: dict[str, Any] = json.loads(text)
        return PendingAuthorization(
            state=str(data["state"]),
            user_id=str(data["user_id"]),
            redirect_uri=str(data["redirect_uri"]),
            code_verifier=str(data["code_verifier"]),
            server_urls=tuple((str(key), str(url)) for key, url in data["server_urls"]),
            client_id=str(data["client_id"]),
            issuer=str(data["issuer"]),
            token_endpoint=str(data["token_endpoint"]),
            created_at=datetime.fromisoformat(str(data["created_at"])),
        )
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
