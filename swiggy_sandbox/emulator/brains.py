"""Brains for tests: a FIFO of scripted answers, or a function of the request."""

from __future__ import annotations

from collections.abc import Callable

from swiggy_sandbox.emulator.queue import LockedQueue
from swiggy_sandbox.emulator.script import Fault, RecordedRequest, ScriptedTurn

EMPTY_QUEUE_MESSAGE = "scripted brain has no queued response"

Answer = ScriptedTurn | Fault


class ScriptedBrain(LockedQueue[Answer]):
    """Answers each request with the next queued turn or fault, in order.

    An empty queue answers a 500 rather than inventing a reply, so a test that makes
    one call more than it scripted fails loudly.
    """

    def respond(self, request: RecordedRequest) -> Answer:
        """Pop the next answer, or a server_error fault when nothing is queued."""
        answer = self._take()
        return answer if answer is not None else Fault("server_error", message=EMPTY_QUEUE_MESSAGE)


class FunctionBrain:
    """Answers with `fn(request)`: for replies that depend on what was sent."""

    def __init__(self, fn: Callable[[RecordedRequest], Answer]) -> None:
        self.fn = fn

    def respond(self, request: RecordedRequest) -> Answer:
        """Delegate to the wrapped function."""
        return self.fn(request)
