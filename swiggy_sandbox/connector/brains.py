"""Agent brains for tests: a queue of steps, or a function of the turn context."""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable

from swiggy_sandbox.connector.steps import Finish, Step, TurnContext

StepSource = Step | Callable[[TurnContext], Step]


class ScriptedAgentBrain:
    """Takes the next queued step (or calls it with the context); an empty queue finishes.

    Every context it was shown is kept in `seen`, so tests can check what the connector
    offered (tools, disabled tools, edited messages).
    """

    def __init__(self, *steps: StepSource) -> None:
        self._queue: deque[StepSource] = deque(steps)
        self._lock = threading.Lock()
        self.seen: list[TurnContext] = []

    def enqueue(self, *steps: StepSource) -> None:
        """Append steps to the end of the queue."""
        with self._lock:
            self._queue.extend(steps)

    def pending(self) -> int:
        """How many queued steps have not been taken yet."""
        with self._lock:
            return len(self._queue)

    def clear(self) -> None:
        """Drop every queued step and forget the contexts seen."""
        with self._lock:
            self._queue.clear()
            self.seen.clear()

    def next_step(self, ctx: TurnContext) -> Step:
        """The next queued step, resolved against `ctx` when it is a function."""
        with self._lock:
            self.seen.append(ctx)
            source = self._queue.popleft() if self._queue else Finish()
        return source(ctx) if callable(source) else source


class FunctionAgentBrain:
    """Steps with `fn(ctx)`: for brains whose choice depends on the turn so far."""

    def __init__(self, fn: Callable[[TurnContext], Step]) -> None:
        self.fn = fn

    def next_step(self, ctx: TurnContext) -> Step:
        """Delegate to the wrapped function."""
        return self.fn(ctx)
