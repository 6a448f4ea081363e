"""The engine boundary: an engine takes one `TurnRequest` and streams the turn's events.

Like `llm`'s `Model.execute()` or pydantic-ai's `Model.request_stream()`: the caller
builds the request once and iterates; the last event is `TurnDone`, and the generator
returns the same `TurnResult`. Anything with this shape can run a turn
(`swiggy_core.turn.model_turn.stream_turn`); the app's two are the connector and the local engine.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Protocol

from swiggy_core.engine.events import StreamEvent
from swiggy_core.engine.requests import TurnRequest
from swiggy_core.engine.setup import EngineName
from swiggy_core.models import TurnResult


class Engine(Protocol):
    """Runs one turn of a conversation with the model."""

    @property
    def name(self) -> EngineName:
        """The name a `TurnSetup` gives this engine (and the tool mode requests use)."""
        ...

    def stream(self, request: TurnRequest) -> Generator[StreamEvent, None, TurnResult]:
        """Yield the turn's events, ending with `TurnDone`; return its result."""
        ...
