"""Post hooks for the tool calls Anthropic's connector runs (the model already saw them).

The connector streams `mcp_tool_use` then `mcp_tool_result`; the time between the two is
the call's duration as far as the app can tell. Each result goes through the session's
post hooks (the audit, error detection); pre hooks cannot apply, the call already ran.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from swiggy_core.constants import MCP_SERVERS
from swiggy_core.hooks import NO_HOOKS, CallScope, ToolHooks, outcome_of
from swiggy_core.mcp.manager import ToolOutput

_KEY_BY_NAME = {spec.name: key for key, spec in MCP_SERVERS.items()}


def server_key(server_name: str | None) -> str:
    """The key of a connector server name ("swiggy-food" → "food"); others as they are."""
    name = server_name or ""
    return _KEY_BY_NAME.get(name, name)


@dataclass
class ConnectorCalls:
    """Times each connector call from its use to its result and hands the outcome on."""

    hooks: ToolHooks = NO_HOOKS
    scope: CallScope = field(default_factory=CallScope)
    _started: dict[str, float] = field(default_factory=dict)

    def started(self, tool_use_id: str) -> None:
        self._started.setdefault(tool_use_id, time.perf_counter())

    def finished(
        self,
        tool_use_id: str,
        name: str,
        server_name: str | None,
        arguments: Mapping[str, Any],
        text: str,
        is_error: bool,
    ) -> None:
        if not self.hooks.post:
            return
        began = self._started.pop(tool_use_id, time.perf_counter())
        info = self.scope.info(server_key(server_name), name, arguments)
        # The connector has given the model its result already: only the audit runs.
        self.hooks.observe(outcome_of(info, ToolOutput(text, is_error), began))
