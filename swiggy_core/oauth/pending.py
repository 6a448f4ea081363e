"""Pending authorisations: started sign-ins waiting for their callback, keyed by `state`.

The store is a small Protocol so it can live elsewhere (another process's memory, Redis);
the rules (whose it is, expiry, single use) are the service's, not the store's.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Protocol

from swiggy_core.constants import OAUTH_PENDING_MEMORY_SECONDS


@dataclass(frozen=True, slots=True)
class PendingAuthorization:
    """One started sign-in: everything the callback needs to finish it."""

    state: str
    user_id: str
    redirect_uri: str
    code_verifier: str = field(repr=False)
    # (server key, URL) pairs, in the order given; the first is the requested resource.
    server_urls: tuple[tuple[str, str], ...]
    client_id: str
    issuer: str
    token_endpoint: str
    created_at: datetime
    used: bool = False

    @property
    def resource(self) -> str:
        return self.server_urls[0][1]


class PendingStore(Protocol):
    """Where pending authorisations wait; every method is atomic."""

    def add(self, pending: PendingAuthorization) -> None:
        """Keep a new pending authorisation."""
        ...

    def get(self, state: str) -> PendingAuthorization | None:
        """The pending authorisation for `state` (used or not), or None if unknown."""
        ...

    def claim(self, state: str) -> bool:
        """Mark it used; True only for the one caller that found it unused."""
        ...


class MemoryPendingStore:
    """Pending authorisations in this process's memory; used ones are remembered a day."""

    def __init__(self, memory: timedelta = timedelta(seconds=OAUTH_PENDING_MEMORY_SECONDS)) -> None:
        self._memory = memory
        self._lock = threading.Lock()
        self._entries: dict[str, PendingAuthorization] = {}

    def __repr__(self) -> str:
        with self._lock:
            return f"MemoryPendingStore(entries={len(self._entries)})"

    def add(self, pending: PendingAuthorization) -> None:
        with self._lock:
            oldest = pending.created_at - self._memory
            self._entries = {
                state: entry for state, entry in self._entries.items() if entry.created_at >= oldest
            }
            self._entries[pending.state] = pending

    def get(self, state: str) -> PendingAuthorization | None:
        with self._lock:
            return self._entries.get(state)

    def claim(self, state: str) -> bool:
        with self._lock:
            entry = self._entries.get(state)
            if entry is None or entry.used:
                return False
            self._entries[state] = replace(entry, used=True)
            return True
