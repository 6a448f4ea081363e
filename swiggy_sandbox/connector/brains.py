"""Agent brains for tests: a queue of steps, or a function of the turn context."""

from __future__ import annotations

from collections.abc import Callable

from swiggy_sandbox.connector.steps import Finish, Step, TurnContext
from swiggy_sandbox.emulator.queue import LockedQueue

StepSource = Step | Callable[[TurnContext], Step]


class ScriptedAgentBrain(LockedQueue[StepSource]):
    """Takes the next queued step (or calls it with the context); an empty queue finishes.

    Every context it was shown is kept in `seen`, so tests can check what the connector
    offered (tools, disabled tools, edited messages).
    """

    def __init__(self, *steps: StepSource) -> None:
        super().__init__(*steps)
        self.seen: list[TurnContext] = []

    def clear(self) -> None:
        """Drop every queued step and forget the contexts seen."""
        super().clear()
        self.seen.clear()

    def next_step(self, ctx: TurnContext) -> Step:
        """The next queued step, resolved against `ctx` when it is a function."""
        self.seen.append(ctx)
        source = self._take() or Finish()
        return source(ctx) if callable(source) else source


class FunctionAgentBrain:
    """Steps with `fn(ctx)`: for brains whose choice depends on the turn so far."""

    def __init__(self, fn: Callable[[TurnContext], Step]) -> None:
        self.fn = fn

    def next_step(self, ctx: TurnContext) -> Step:
        """Delegate to the wrapped function."""
        return self.fn(ctx)
