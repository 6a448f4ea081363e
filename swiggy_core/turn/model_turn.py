"""Stream one model turn with whichever engine the setup names.

`swiggy_core.turn.session.ChatSession` owns a turn end to end (storing, approvals, audit); this
module only runs the model: Anthropic's connector executes the MCP tools, or this app
does (the local engine). Either way spending tools are never available to the model.
The request is built once here; the engine is the only thing that differs.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from swiggy_core.engine import (
    AbortHook,
    Engine,
    RetryPolicy,
    StopCheck,
    StreamEvent,
    TurnRequest,
    TurnSetup,
    engine_named,
    never_stop,
)
from swiggy_core.hooks import CallScope
from swiggy_core.mcp.manager import McpManager
from swiggy_core.models import ChatMessage, TurnResult

if TYPE_CHECKING:  # the SDK loads with the client (engine/client.py), not with this module
    import anthropic


def stream_turn(
    client: anthropic.Anthropic,
    setup: TurnSetup,
    messages: Sequence[ChatMessage],
    *,
    pending_approval: str | None = None,
    now: datetime | None = None,
    retry_policy: RetryPolicy | None = None,
    sleep: Callable[[float], None] = time.sleep,
    manager: McpManager | None = None,
    should_stop: StopCheck = never_stop,
    on_abortable: AbortHook | None = None,
    scope: CallScope | None = None,
    engine: Engine | None = None,
) -> Generator[StreamEvent, None, TurnResult]:
    """Stream the reply to `messages` (ending with the person's turn); returns the result.

    Every tool call passes `setup.hooks` as a call of `scope` (who, which page and chat).
    `engine` runs the turn; by default the one `setup.engine` names.
    """
    request = TurnRequest(
        client=client,
        setup=setup,
        messages=messages,
        manager=manager,
        pending_approval=pending_approval,
        now=now,
        retry_policy=retry_policy or RetryPolicy(),
        sleep=sleep,
        should_stop=should_stop,
        on_abortable=on_abortable,
        scope=scope,
    )
    return (yield from (engine or engine_named(setup.engine)).stream(request))
