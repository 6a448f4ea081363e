"""A confirmed call of a person's own server's tool: the same server and call as shown,
run once through the ledger (see `swiggy_core.approval.own_tools`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from swiggy_core.approval.own_tools import OwnTool, action_digest
from swiggy_core.approval.request_tool import ApprovalAnswer, outcome_error
from swiggy_core.approval.run_action import run_action
from swiggy_core.approval.settle import CALLING_KEY, TEXT_KEY, TOLD_KEY
from swiggy_core.engine import StreamFailed, ToolFinished, ToolStarted
from swiggy_core.errors import ErrorCode
from swiggy_core.faultpoints import pause_point
from swiggy_core.mcp.manager import ToolOutput
from swiggy_core.store import ApprovalRecord, ApprovalStatus
from swiggy_core.turn.handle import TurnHandle

if TYPE_CHECKING:
    from swiggy_core.approval.steps import SessionSteps

GONE = "That server or tool is no longer available as it was when you were asked."
_RESULT_KEEP_CHARS = 20_000


def execute_action(
    steps: SessionSteps, record: ApprovalRecord, facts: dict[str, Any], handle: TurnHandle
) -> ApprovalAnswer | None:
    """Run it once; None when another process settled the approval meanwhile."""
    own = steps.own_tool(record.tool)
    if own is None or action_digest(own, record.arguments) != record.digest:
        if not steps.move(record, ApprovalStatus.REFUSED, note=GONE):
            return None
        code = ErrorCode.APPROVAL_CHANGED
        handle.publish(StreamFailed(error=outcome_error(code, GONE)))
        return ApprovalAnswer(
            approval="refused", tool=record.tool, message=GONE, shown=GONE, code=code.value
        )
    facts[CALLING_KEY] = True
    if not steps.store.record_approval_facts(record.id, ApprovalStatus.EXECUTING, facts):
        return None
    key = own.server.config.key
    handle.publish(ToolStarted(record.tool_use_id, record.tool, key, record.arguments))

    def call(tool: OwnTool, arguments: dict[str, Any]) -> ToolOutput:
        return steps.call_server(tool.server, tool.server.token, key, tool.name, arguments)

    run = run_action(steps.vertical, own, record.arguments, call)
    pause_point("confirm.after_call")
    facts[TEXT_KEY] = run.result_text[:_RESULT_KEEP_CHARS]
    facts[TOLD_KEY] = run.answer.message
    if not steps.move(record, ApprovalStatus(run.status), facts=facts):
        return None
    failed = run.status != "done"
    handle.publish(ToolFinished(record.tool_use_id, record.tool, failed, run.result_text))
    steps.audit_spend(record, run, facts)
    return run.answer
