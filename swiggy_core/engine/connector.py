"""The connector engine: Anthropic's MCP connector runs the tools inside the model's stream.

The request names the Swiggy servers; the connector calls them and streams each use and
result back. The app sees the calls only as they pass: every result goes through the
session's post hooks (audit, error detection), and spending tools are never offered.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Literal

from swiggy_core.engine.events import StreamEvent
from swiggy_core.engine.requests import TurnRequest
from swiggy_core.engine.setup import build_turn_params
from swiggy_core.engine.stream import run_message_stream
from swiggy_core.models import TurnResult


@dataclass(frozen=True, slots=True)
class ConnectorEngine:
    """One Messages API stream per turn, the connector's tool calls inside it."""

    name: Literal["connector"] = "connector"

    def stream(self, request: TurnRequest) -> Generator[StreamEvent, None, TurnResult]:
        """Stream the reply to `request.messages`; every tool result passes the hooks."""
        params = build_turn_params(
            request.setup,
            request.messages,
            pending_approval=request.pending_approval,
            now=request.now,
        )
        stream = request.model_stream(params, hooks=request.setup.hooks, scope=request.scope)
        return (yield from run_message_stream(stream))
