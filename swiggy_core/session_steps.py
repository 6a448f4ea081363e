"""The approval steps of a turn: open one, execute it once, settle an unclear one.

Everything here runs on the turn's thread and talks to Swiggy through the app's own MCP
client; each step leaves an audit entry and a status the database can prove. Every call
the app runs here (the reads around an approval, the confirmed spending call) passes the
session's post hooks (the audit of every tool call). Pre hooks do not apply: the person
has confirmed, and `prepare` / `recheck` validate the action against fresh reads.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from swiggy_core.approval import (
    ApprovalInvalid,
    ApprovalView,
    approval_amount,
    execute,
    placed_ids,
    prepare,
    recheck,
    reconcile,
)
from swiggy_core.approval_tool import ApprovalAnswer, ApprovalRequest
from swiggy_core.engine import StreamFailed, ToolFinished, ToolStarted, TurnSetup
from swiggy_core.errors import ErrorCode
from swiggy_core.hooks import NO_HOOKS, CallScope, ToolHooks, outcome_of
from swiggy_core.limits import SpendingLimitExceeded, budget_for, india_day
from swiggy_core.mcp.client import McpCallError
from swiggy_core.mcp.manager import McpManager, ToolOutput
from swiggy_core.models import ContentBlock, ErrorInfo, ToolUseBlock, block_pairs
from swiggy_core.parsers import ParsedToolResult, StatusResult, parse_tool_result
from swiggy_core.store import ApprovalRecord, ChatStore, NewApproval
from swiggy_core.turn_handle import TurnHandle
from swiggy_core.verticals import Vertical

_RESULT_KEEP_CHARS = 20_000


def spend_facts(record: ApprovalRecord, now: datetime) -> dict[str, Any]:
    """What a running spend counts against the daily limit (`swiggy_core.limits`): stored on
    the approval from the moment it is confirmed, before its call runs."""
    amount = approval_amount(ApprovalView.model_validate(record.view))
    return {"amount": amount, "day": india_day(now)}


@dataclass(frozen=True)
class SessionSteps:
    """Approval work for one vertical of one person."""

    store: ChatStore
    user_id: str
    vertical: Vertical
    setup: TurnSetup
    manager: McpManager
    expires_at: Callable[[], datetime]
    now: Callable[[], datetime] = field(default=lambda: datetime.now(UTC))
    conversation_id: str | None = None

    def open_approval(
        self,
        request: tuple[ToolUseBlock, ApprovalRequest],
        conversation_id: str,
        handle: TurnHandle,
    ) -> ApprovalAnswer | None:
        """Store a pending approval; or the refusal the model must hear (None = pending)."""
        use, asked = request
        try:
            budget = budget_for(self.store, self.user_id, self.now())
            prepared = prepare(self.vertical, asked, self.setup.address, self._read, budget)
        except SpendingLimitExceeded as error:
            # Above a limit: nothing is stored as pending; the person sees the coded reason.
            self._audit("approval_over_limit", {"tool": asked.tool, "reason": error.message})
            handle.publish(StreamFailed(error=_error(error.code, error.message)))
            return ApprovalAnswer(approval="refused", tool=asked.tool, message=str(error))
        except (ApprovalInvalid, McpCallError) as error:
            self._audit("approval_refused", {"tool": asked.tool, "reason": error.message})
            return ApprovalAnswer(approval="refused", tool=asked.tool, message=error.message)
        self.store.supersede_approvals(conversation_id)  # one open question at a time
        record = self.store.create_approval(
            NewApproval(
                user_id=self.user_id,
                conversation_id=conversation_id,
                vertical_id=self.vertical.id,
                server_key=self.vertical.server_key,
                tool=asked.tool,
                arguments=prepared.arguments,
                digest=prepared.digest,
                view=prepared.view.model_dump(mode="json"),
                tool_use_id=use.id,
                expires_at=self.expires_at(),
            )
        )
        self._audit(
            "approval_requested",
            {"approval": record.id, "tool": record.tool, "arguments": record.arguments},
            conversation_id,
        )
        return None

    def execute_approval(self, record: ApprovalRecord, handle: TurnHandle) -> ApprovalAnswer:
        """Re-read what it acts on, refuse if it changed, else call the tool exactly once."""
        before = placed_ids(self.vertical, self._read, record.arguments)
        facts: dict[str, Any] = {
            "before": sorted(before) if before is not None else None,
            **spend_facts(record, self.now()),
        }
        self.store.transition_approval(record.id, ["executing"], "executing", result=facts)
        try:
            changed = self._changed(record)
        except SpendingLimitExceeded as error:  # the limits may have changed since asking
            return self._refuse_over_limit(record, error, handle)
        if changed:
            self.store.transition_approval(record.id, ["executing"], "refused", note=changed)
            self._audit("approval_changed", {"approval": record.id, "reason": changed})
            message = f"{changed} Nothing was placed: look at it again and confirm anew."
            handle.publish(StreamFailed(error=_error(ErrorCode.APPROVAL_CHANGED, message)))
            return ApprovalAnswer(
                approval="refused",
                tool=record.tool,
                message=f"{changed} Nothing was run. Show the current state and ask again.",
            )
        server = self.vertical.server.name
        handle.publish(ToolStarted(record.tool_use_id, record.tool, server, record.arguments))
        run = execute(self.vertical, record.tool, record.arguments, self._call, self._read, before)
        facts["text"] = run.result_text[:_RESULT_KEEP_CHARS]
        self.store.transition_approval(record.id, ["executing"], run.status, result=facts)
        handle.publish(
            ToolFinished(record.tool_use_id, record.tool, run.status != "done", run.result_text)
        )
        self._audit(
            "spend_call",
            {
                "approval": record.id,
                "tool": record.tool,
                "input": record.arguments,
                "outcome": run.status,
                "id": _placed_id(run.card),
                # What today's spending adds up from (swiggy_core.limits.spent_on).
                "amount": approval_amount(ApprovalView.model_validate(record.view)),
                "day": india_day(self.now()),
            },
            record.conversation_id,
        )
        if run.status == "unknown":
            message = "The app could not tell whether it went through. Check your orders."
            handle.publish(StreamFailed(error=_error(ErrorCode.APPROVAL_UNKNOWN, message)))
        return run.answer

    def settle(self, record: ApprovalRecord, handle: TurnHandle) -> ApprovalAnswer:
        """An approval whose call may have run: look at the orders, never call again."""
        stored = (record.result or {}).get("before")
        before = set(stored) if isinstance(stored, list) else None
        run = reconcile(
            self.vertical,
            record.tool,
            record.arguments,
            self._read,
            before,
            reason="The earlier attempt was interrupted",
        )
        self.store.transition_approval(record.id, ["executing", "unknown"], run.status)
        self._audit(
            "spend_settled",
            {"approval": record.id, "outcome": run.status, "id": _placed_id(run.card)},
            record.conversation_id,
        )
        return run.answer

    @staticmethod
    def parse_cards(
        blocks: Sequence[ContentBlock], vertical_id: str
    ) -> dict[str, ParsedToolResult]:
        """Each tool result of a reply parsed once, by tool_use_id."""
        return {
            pair.use.id: parse_tool_result(
                pair.use.name,
                pair.result.content,  # block by block: a JSON block wins over a summary
                vertical_id,
                pair.use.input,
                is_error=pair.result.is_error,
            )
            for pair in block_pairs(blocks)
            if pair.result is not None
        }

    @staticmethod
    def answer_card(
        record: ApprovalRecord, answer: ApprovalAnswer, vertical_id: str
    ) -> ParsedToolResult:
        """The card an approval's outcome shows: the order or booking, else the reason."""
        if answer.result is not None:
            text = answer.result if isinstance(answer.result, str) else json.dumps(answer.result)
            return parse_tool_result(record.tool, text, vertical_id, record.arguments)
        return StatusResult(success=False, message=answer.message)

    def _refuse_over_limit(
        self, record: ApprovalRecord, error: SpendingLimitExceeded, handle: TurnHandle
    ) -> ApprovalAnswer:
        self.store.transition_approval(record.id, ["executing"], "refused", note=error.message)
        self._audit("approval_over_limit", {"approval": record.id, "reason": error.message})
        handle.publish(StreamFailed(error=_error(error.code, error.message)))
        return ApprovalAnswer(approval="refused", tool=record.tool, message=str(error))

    def _changed(self, record: ApprovalRecord) -> str | None:
        """Why the action differs from what the person saw; raises SpendingLimitExceeded."""
        what = "The slot" if self.vertical.server_key == "dineout" else "The cart"
        # Other approvals running now count too (a second tab confirming at the same time).
        budget = budget_for(self.store, self.user_id, self.now(), excluding=record.id)
        try:
            digest = recheck(self.vertical, record.tool, record.arguments, self._read, budget)
        except ApprovalInvalid as error:
            return f"{what} changed since you were asked: {error.message}"
        except McpCallError:
            return f"{what} could not be checked again just now."
        if digest != record.digest:
            return f"{what} changed since you were asked (another tab or an edit)."
        return None

    def _read(self, tool: str, arguments: dict[str, Any]) -> str:
        return self._call(tool, arguments)

    @property
    def _hooks(self) -> ToolHooks:
        return self.setup.hooks or NO_HOOKS

    def _scope(self) -> CallScope:
        return CallScope(self.user_id, self.vertical.id, self.conversation_id)

    def _call(self, tool: str, arguments: dict[str, Any]) -> str:
        server = self.vertical.server
        url = self.setup.server_url(server.key, server.url)
        info = self._scope().info(server.key, tool, arguments)
        started = time.perf_counter()
        try:
            output = self.manager.call_tool(
                url, self.setup.swiggy_token, tool, arguments, user=self.user_id
            )
        except McpCallError as error:
            failed = ToolOutput(str(error), True)
            self._hooks.after(outcome_of(info, failed, started, str(error.code)))
            raise
        self._hooks.after(outcome_of(info, output, started))
        text = output.envelope_text()  # the JSON envelope, also when the text was a summary
        if output.is_error and not _is_envelope(text):
            return json.dumps({"success": False, "error": {"message": output.text}})
        return text

    def _audit(
        self, action: str, detail: dict[str, Any], conversation_id: str | None = None
    ) -> None:
        detail = {"vertical": self.vertical.id, **detail}
        self.store.record_audit(self.user_id, action, detail, conversation_id=conversation_id)


def _is_envelope(text: str) -> bool:
    try:
        payload = json.loads(text)
    except ValueError:
        return False
    return isinstance(payload, dict) and "success" in payload


def _placed_id(card: ParsedToolResult) -> str | None:
    return getattr(card, "order_id", None) or getattr(card, "booking_id", None)


def _error(code: ErrorCode, message: str) -> ErrorInfo:
    return ErrorInfo(code=code.value, category="approval", message=message)
