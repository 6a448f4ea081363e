"""Running a turn generator to its end, as the app's turn runner does."""

from __future__ import annotations

from collections.abc import Generator

from swiggy_core.engine import StreamEvent
from swiggy_core.models import TurnResult


def drain(turn: Generator[StreamEvent, None, TurnResult]) -> tuple[list[StreamEvent], TurnResult]:
    """Every event of the turn, and the result it returned when it ended."""
    events: list[StreamEvent] = []
    while True:
        try:
            events.append(next(turn))
        except StopIteration as stop:
            return events, stop.value
