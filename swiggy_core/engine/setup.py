"""What shapes a turn's request: the session's setup, the engine choice, the stream kwargs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal
from urllib.parse import urlsplit

from swiggy_core.constants import LOOPBACK_HOSTS, STREAM_TIMEOUT_SECONDS
from swiggy_core.conversation import (
    StreamParams,
    ToolMode,
    build_message_stream_params,
    build_session_state_summary,
)
from swiggy_core.hooks import ToolHooks
from swiggy_core.mcp.config import ResolvedServer
from swiggy_core.models import ChatMessage

Engine = Literal["connector", "local"]


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
    # Pre/post tool hooks; None → the session builds its defaults (audit, budget, checks).
    hooks: ToolHooks | None = None
    # Servers beyond Swiggy's whose tools this page offers (local engine, prefixed names).
    extra_servers: tuple[ResolvedServer, ...] = ()

    def server_url(self, server_key: str, default: str) -> str:
        return (self.server_urls or {}).get(server_key, default)


def choose_engine(
    settings_engine: str,
    *,
    base_url: str | None,
    server_urls: Mapping[str, str] | None,
    result_form: str = "auto",
) -> Engine:
    """`connector` or `local` as set; `auto` picks the engine that can use the servers.

    The rule for `auto`, first match wins:
    1. MCP servers on this machine and a model endpoint that is not → `local`: the
       connector runs on Anthropic's side and cannot reach this machine. (A model endpoint
       on this machine, the emulator, can reach them.)
    2. Results known to be summary-only through the connector → `local`: the connector may
       pass on only a result's text, while the app, calling the tools itself, also gets the
       data in `structuredContent`. `result_form` says how the servers answer:
       "summary" (prose + structuredContent; SWIGGY_RESULT_FORM=summary, or the sandbox
       started with SWIGGY_SANDBOX_RESULT_FORM=summary), "envelope" (the JSON as text,
       readable through either engine), or "auto" (not known: assumed "summary" for real
       Swiggy, as integrators report from live use, and "envelope" for servers on this
       machine, the sandbox's default).
    3. Otherwise → `connector`.
    """
    if settings_engine == "local":
        return "local"
    if settings_engine == "connector":
        return "connector"
    servers_local = any(_is_loopback(url) for url in (server_urls or {}).values())
    if servers_local and not _is_loopback(base_url):
        return "local"
    summary_only = result_form == "summary" or (result_form == "auto" and not servers_local)
    return "local" if summary_only else "connector"


def _is_loopback(url: str | None) -> bool:
    host = (urlsplit(url).hostname or "") if url else ""
    return host in LOOPBACK_HOSTS or host.startswith("127.")


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
    )
