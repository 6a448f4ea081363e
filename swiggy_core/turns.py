"""One chat turn end to end: summary → request → stream, with the approval gate applied.

Pages call `stream_turn` and render its events; the caller owns the history, so the
person's message is kept even when the turn fails.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import anthropic

from swiggy_core.actions import confirmed_tools
from swiggy_core.approval import pending_confirmation
from swiggy_core.constants import STREAM_TIMEOUT_SECONDS
from swiggy_core.conversation import build_message_stream_params, build_session_state_summary
from swiggy_core.engine import RetryPolicy, StreamEvent, run_message_stream
from swiggy_core.models import ChatMessage, TurnResult


@dataclass(frozen=True, slots=True)
class TurnSetup:
    """Everything about the session that shapes a request (none of it per message)."""

    vertical_id: str
    model: str
    swiggy_token: str | None = None
    server_urls: Mapping[str, str] | None = None
    address: Any = None
    timeout: float = STREAM_TIMEOUT_SECONDS


def build_turn_params(
    setup: TurnSetup,
    history: Sequence[ChatMessage],
    user_message: ChatMessage,
    *,
    now: datetime | None = None,
) -> dict[str, Any]:
    """The exact stream kwargs for this turn; spending tools only if the person confirmed."""
    messages = [*history, user_message]
    summary = build_session_state_summary(
        vertical_id=setup.vertical_id,
        messages=messages,
        address=setup.address,
        now=now,
        pending_confirmation=pending_confirmation(history, setup.vertical_id),
    )
    return build_message_stream_params(
        vertical_id=setup.vertical_id,
        messages=messages,
        model=setup.model,
        swiggy_token=setup.swiggy_token,
        mcp_server_urls=setup.server_urls,
        address=setup.address,
        now=now,
        session_summary=summary,
        confirmed_tools=confirmed_tools(user_message),
    )


def stream_turn(
    client: anthropic.Anthropic,
    setup: TurnSetup,
    history: Sequence[ChatMessage],
    user_message: ChatMessage,
    *,
    now: datetime | None = None,
    retry_policy: RetryPolicy | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> Generator[StreamEvent, None, TurnResult]:
    """Stream the reply to `user_message`; yields UI events, returns the TurnResult."""
    params = build_turn_params(setup, history, user_message, now=now)
    return (
        yield from run_message_stream(
            client, params, timeout=setup.timeout, retry_policy=retry_policy, sleep=sleep
        )
    )
