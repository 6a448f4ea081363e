"""Our own per-person, per-server budget of tool calls, under Swiggy's planned limits.

Swiggy plans 120 calls and 30 writes a minute per user per server. The budget is counted in
the shared state, so replicas behind one address spend one budget together; a call over it
is refused before it is sent, with a message that says when to try again. The person is
named in the counters' keys only by `person_key` (a digest), never by their id.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Collection

from swiggy_core.constants import (
    MCP_SERVERS,
    RATE_CALLS_PER_MINUTE,
    RATE_WINDOW_SECONDS,
    RATE_WRITES_PER_MINUTE,
)
from swiggy_core.shared_state import (
    Clock,
    SharedState,
    SharedStateError,
    person_key,
    window_left,
)
from swiggy_core.shops import WRITE_TOOL_NAMES

logger = logging.getLogger(__name__)


class RateBudget:
    """Counts calls (and, separately, writes) per person and server in fixed windows."""

    def __init__(
        self,
        state: SharedState,
        calls_per_minute: int = RATE_CALLS_PER_MINUTE,
        writes_per_minute: int = RATE_WRITES_PER_MINUTE,
        *,
        window_seconds: float = RATE_WINDOW_SECONDS,
        write_tools: Collection[str] = WRITE_TOOL_NAMES,
        clock: Clock = time.time,
    ) -> None:
        self._state = state
        self._calls = calls_per_minute
        self._writes = writes_per_minute
        self._window = window_seconds
        self._write_tools = frozenset(write_tools)
        self._clock = clock  # the same clock as the state's, so windows line up

    def __repr__(self) -> str:
        return f"RateBudget(calls={self._calls}, writes={self._writes}, state={self._state!r})"

    def take(self, user: str, server: str, tool: str) -> str | None:
        """Spend one call of `user` on `server` (and one write if `tool` changes state).

        None when allowed; else the refusal for the model and the person. A write is
        checked first, so a refused write does not also spend a call.
        """
        person = person_key(user)
        try:
            if tool in self._write_tools:
                writes = self._state.hit(f"budget:writes:{server}:{person}", self._window)
                if writes > self._writes:
                    return self._refusal(self._writes, "changes", server)
            calls = self._state.hit(f"budget:calls:{server}:{person}", self._window)
            if calls > self._calls:
                return self._refusal(self._calls, "calls", server)
        except SharedStateError as error:
            # Counting failed: let the call through (Swiggy's own limits still hold).
            logger.warning("Rate budget not counted: %s", error)
        return None

    def _refusal(self, limit: int, what: str, server: str) -> str:
        wait = max(1, math.ceil(window_left(self._clock(), self._window)))
        return (
            f"Slow down: {limit} {what} a minute to {server_name(server)} is the limit; "
            f"try again in {wait} s."
        )


def server_name(server: str) -> str:
    """Swiggy's own name for one of its servers ("swiggy-food"), else the key as given."""
    spec = MCP_SERVERS.get(server)
    return spec.name if spec is not None else server
