"""A thread-safe FIFO: test threads enqueue while uvicorn's worker threads take."""

from __future__ import annotations

import threading
from collections import deque
from typing import Generic, TypeVar

T = TypeVar("T")


class LockedQueue(Generic[T]):
    """The queue behind the scripted brains (answers or agent steps)."""

    def __init__(self, *items: T) -> None:
        self._queue: deque[T] = deque(items)
        self._lock = threading.Lock()

    def enqueue(self, *items: T) -> None:
        """Append items to the end of the queue."""
        with self._lock:
            self._queue.extend(items)

    def pending(self) -> int:
        """How many queued items have not been taken yet."""
        with self._lock:
            return len(self._queue)

    def clear(self) -> None:
        """Drop every queued item (e.g. between tests sharing one server)."""
        with self._lock:
            self._queue.clear()

    def _take(self) -> T | None:
        """The next item, or None when the queue is empty."""
        with self._lock:
            return self._queue.popleft() if self._queue else None
