"""Stream one model turn with whichever engine the setup names.

`swiggy_core.session.ChatSession` owns a turn end to end (storing, approvals, audit); this
module only runs the model: Anthropic's connector executes the MCP tools, or this app
does (the local engine). Either way spending tools are never available to the model.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Sequence
from datetime import datetime

import anthropic

from swiggy_core.engine import (
    RetryPolicy,
    StopCheck,
    StreamEvent,
    TurnSetup,
    build_turn_params,
    run_local_turn,
    run_message_stream,
)
from swiggy_core.engine.stream import AbortHook, _never
from swiggy_core.hooks import CallScope
from swiggy_core.mcp.manager import McpManager, shared_manager
from swiggy_core.models import ChatMessage, TurnResult


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
    should_stop: StopCheck = _never,
    on_abortable: AbortHook | None = None,
    scope: CallScope | None = None,
) -> Generator[StreamEvent, None, TurnResult]:
    """Stream the reply to `messages` (ending with the person's turn); returns the result.

    Every tool call passes `setup.hooks` as a call of `scope` (who, which page and chat).
    """
    if setup.engine == "local":
        return (
            yield from run_local_turn(
                client,
                setup,
                messages,
                manager=manager or shared_manager(),
                pending_approval=pending_approval,
                now=now,
                retry_policy=retry_policy,
                sleep=sleep,
                should_stop=should_stop,
                on_abortable=on_abortable,
                scope=scope,
            )
        )
    params = build_turn_params(setup, messages, pending_approval=pending_approval, now=now)
    return (
        yield from run_message_stream(
            client,
            params,
            timeout=setup.timeout,
            retry_policy=retry_policy,
            sleep=sleep,
            should_stop=should_stop,
            on_abortable=on_abortable,
            hooks=setup.hooks,
            scope=scope,
        )
    )
