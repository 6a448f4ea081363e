"""Work done over a history, remembered so the same history grown longer costs only its
new messages.

Stored messages are only ever appended, and the store hands back the very same message
objects on every read, so a history that begins with the messages seen last time (object
for object) is that history grown: what was worked out over them still holds.
"""

from __future__ import annotations

import operator
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from swiggy_core.models import ChatMessage

S = TypeVar("S")

# Histories remembered per memo (one per open chat); the oldest is dropped first.
HISTORIES_KEPT = 64


@dataclass(frozen=True, slots=True)
class _Seen(Generic[S]):
    messages: tuple[ChatMessage, ...]
    state: S


class PrefixMemo(Generic[S]):
    """A state worked out over a history's first messages, per history (keyed by its first
    message, which the entry keeps alive so its id is not reused while remembered)."""

    def __init__(self, capacity: int = HISTORIES_KEPT) -> None:
        self._capacity = capacity
        self._entries: dict[int, _Seen[S]] = {}
        self._lock = threading.Lock()

    def resume(self, messages: Sequence[ChatMessage]) -> tuple[int, S] | None:
        """How many leading messages of `messages` the remembered state covers, and the
        state; None when `messages` does not begin with the messages it was worked on."""
        if not messages:
            return None
        seen = self._entries.get(id(messages[0]))  # a plain read: atomic, and checked next
        if seen is None or len(seen.messages) > len(messages):
            return None
        if not all(map(operator.is_, seen.messages, messages)):
            return None
        return len(seen.messages), seen.state

    def remember(self, messages: Sequence[ChatMessage], count: int, state: S) -> None:
        """`state` as worked out over the first `count` messages."""
        if count <= 0:
            return
        seen = _Seen(tuple(messages[:count]), state)
        with self._lock:
            self._entries.pop(id(messages[0]), None)  # re-inserted as the newest
            self._entries[id(messages[0])] = seen
            while len(self._entries) > self._capacity:
                self._entries.pop(next(iter(self._entries)))
