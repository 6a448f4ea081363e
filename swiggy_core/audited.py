"""Tool calls the app makes on its own (not in a turn), audited like every other call.

The engines audit through their hooks; a call from a page (reading the saved addresses on
Connections, sending a `report_error`) goes through `run_audited` instead.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from swiggy_core.hook_rules import audit_to
from swiggy_core.hooks import ToolCallInfo, outcome_of
from swiggy_core.mcp.client import McpCallError, ToolOutput
from swiggy_core.store.tool_audit import ToolCallEntry


def run_audited(
    info: ToolCallInfo,
    call: Callable[[], ToolOutput],
    record: Callable[[ToolCallEntry], None] | None,
) -> ToolOutput:
    """Run `call` and audit it (ok, error, or a coded failure, which is raised again)."""
    if record is None:
        return call()
    audit = audit_to(record)
    started = time.perf_counter()
    try:
        output = call()
    except McpCallError as failure:
        audit(outcome_of(info, ToolOutput(str(failure), True), started, str(failure.code)))
        raise
    audit(outcome_of(info, output, started))
    return output
