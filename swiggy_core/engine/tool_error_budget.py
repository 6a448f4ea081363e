"""How many tool errors a turn takes before it stops (both engines count the same way)."""

from __future__ import annotations

from dataclasses import dataclass

from swiggy_core.constants import MCP_AUTH_ERROR_LIMIT, MCP_TOOL_ERROR_LIMIT
from swiggy_core.engine.errors import ToolError, ToolErrorCategory
from swiggy_core.tool_errors import RECONNECT_CATEGORIES

# Nothing the model can do about these within the turn: stop and tell the person.
_STOP_AT_ONCE = frozenset({ToolErrorCategory.ADDRESS, ToolErrorCategory.RATE_LIMIT})


@dataclass
class ToolErrorBudget:
    """Counts tool errors in one turn and says when the turn must stop."""

    total: int = 0
    auth: int = 0

    def record(self, error: ToolError) -> bool:
        """Record one error; True means abort the turn now."""
        self.total += 1
        if error.category in RECONNECT_CATEGORIES:
            self.auth += 1
            return self.auth >= MCP_AUTH_ERROR_LIMIT
        if error.category in _STOP_AT_ONCE:
            return True
        return self.total >= MCP_TOOL_ERROR_LIMIT
