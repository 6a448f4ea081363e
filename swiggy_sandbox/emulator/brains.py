"""Brains for tests: a FIFO of scripted answers, or a function of the request."""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable

from swiggy_sandbox.emulator.script import Fault, RecordedRequest, ScriptedTurn

EMPTY_QUEUE_MESSAGE = "scripted brain has no queued response"

Answer = ScriptedTurn | Fault


class ScriptedBrain:
    """Answers each request with the next queued turn or fault, in order.

    An empty queue answers a 500 rather than inventing a reply, so a test that makes
    one call more than it scripted fails loudly.
    """

    def __init__(self, *items: Answer) -> None:
        self._queue: deque[Answer] = deque(items)
        # Requests arrive on uvicorn's worker threads while the test thread enqueues.
        self._lock = threading.Lock()

    def enqueue(self, *items: Answer) -> None:
        """Append answers to the end of the queue."""
        with self._lock:
            self._queue.extend(items)

    def pending(self) -> int:
        """How many queued answers have not been served yet."""
        with self._lock:
            return len(self._queue)

    def clear(self) -> None:
        """Drop every queued answer (e.g. between tests sharing one server)."""
        with self._lock:
            self._queue.clear()

    def respond(self, request: RecordedRequest) -> Answer:
        """Pop the next answer, or a server_error fault when nothing is queued."""
        with self._lock:
            if self._queue:
                return self._queue.popleft()
        return Fault("server_error", message=EMPTY_QUEUE_MESSAGE)


class FunctionBrain:
    """Answers with `fn(request)`: for replies that depend on what was sent."""

    def __init__(self, fn: Callable[[RecordedRequest], Answer]) -> None:
        self.fn = fn

    def respond(self, request: RecordedRequest) -> Answer:
        """Delegate to the wrapped function."""
        return self.fn(request)
