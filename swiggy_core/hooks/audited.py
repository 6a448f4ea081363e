"""Tool calls the app makes on its own (not in a turn), audited like every other call.

The engines audit through their hooks; a call from a page (reading the saved addresses on
Connections, sending a `report_error`) goes through `run_audited` instead, and the calls
around a confirmation through `run_hooked` with the session's post hooks.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from swiggy_core.hooks import ToolCallInfo, ToolOutcome, outcome_of
from swiggy_core.hooks.rules import audit_to
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
    return run_hooked(info, call, audit_to(record))


def run_hooked(
    info: ToolCallInfo, call: Callable[[], ToolOutput], after: Callable[[ToolOutcome], object]
) -> ToolOutput:
    """Run `call` and hand its outcome (ok, error, or a coded failure, raised again) on."""
    started = time.perf_counter()
    try:
        output = call()
    except McpCallError as failure:
        after(outcome_of(info, ToolOutput(str(failure), True), started, str(failure.code)))
        raise
    after(outcome_of(info, output, started))
    return output
