"""What shapes a turn's request: the session's setup and the stream kwargs built from it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from swiggy_core.constants import STREAM_TIMEOUT_SECONDS
from swiggy_core.conversation import (
    StreamParams,
    ToolMode,
    build_message_stream_params,
    build_session_state_summary,
)
from swiggy_core.hooks import ToolHooks
from swiggy_core.mcp.config import ResolvedServer
from swiggy_core.models import ChatMessage

# How a request names its engine (and the tool mode it is built for).
EngineName = Literal["connector", "local"]


@dataclass(frozen=True, slots=True)
class TurnSetup:
    """Everything about the session that shapes a request (none of it per message)."""

    vertical_id: str
    model: str
    swiggy_token: str | None = field(default=None, repr=False)
    server_urls: Mapping[str, str] | None = None
    address: Any = None
    timeout: float = STREAM_TIMEOUT_SECONDS
    engine: EngineName = "connector"
    # Pre/post tool hooks; None → the session builds its defaults (audit, budget, checks).
    hooks: ToolHooks | None = None
    # Servers beyond Swiggy's whose tools this page offers (local engine, prefixed names).
    extra_servers: tuple[ResolvedServer, ...] = ()
    # The person's standing diet as the turn context's line (None: no profile set).
    diet_note: str | None = None

    def server_url(self, server_key: str, default: str) -> str:
        return (self.server_urls or {}).get(server_key, default)


def build_turn_params(
    setup: TurnSetup,
    messages: Sequence[ChatMessage],
    *,
    tool_mode: ToolMode | None = None,
    client_tools: Sequence[Mapping[str, Any]] = (),
    pending_approval: str | None = None,
    now: datetime | None = None,
    confirmable: Sequence[Mapping[str, Any]] = (),
) -> StreamParams:
    """The exact stream kwargs for the conversation `messages` (ending with the person's turn)."""
    summary = build_session_state_summary(
        vertical_id=setup.vertical_id,
        messages=messages,
        address=setup.address,
        now=now,
        pending_confirmation=pending_approval,
    )
    return build_message_stream_params(
        vertical_id=setup.vertical_id,
        messages=messages,
        model=setup.model,
        tool_mode=tool_mode or setup.engine,
        swiggy_token=setup.swiggy_token,
        mcp_server_urls=setup.server_urls,
        client_tools=client_tools,
        address=setup.address,
        now=now,
        session_summary=summary,
        confirmable=confirmable,
        diet_note=setup.diet_note,
    )
