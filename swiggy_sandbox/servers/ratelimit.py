"""Per-user, per-server sliding-window rate limits (70 requests and 30 writes a minute)."""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

DEFAULT_REQUESTS_PER_MINUTE = 70
DEFAULT_WRITES_PER_MINUTE = 30
WINDOW_SECONDS = 60.0


@dataclass(frozen=True, slots=True)
class RateLimits:
    """Limits per user and server within one window (tests use small numbers)."""

    requests: int = DEFAULT_REQUESTS_PER_MINUTE
    writes: int = DEFAULT_WRITES_PER_MINUTE
    window_seconds: float = WINDOW_SECONDS


@dataclass(frozen=True, slots=True)
class Verdict:
    """Outcome of one request against the limits."""

    allowed: bool
    limit: int
    remaining: int
    retry_after: int  # whole seconds until a slot frees up (0 when allowed)
    reset_at: int  # unix seconds when the oldest counted request leaves the window
    reason: str = ""


class RateLimiter:
    """Sliding windows keyed by (user, server, kind)."""

    def __init__(self, limits: RateLimits, now: Callable[[], float] = time.time) -> None:
        self.limits = limits
        self._now = now
        self._lock = threading.Lock()
        self._hits: dict[tuple[str, str, str], deque[float]] = {}

    def _window(self, key: tuple[str, str, str], now: float) -> deque[float]:
        hits = self._hits.setdefault(key, deque())
        while hits and hits[0] <= now - self.limits.window_seconds:
            hits.popleft()
        return hits

    def check(self, user: str, server: str, *, requests: int, writes: int) -> Verdict:
        """Count a request carrying `requests` JSON-RPC calls of which `writes` change state."""
        now = self._now()
        with self._lock:
            total = self._window((user, server, "all"), now)
            changes = self._window((user, server, "write"), now)
            blocked = self._blocked(total, requests, self.limits.requests, now, "requests")
            if blocked is None and writes:
                blocked = self._blocked(changes, writes, self.limits.writes, now, "writes")
            if blocked is not None:
                return blocked
            total.extend([now] * requests)
            changes.extend([now] * writes)
            reset = (total[0] if total else now) + self.limits.window_seconds
            remaining = max(0, self.limits.requests - len(total))
            return Verdict(True, self.limits.requests, remaining, 0, math.ceil(reset))

    def _blocked(
        self, hits: deque[float], wanted: int, limit: int, now: float, kind: str
    ) -> Verdict | None:
        if len(hits) + wanted <= limit:
            return None
        # The earliest moment enough old hits have left the window.
        index = min(len(hits) - 1, max(0, len(hits) + wanted - limit - 1))
        frees_at = hits[index] + self.limits.window_seconds if hits else now
        retry = max(1, math.ceil(frees_at - now))
        reason = f"Rate limit exceeded: {limit} {kind} per minute. Retry after {retry} s."
        return Verdict(False, limit, 0, retry, math.ceil(frees_at), reason)
