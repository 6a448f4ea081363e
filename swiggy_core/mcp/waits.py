"""A server's 429, remembered per person: nothing is sent to it before its Retry-After is over.

A rate limit is no dead transport: the session stays, nothing is re-sent, and every request
of that person to that server fails here, with the seconds left, until the wait is over.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from mcp import ClientSession
from mcp.shared.exceptions import MCPError

from swiggy_core.mcp.client import RateLimited, ToolOutput
from swiggy_core.mcp.connection import Connection, SessionKey

T = TypeVar("T")


class ServerWaits:
    """When each (person, server) may be asked again, and what the server said; on the loop."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._until: dict[tuple[str, str], tuple[float, str]] = {}

    def __repr__(self) -> str:
        return f"ServerWaits(waiting={len(self._until)})"

    def remember(self, key: SessionKey, limited: RateLimited) -> None:
        until = self._clock() + (limited.retry_after_seconds or 0.0)
        self._until[(key.user, key.server)] = (until, limited.message)

    def refuse_while_waiting(self, key: SessionKey) -> None:
        """Raise the server's 429 again, with the seconds left, while its wait lasts."""
        waiting = self._until.get((key.user, key.server))
        if waiting is None:
            return
        until, message = waiting
        left = until - self._clock()
        if left <= 0:
            del self._until[(key.user, key.server)]
            return
        raise RateLimited(message, retry_after_seconds=left)


async def request_noting_429(
    connection: Connection,
    work: Callable[[ClientSession], Coroutine[Any, Any, T]],
    wait: float,
    doing: str,
) -> T:
    """One request; a 429 that arrived meanwhile turns its failure into RateLimited."""
    mark = connection.limits_seen
    try:
        answer = await connection.request(work, wait, doing)
    except RateLimited:
        raise
    except Exception as error:
        if connection.limits_seen > mark:
            said = error.error.message if isinstance(error, MCPError) else str(error)
            raise connection.rate_limited(said) from None
        raise
    if connection.limits_seen > mark:
        # The 429's JSON-RPC error came back as the answer (a tool error, a returned error).
        if isinstance(answer, MCPError):
            raise connection.rate_limited(answer.error.message)
        if isinstance(answer, ToolOutput) and answer.is_error:
            raise connection.rate_limited(answer.text)
    return answer
