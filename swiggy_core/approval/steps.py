"""The approval steps of a turn: open one, execute it once, settle an unclear one.

Everything here runs on the turn's thread and talks to Swiggy through the app's own MCP
client; each step leaves an audit entry and a status the database can prove. Every status
change is a checked compare-and-set: a step that loses one (another process settled the
approval meanwhile) stops there and never acts as if it had won. Every call the app runs
here (the reads around an approval, the confirmed spending call) passes the session's post
hooks (the audit of every tool call). Pre hooks do not apply: the person has confirmed,
and `prepare` / `recheck` validate the action against fresh reads.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from swiggy_core.approval import (
    ApprovalInvalid,
    ApprovalView,
    Execution,
    execute,
    placed_ids,
    prepare,
    recheck,
)
from swiggy_core.approval.execute import unknown_outcome
from swiggy_core.approval.limits import (
    AMOUNT_KEY,
    DAY_KEY,
    LIMITS_PREFERENCE,
    SETTLED_AUDIT,
    SPEND_AUDIT,
    SpendingLimitExceeded,
    budget_of,
    india_day,
)
from swiggy_core.approval.own_tool_call import execute_action
from swiggy_core.approval.own_tools import ACTION_KIND, OwnTool, prepare_action
from swiggy_core.approval.payment import PAYMENT_KEY, PAYMENT_UNDER_WAY, pending_payment
from swiggy_core.approval.request_tool import (
    ApprovalAnswer,
    ApprovalRequest,
    outcome_error,
)
from swiggy_core.approval.settle import BEFORE_KEY, CALLING_KEY, TEXT_KEY, TOLD_KEY, settle
from swiggy_core.approval.shop_calls import ShopCalls
from swiggy_core.approval.view import spend_amount
from swiggy_core.engine import StreamFailed, ToolFinished, ToolStarted, TurnSetup
from swiggy_core.errors import ErrorCode
from swiggy_core.faultpoints import pause_point
from swiggy_core.mcp.client import McpCallError
from swiggy_core.mcp.manager import McpManager, ToolOutput
from swiggy_core.mcp.transports import ServerTarget
from swiggy_core.models import ToolUseBlock
from swiggy_core.parsers import ParsedToolResult
from swiggy_core.shops import shop_for
from swiggy_core.store import ApprovalRecord, ApprovalStatus, ChatStore, NewApproval
from swiggy_core.store.approval_states import PAYING
from swiggy_core.store.tool_audit import ToolCallEntry
from swiggy_core.turn.approval_requests import refuse_request
from swiggy_core.turn.handle import TurnHandle
from swiggy_core.verticals import Vertical

_RESULT_KEEP_CHARS = 20_000
CHANGED_FOR_MODEL = "{changed} Nothing was run. Show the current state and ask again."
UNKNOWN_NOTE = (
    "We could not tell whether it went through: check your orders in the Swiggy app before "
    "trying again."
)


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
        """Store a pending approval; or the refusal the model must hear (None = pending).
        The reads that prepare it are audited in the transaction that stores it."""
        with self.store.holding_tool_calls() as reads:
            return self._open_approval(request, conversation_id, handle, reads)

    def _open_approval(
        self,
        request: tuple[ToolUseBlock, ApprovalRequest],
        conversation_id: str,
        handle: TurnHandle,
        reads: list[ToolCallEntry],
    ) -> ApprovalAnswer | None:
        use, asked = request
        own = self.own_tool(asked.tool)
        try:
            if own is not None:
                prepared = prepare_action(own, asked.arguments)
            else:
                day = india_day(self.now())
                state = self.store.spending_state(self.user_id, day, LIMITS_PREFERENCE)
                if self._waits_for_payment(state.paying):
                    raise ApprovalInvalid(PAYMENT_UNDER_WAY)
                budget = budget_of(state)
                prepared = prepare(self.vertical, asked, self.setup.address, self.read, budget)
        except SpendingLimitExceeded as error:
            # Above a limit: nothing is stored as pending; the person sees the coded reason.
            self._audit("approval_over_limit", {"tool": asked.tool, "reason": error.message})
            return refuse_request(handle, asked.tool, error, error.message)
        except ApprovalInvalid as error:
            self._audit("approval_refused", {"tool": asked.tool, "reason": error.for_model})
            return refuse_request(handle, asked.tool, error, error.for_model)
        except McpCallError as error:
            self._audit("approval_refused", {"tool": asked.tool, "reason": error.message})
            return refuse_request(handle, asked.tool, error, error.message)
        # One open question at a time: the chat's pending one is superseded as it is stored.
        self.store.open_approval(
            NewApproval(
                user_id=self.user_id,
                conversation_id=conversation_id,
                vertical_id=self.vertical.id,
                server_key=own.server.config.key if own else self.vertical.server_key,
                tool=asked.tool,
                arguments=prepared.arguments,
                digest=prepared.digest,
                view=prepared.view.model_dump(mode="json"),
                tool_use_id=use.id,
                expires_at=self.expires_at(),
            ),
            self._requested,
            reads,
        )
        return None

    def _requested(self, record: ApprovalRecord) -> tuple[str, dict[str, Any]]:
        """The audit entry of an approval just asked for."""
        detail = {"approval": record.id, "tool": record.tool, "arguments": record.arguments}
        return "approval_requested", {"vertical": self.vertical.id, **detail}

    def execute_approval(self, record: ApprovalRecord, handle: TurnHandle) -> ApprovalAnswer | None:
        """Re-read what it acts on, refuse if it changed, else call the tool exactly once.

        None when another process settled this approval meanwhile: nothing more to say.
        """
        pause_point("confirm.after_cas")
        facts = dict(record.result or {})
        if ApprovalView.model_validate(record.view).kind == ACTION_KIND:
            return execute_action(self, record, facts, handle)
        # Another order of this shop waiting for its UPI payment (asked in another chat
        # before it): placing this one too would order the same cart twice once paid.
        changed = PAYMENT_UNDER_WAY if self._paying() else self._changed(record)
        if changed:
            if not self.move(record, ApprovalStatus.REFUSED, note=changed):
                return None
            self._audit("approval_changed", {"approval": record.id, "reason": changed})
            shown = f"{changed} Nothing was placed: look at it again and confirm anew."
            code = ErrorCode.APPROVAL_CHANGED
            handle.publish(StreamFailed(error=outcome_error(code, shown)))
            return ApprovalAnswer(
                approval="refused",
                tool=record.tool,
                message=CHANGED_FOR_MODEL.format(changed=changed),
                shown=shown,
                code=code.value,
            )
        before = placed_ids(self.vertical, self.read, record.arguments)
        facts.update({BEFORE_KEY: sorted(before) if before is not None else None})
        facts[CALLING_KEY] = True
        # Written before the call: a crash from here on is settled by reading orders.
        if not self.store.record_approval_facts(record.id, ApprovalStatus.EXECUTING, facts):
            return None
        server = self.vertical.server.name
        handle.publish(ToolStarted(record.tool_use_id, record.tool, server, record.arguments))
        run = execute(self.vertical, record.tool, record.arguments, self._call, self.read, before)
        pause_point("confirm.after_call")
        run = self._hold_payment(record, run, facts)
        facts[TEXT_KEY] = run.result_text[:_RESULT_KEEP_CHARS]
        facts[TOLD_KEY] = run.answer.message
        if not self.move(record, ApprovalStatus(run.status), facts=facts):
            return None
        failed = run.status not in ("done", "awaiting_payment")
        handle.publish(ToolFinished(record.tool_use_id, record.tool, failed, run.result_text))
        self.audit_spend(record, run, facts)
        if run.status == "unknown":
            unknown = outcome_error(ErrorCode.APPROVAL_UNKNOWN, UNKNOWN_NOTE)
            handle.publish(StreamFailed(error=unknown))
        return run.answer

    def _hold_payment(
        self, record: ApprovalRecord, run: Execution, facts: dict[str, Any]
    ) -> Execution:
        """A UPI answer's payment, kept on the approval to poll and confirm by (an answer
        without its ids is unclear: the order may exist, so it is never asked for again)."""
        if run.status != "awaiting_payment":
            return run
        payment = pending_payment(run.result_text, self.now())
        if payment is None:
            reason = "Swiggy's answer about your UPI payment was unclear"
            return unknown_outcome(self.vertical, record.tool, record.arguments, reason)
        facts[PAYMENT_KEY] = payment.model_dump(mode="json")
        return run

    def settle(self, record: ApprovalRecord) -> tuple[Execution, bool]:
        """An approval whose call may have run, cut off: look at the orders, never call again.

        Returns the outcome and whether this call recorded it (False: another process did).
        """
        run = settle(self.vertical, record, self.read)
        facts = {
            **(record.result or {}),
            TEXT_KEY: run.result_text[:_RESULT_KEEP_CHARS],
            TOLD_KEY: run.answer.message,
        }
        target = ApprovalStatus(run.status)
        moved = target == record.status or self.move(
            record, target, facts=facts, start=record.status
        )
        if not moved:
            return run, False
        if self._spend_audited(record.id):
            if target != record.status:
                detail = {"approval": record.id, "outcome": run.status, "id": _placed_id(run.card)}
                self._audit(SETTLED_AUDIT, detail, record.conversation_id)
        else:
            self.audit_spend(record, run, facts, settled=True)
        return run, True

    def move(
        self,
        record: ApprovalRecord,
        target: ApprovalStatus,
        *,
        facts: dict[str, Any] | None = None,
        note: str = "",
        start: ApprovalStatus = ApprovalStatus.EXECUTING,
    ) -> bool:
        """`start` → `target` for this approval, checked; False when it lost the race."""
        return self.store.transition_approval(record.id, [start], target, result=facts, note=note)

    def audit_spend(
        self,
        record: ApprovalRecord,
        run: Execution,
        facts: dict[str, Any],
        *,
        settled: bool = False,
    ) -> None:
        detail: dict[str, Any] = {
            "approval": record.id,
            "tool": record.tool,
            "input": record.arguments,
            "outcome": run.status,
            "id": _placed_id(run.card),
            # What today's spending adds up from (swiggy_core.store.spending).
            AMOUNT_KEY: facts.get(AMOUNT_KEY, spend_amount(record) or 0),
            DAY_KEY: facts.get(DAY_KEY, india_day(self.now())),
        }
        if settled:
            detail["settled"] = "after an interruption"
        self._audit(SPEND_AUDIT, detail, record.conversation_id)

    def _paying(self) -> bool:
        """Whether a UPI order of this shop still waits for the person's payment."""
        return self._waits_for_payment(
            self.store.approvals_of_user(self.user_id, [s.value for s in PAYING])
        )

    def _waits_for_payment(self, paying: Iterable[ApprovalRecord]) -> bool:
        return any(record.server_key == self.vertical.server_key for record in paying)

    def _spend_audited(self, approval_id: str) -> bool:
        entries = self.store.audit_entries(self.user_id, actions=(SPEND_AUDIT,))
        return any(detail.get("approval") == approval_id for _action, detail in entries)

    def _changed(self, record: ApprovalRecord) -> str | None:
        """Why the action differs from what the person saw (the limits were checked in the
        compare-and-set that confirmed it)."""
        what = shop_for(self.vertical.server_key).subject
        try:
            digest = recheck(self.vertical, record.tool, record.arguments, self.read)
        except ApprovalInvalid as error:
            return f"{what} changed since you were asked: {error.message}"
        except McpCallError:
            return f"{what} could not be checked again just now."
        if digest != record.digest:
            return f"{what} changed since you were asked (another tab or an edit)."
        return None

    @property
    def calls(self) -> ShopCalls:
        """The calls the app runs itself for this approval (audited)."""
        return ShopCalls(
            self.user_id, self.vertical, self.setup, self.manager, self.conversation_id
        )

    def read(self, tool: str, arguments: dict[str, Any]) -> str:
        """One read of the vertical's server, audited (the app's own call)."""
        return self.calls.read(tool, arguments)

    def own_tool(self, name: str) -> OwnTool | None:
        """The person's own server's tool the model asked for, if it needs confirming."""
        return self.calls.own_tool(name)

    def call_server(
        self, target: ServerTarget, token: str | None, key: str, tool: str, args: dict[str, Any]
    ) -> ToolOutput:
        return self.calls.call_server(target, token, key, tool, args)

    def _call(self, tool: str, arguments: dict[str, Any]) -> str:
        return self.calls.call(tool, arguments)

    def _audit(
        self, action: str, detail: dict[str, Any], conversation_id: str | None = None
    ) -> None:
        detail = {"vertical": self.vertical.id, **detail}
        self.store.record_audit(self.user_id, action, detail, conversation_id=conversation_id)


def _placed_id(card: ParsedToolResult) -> str | None:
    return getattr(card, "order_id", None) or getattr(card, "booking_id", None)
