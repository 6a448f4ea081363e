"""One reply at a time per chat, across tabs, processes and replicas.

A turn takes its chat's lease in the shared database before it stores anything, renews it
from a heartbeat thread while it runs, and gives it back when it has stored its result.
Another process that finds a live lease refuses a second reply ("Replying in another
window"); a lease that stopped being renewed belongs to a process that died, and the next
turn (or Retry) takes it over.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Final

from swiggy_core.constants import (
    TURN_LEASE_HEARTBEAT_SECONDS,
    TURN_LEASE_TTL_ENV,
    TURN_LEASE_TTL_SECONDS,
)
from swiggy_core.errors import ActionRefused, ErrorCode, SwiggyAssistantError
from swiggy_core.store.leases import LeaseBook

logger = logging.getLogger(__name__)

ELSEWHERE_MESSAGE: Final = (
    "A reply in this chat is still coming in another window. It will show here when it is "
    "done; your message is kept."
)


class TurnElsewhere(ActionRefused):
    """Another process (or replica) is replying in this chat right now."""

    code = ErrorCode.TURN_ELSEWHERE


def this_process() -> str:
    """Host and pid: who holds a lease (for support; never shown to people)."""
    return f"{socket.gethostname()}:{os.getpid()}"


def lease_ttl() -> timedelta:
    """How long a lease lives without a heartbeat (`SWIGGY_TURN_LEASE_SECONDS`)."""
    raw = os.environ.get(TURN_LEASE_TTL_ENV, "").strip()
    try:
        seconds = float(raw) if raw else TURN_LEASE_TTL_SECONDS
    except ValueError:
        seconds = TURN_LEASE_TTL_SECONDS
    return timedelta(seconds=max(seconds, 1.0))


class HeldLease:
    """A lease this process holds, renewed on its own thread until released."""

    def __init__(
        self,
        book: LeaseBook,
        conversation_id: str,
        holder: str,
        *,
        ttl: timedelta,
        clock: Callable[[], datetime],
    ) -> None:
        self.conversation_id = conversation_id
        self.holder = holder
        self._book = book
        self._ttl = ttl
        self._clock = clock
        self._released = threading.Event()
        self.lost = threading.Event()  # set when another process took the chat over
        self._heartbeat: threading.Thread | None = None

    def __repr__(self) -> str:
        return f"HeldLease({self.conversation_id[:8]}, holder={self.holder[:8]})"

    def keep_alive(self, on_lost: Callable[[], None] | None = None) -> None:
        """Renew from a daemon thread (a long model or MCP call must not lose the lease)."""
        every = min(TURN_LEASE_HEARTBEAT_SECONDS, self._ttl.total_seconds() / 3)

        def beat() -> None:
            while not self._released.wait(every):
                try:
                    renewed = self._book.renew(
                        self.conversation_id, self.holder, now=self._clock(), ttl=self._ttl
                    )
                except SwiggyAssistantError as error:  # a database hiccup: try next beat
                    logger.warning("turn lease not renewed (%s)", error.code)
                    continue
                if not renewed:
                    self.lost.set()
                    if on_lost is not None:
                        on_lost()
                    return

        self._heartbeat = threading.Thread(
            target=beat, name=f"lease-{self.holder[:8]}", daemon=True
        )
        self._heartbeat.start()

    def release(self) -> None:
        """Give the chat back; a database fault leaves the lease to expire by itself."""
        if self._released.is_set():
            return
        self._released.set()
        try:
            self._book.release(self.conversation_id, self.holder)
        except SwiggyAssistantError as error:
            logger.warning("turn lease not released (%s); it will expire", error.code)


class TurnGate:
    """Hands out chat leases from the shared store."""

    def __init__(
        self,
        book: LeaseBook,
        *,
        ttl: timedelta | None = None,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self._book = book
        self._ttl = ttl if ttl is not None else lease_ttl()
        self._clock = clock

    def take(self, conversation_id: str, holder: str, kind: str) -> HeldLease:
        """The chat's lease for `holder`, or TurnElsewhere when a live turn holds it."""
        taken = self._book.acquire(
            conversation_id,
            holder,
            process=this_process(),
            kind=kind,
            now=self._clock(),
            ttl=self._ttl,
        )
        if taken is None:
            raise TurnElsewhere(ELSEWHERE_MESSAGE)
        return HeldLease(self._book, conversation_id, holder, ttl=self._ttl, clock=self._clock)

    def busy(self, conversation_id: str | None) -> bool:
        """True while a live turn (in any process) holds the chat."""
        if conversation_id is None:
            return False
        return self._book.live(conversation_id, self._clock()) is not None
