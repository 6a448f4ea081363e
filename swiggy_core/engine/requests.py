"""What an engine is asked: one turn (`TurnRequest`) or one model stream (`StreamRequest`).

A turn request is everything a turn needs besides the engine itself; both engines take it
whole. A stream request is one call to the Messages API with its retries, the piece both
engines are built on.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from swiggy_core.constants import STREAM_TIMEOUT_SECONDS
from swiggy_core.engine.retry import RetryPolicy
from swiggy_core.engine.setup import TurnSetup
from swiggy_core.hooks import CallScope, ToolHooks
from swiggy_core.mcp.manager import McpManager
from swiggy_core.models import ChatMessage

if TYPE_CHECKING:  # the SDK loads with the first client (engine/client.py), not here
    import anthropic

Clock = Callable[[], float]
StopCheck = Callable[[], bool]
# Receives a function that aborts the open stream (None once it is closed), so Stop can
# end a reply that stalls between events.
AbortHook = Callable[[Callable[[], None] | None], None]


def never_stop() -> bool:
    """The stop check of a turn nobody can stop."""
    return False


@dataclass(frozen=True, slots=True)
class StreamRequest:
    """One Messages API stream: the request's kwargs and how to run it."""

    client: anthropic.Anthropic
    params: Mapping[str, Any]
    timeout: float = STREAM_TIMEOUT_SECONDS
    retry_policy: RetryPolicy = field(default_factory=RetryPolicy)
    sleep: Callable[[float], None] = time.sleep
    clock: Clock = time.monotonic
    # Polled between events: True ends the turn, keeping what arrived.
    should_stop: StopCheck = never_stop
    on_abortable: AbortHook | None = None
    # Post hooks every connector tool result passes through, as calls of `scope`.
    hooks: ToolHooks | None = None
    scope: CallScope | None = None


@dataclass(frozen=True, slots=True)
class TurnRequest:
    """One turn: the conversation so far (ending with the person's turn) and its setting."""

    client: anthropic.Anthropic
    setup: TurnSetup
    messages: Sequence[ChatMessage]
    # The MCP connections the local engine calls through (None: the process-wide one).
    manager: McpManager | None = None
    pending_approval: str | None = None
    now: datetime | None = None
    retry_policy: RetryPolicy = field(default_factory=RetryPolicy)
    sleep: Callable[[float], None] = time.sleep
    should_stop: StopCheck = never_stop
    on_abortable: AbortHook | None = None
    # Who the tool calls belong to (for the hooks and the audit).
    scope: CallScope | None = None

    def model_stream(
        self,
        params: Mapping[str, Any],
        *,
        hooks: ToolHooks | None = None,
        scope: CallScope | None = None,
    ) -> StreamRequest:
        """The stream request for `params`, run as this turn says (timeout, retries, Stop)."""
        return StreamRequest(
            client=self.client,
            params=params,
            timeout=self.setup.timeout,
            retry_policy=self.retry_policy,
            sleep=self.sleep,
            should_stop=self.should_stop,
            on_abortable=self.on_abortable,
            hooks=hooks,
            scope=scope,
        )
