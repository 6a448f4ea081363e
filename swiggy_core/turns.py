"""One chat turn end to end: summary → request → stream, with the approval gate applied.

Pages call `stream_turn` and render its events; the caller owns the history, so the
person's message is kept even when the turn fails. `TurnSetup.engine` picks who runs the
MCP tools: Anthropic's connector, or this app (the local engine); `choose_engine` decides.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal
from urllib.parse import urlsplit

import anthropic

from swiggy_core.actions import confirmed_tools
from swiggy_core.approval import pending_confirmation
from swiggy_core.constants import STREAM_TIMEOUT_SECONDS
from swiggy_core.conversation import build_message_stream_params, build_session_state_summary
from swiggy_core.engine import RetryPolicy, StreamEvent, run_local_turn, run_message_stream
from swiggy_core.mcp.manager import McpManager, shared_manager
from swiggy_core.models import ChatMessage, TurnResult

Engine = Literal["connector", "local"]
_LOOPBACK_HOSTS = frozenset({"localhost", "::1"})


@dataclass(frozen=True, slots=True)
class TurnSetup:
    """Everything about the session that shapes a request (none of it per message)."""

    vertical_id: str
    model: str
    swiggy_token: str | None = field(default=None, repr=False)
    server_urls: Mapping[str, str] | None = None
    address: Any = None
    timeout: float = STREAM_TIMEOUT_SECONDS
    engine: Engine = "connector"


def choose_engine(
    settings_engine: str, *, base_url: str | None, server_urls: Mapping[str, str] | None
) -> Engine:
    """`connector`/`local` as set; `auto` → local when Anthropic can't reach the servers.

    The connector runs on Anthropic's side, so it can't reach MCP servers on this machine;
    a model endpoint on this machine (the emulator) can, so it keeps the connector.
    """
    if settings_engine == "local":
        return "local"
    if settings_engine == "connector":
        return "connector"
    servers_local = any(_is_loopback(url) for url in (server_urls or {}).values())
    return "local" if servers_local and not _is_loopback(base_url) else "connector"


def _is_loopback(url: str | None) -> bool:
    host = (urlsplit(url).hostname or "") if url else ""
    return host in _LOOPBACK_HOSTS or host.startswith("127.")


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
    manager: McpManager | None = None,
) -> Generator[StreamEvent, None, TurnResult]:
    """Stream the reply to `user_message`; yields UI events, returns the TurnResult."""
    if setup.engine == "local":
        return (
            yield from run_local_turn(
                client,
                setup,
                history,
                user_message,
                manager=manager or shared_manager(),
                now=now,
                retry_policy=retry_policy,
                sleep=sleep,
            )
        )
    params = build_turn_params(setup, history, user_message, now=now)
    return (
        yield from run_message_stream(
            client, params, timeout=setup.timeout, retry_policy=retry_policy, sleep=sleep
        )
    )
