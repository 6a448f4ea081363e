"""One conversation's turns, owned by the core from the person's message to the stored result.

`ChatSession.send` takes the chat's lease (one reply at a time, across replicas), stores
the person's message before the model is called, then runs the turn on its own thread
(`turn_handle`), so no rerun, click, page switch or closed tab can skip the bookkeeping:
partial and final content, parsed cards, usage, approvals and audit are stored in a
`finally`, and the lease is given back after that. Pages only render the handle's events.

Spending never happens inside a model turn. The model asks through `request_confirmation`;
the session stores a pending approval; `confirm` runs that exact call once (compare-and-set
pending → executing in the database, within the person's limits) and gives the outcome back
to the model. A confirmation cut off by a crash is settled on sight (`session_settle`).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta

import anthropic

from swiggy_core.approval_tool import ApprovalAnswer
from swiggy_core.constants import APPROVAL_TTL_SECONDS
from swiggy_core.engine import RetryPolicy, StreamFailed, TurnDone, TurnSetup
from swiggy_core.errors import ErrorCode, SwiggyAssistantError
from swiggy_core.hook_rules import default_hooks
from swiggy_core.hooks import CallScope, ToolHooks
from swiggy_core.limits import (
    Budget,
    SpendingLimitExceeded,
    check_spend,
    india_day,
    load_limits,
)
from swiggy_core.logsafe import install_redaction, redaction_installed, register_secret
from swiggy_core.mcp.budget import RateBudget
from swiggy_core.mcp.manager import McpManager
from swiggy_core.models import (
    ChatMessage,
    MessageMeta,
    ToolResultBlock,
    ToolUseBlock,
    TurnResult,
    block_pairs,
    tool_pairs,
)
from swiggy_core.parsers.routing import changes_cart
from swiggy_core.session_settle import (
    Settled,
    append_answer,
    last_is_unanswered,
    settle_conversation,
)
from swiggy_core.session_steps import SessionSteps, spend_amount, spend_facts
from swiggy_core.session_support import (
    ApprovalError,
    approval_request,
    close_open_requests,
    error_info,
    not_pending_error,
)
from swiggy_core.shared_state import shared_state
from swiggy_core.store import ApprovalRecord, ApprovalStatus, ChatStore
from swiggy_core.store.approval_states import UNSETTLED
from swiggy_core.turn_handle import (
    TurnHandle,
    TurnKind,
    cancel,
    reserve,
    run_turn,
    running_turn,
)
from swiggy_core.turn_lease import HeldLease, TurnElsewhere, TurnGate
from swiggy_core.turns import stream_turn
from swiggy_core.verticals import VERTICALS, get_vertical

# A refused approval request is answered and the model tries again, at most this often.
MAX_APPROVAL_ROUNDS = 3


@dataclass
class ChatSession:
    """The turns of one conversation of one person on one vertical page."""

    store: ChatStore
    user_id: str
    vertical_id: str
    client: Callable[[], anthropic.Anthropic] = field(repr=False)  # may close over the key
    setup: TurnSetup
    manager: McpManager
    conversation_id: str | None = None
    retry_policy: RetryPolicy | None = None
    sleep: Callable[[float], None] = time.sleep
    clock: Callable[[], datetime] = field(default=lambda: datetime.now(UTC))
    gate: TurnGate | None = None  # the chat leases (default: in this session's store)

    def __post_init__(self) -> None:
        if not redaction_installed():  # no token in any log line, whoever logs it (SDKs too)
            install_redaction()
        if self.gate is None:
            self.gate = TurnGate(self.store.leases)

    def hooked_setup(self) -> TurnSetup:
        """The setup with its hooks; without its own, the session's defaults (made once)."""
        # Masked in the audit (and every log) even where a model echoes it in an argument.
        for secret in (self.setup.swiggy_token, *(s.token for s in self.setup.extra_servers)):
            register_secret(secret)
        if self.setup.hooks is None:
            self.setup = replace(self.setup, hooks=self.default_hooks())
        return self.setup

    def default_hooks(self) -> ToolHooks:
        """Every call audited to this session's store, the rate budget all replicas share,
        and the argument checks."""
        return default_hooks(self.store.record_tool_call, budget=RateBudget(shared_state()))

    # --- reading -------------------------------------------------------------------------

    def history(self) -> list[ChatMessage]:
        """Every stored message of the conversation, in order."""
        if self.conversation_id is None:
            return []
        return self.store.load_messages(self.conversation_id)

    def running(self) -> TurnHandle | None:
        """The running turn of this chat in this process (watch it)."""
        return running_turn(self.conversation_id)

    def replying_elsewhere(self) -> bool:
        """True while another process (or replica) is replying in this chat."""
        return self.running() is None and self._gate.busy(self.conversation_id)

    def interrupted(self, history: list[ChatMessage]) -> bool:
        """The newest message has no reply and no turn is running for it anywhere: the
        process answering it died. Retry answers it."""
        if not last_is_unanswered(history) or self.running() is not None:
            return False
        return not self._gate.busy(self.conversation_id)

    def pending_approval(self) -> ApprovalRecord | None:
        """The approval waiting for the person's decision (expired ones end here)."""
        if self.conversation_id is None:
            return None
        # Read-only on purpose (a page view must not write); expiry is enforced by the
        # compare-and-set in `confirm`.
        now = self.clock()
        pending = self.store.approvals_for(self.conversation_id, ["pending"])
        alive = [record for record in pending if record.expires_at > now]
        return alive[-1] if alive else None

    # --- acting --------------------------------------------------------------------------

    def send(self, message: ChatMessage) -> TurnHandle:
        """Store the person's message first (never lost), then run the reply off-thread.

        Before that, the chat is brought up to date: a confirmation cut off by a crash is
        settled, so the model never hears "did not confirm" for something confirmed.
        """
        conversation_id = self._conversation()
        handle, lease = self._reserve("message")
        try:
            self.store.expire_approvals(self.clock())
            self._settle(conversation_id)
            history = self.store.load_messages(conversation_id)
            message = close_open_requests(self.store, conversation_id, history, message)
            self.store.append_messages(conversation_id, [message])
        except BaseException:
            self._abandon(handle, lease)
            raise
        return run_turn(handle, lease, lambda h: self._guarded(h, self._model_turn))

    def retry(self) -> TurnHandle:
        """Run the model again on the stored history: nothing is resent, nothing re-spent."""
        self._conversation()
        handle, lease = self._reserve("retry")
        return run_turn(handle, lease, lambda h: self._guarded(h, self._retry_turn))

    def settle_on_sight(self) -> Settled:
        """When the chat is opened: settle confirmations whose turn died and show their
        outcome. Nothing happens while a live turn holds the chat (it is not cut off)."""
        conversation_id = self.conversation_id
        if conversation_id is None or self.running() is not None:
            return Settled()
        unsettled = self.store.approvals_for(conversation_id, [s.value for s in UNSETTLED])
        if not unsettled and not self._has_open_outcome(conversation_id):
            return Settled()
        try:
            lease = self._gate.take(conversation_id, f"settle-{uuid.uuid4().hex}", "settle")
        except TurnElsewhere:
            return Settled()
        try:
            return self._settle(conversation_id)
        finally:
            lease.release()

    def confirm(self, approval_id: str) -> TurnHandle:
        """Run the approved call once (atomic pending → executing within the person's
        limits, one confirmation per person at a time), then let the model go on."""
        record = self._own_approval(approval_id)
        handle, lease = self._reserve("confirm")
        try:
            started = self._begin_spend(record)
        except SpendingLimitExceeded as error:
            return self._refuse_at_confirm(record, error, handle, lease)
        except BaseException:
            self._abandon(handle, lease)
            raise
        if not started:
            self._abandon(handle, lease)
            raise not_pending_error(self.store, approval_id)
        self.store.record_audit(
            self.user_id,
            "confirm",
            {"approval": approval_id, "tool": record.tool, "arguments": record.arguments},
            conversation_id=record.conversation_id,
        )
        body = lambda h: self._confirmed_turn(h, record)  # noqa: E731
        return run_turn(handle, lease, lambda h: self._guarded(h, body))

    def decline(self, approval_id: str) -> TurnHandle:
        """Cancel: the model hears that the person said no."""
        record = self._own_approval(approval_id)
        handle, lease = self._reserve("decline")
        try:
            moved = self.store.transition_approval(
                approval_id, [ApprovalStatus.PENDING], ApprovalStatus.DECLINED
            )
            if not moved:
                raise not_pending_error(self.store, approval_id)
            self.store.record_audit(
                self.user_id,
                "decline",
                {"approval": approval_id, "tool": record.tool},
                conversation_id=record.conversation_id,
            )
            answer = ApprovalAnswer(
                approval="declined", tool=record.tool, message="The person pressed Cancel."
            )
            append_answer(self.store, record, answer)
        except BaseException:
            self._abandon(handle, lease)
            raise
        return run_turn(handle, lease, lambda h: self._guarded(h, self._model_turn))

    def _begin_spend(self, record: ApprovalRecord) -> bool:
        """pending → executing, stamped with its amount and day, if the limits allow it."""
        amount = spend_amount(record)
        limits = load_limits(self.store, self.user_id)
        now = self.clock()

        def check(spent_today: int) -> None:
            check_spend(Budget(limits, spent_today), amount)

        return self.store.begin_spend(
            record.id,
            self.user_id,
            spend_facts(record, now),
            check,
            day=india_day(now),
            now=now,
        )

    def _refuse_at_confirm(
        self,
        record: ApprovalRecord,
        error: SpendingLimitExceeded,
        handle: TurnHandle,
        lease: HeldLease,
    ) -> TurnHandle:
        """Over a limit at Confirm: nothing runs; the person and the model hear why."""
        try:
            moved = self.store.transition_approval(
                record.id, [ApprovalStatus.PENDING], ApprovalStatus.REFUSED, note=error.message
            )
            if not moved:
                raise not_pending_error(self.store, record.id)
            self.store.record_audit(
                self.user_id,
                "approval_over_limit",
                {"approval": record.id, "reason": error.message},
                conversation_id=record.conversation_id,
            )
        except BaseException:
            self._abandon(handle, lease)
            raise

        def body(turn: TurnHandle) -> None:
            turn.publish(StreamFailed(error=error_info(error.code, error.message)))
            answer = ApprovalAnswer(approval="refused", tool=record.tool, message=str(error))
            append_answer(self.store, record, answer)
            self._model_turn(turn)

        return run_turn(handle, lease, lambda h: self._guarded(h, body))

    # --- turns (on the turn's thread) ----------------------------------------------------

    def _reserve(self, kind: TurnKind) -> tuple[TurnHandle, HeldLease]:
        """This process's registry first (a second tab here), then the chat's lease in the
        shared store (another replica): TurnBusy or TurnElsewhere when a reply runs."""
        assert self.conversation_id is not None
        handle = reserve(self.conversation_id, kind)
        try:
            lease = self._gate.take(self.conversation_id, handle.id, kind)
        except BaseException:
            cancel(handle)
            raise
        return handle, lease

    @staticmethod
    def _abandon(handle: TurnHandle, lease: HeldLease) -> None:
        lease.release()
        cancel(handle)

    @property
    def _gate(self) -> TurnGate:
        assert self.gate is not None  # set in __post_init__
        return self.gate

    def _guarded(self, handle: TurnHandle, body: Callable[[TurnHandle], None]) -> None:
        """Any failure ends as a coded event, never as a silent thread death."""
        try:
            body(handle)
        except SwiggyAssistantError as error:
            handle.publish(StreamFailed(error=error_info(error.code, error.message)))
        except Exception as error:  # a bug must not leave the page waiting forever
            message = f"Something went wrong inside the app ({type(error).__name__})."
            handle.publish(StreamFailed(error=error_info(ErrorCode.INTERNAL, message)))

    def _model_turn(self, handle: TurnHandle) -> None:
        """Stream the model's reply; store it whatever happens; open an approval it asks for."""
        for _ in range(MAX_APPROVAL_ROUNDS):
            result = self._stream_and_store(handle)
            self._retire_on_cart_change(result)
            request = approval_request(result)
            if request is None:
                return
            answer = self._steps().open_approval(request, self._conversation(), handle)
            if answer is None:
                return  # a pending approval waits for the person
            self._append_answer_for(request[0], answer)

    def _retire_on_cart_change(self, result: TurnResult) -> None:
        """A cart changed by this reply ends every open approval on that cart (all pages)."""
        vertical = get_vertical(self.vertical_id)
        changed = any(
            pair.result is not None and not pair.result.is_error and changes_cart(pair.use.name)
            for pair in block_pairs(result.blocks)
        )
        if not changed:
            return
        for other in VERTICALS.values():
            if other.server_key != vertical.server_key:
                continue
            for info in self.store.list_conversations(self.user_id, other.id):
                self.store.supersede_approvals(
                    info.id, vertical.server_key, note="The cart changed after it was shown."
                )

    def _stream_and_store(self, handle: TurnHandle) -> TurnResult:
        result = TurnResult()
        try:
            messages = self.history()
            events = stream_turn(
                self.client(),
                self.hooked_setup(),
                messages,
                manager=self.manager,
                retry_policy=self.retry_policy,
                sleep=self.sleep,
                should_stop=handle.stop_requested,
                on_abortable=handle.set_abort,
                scope=self._scope(),
            )
            for event in events:
                if isinstance(event, TurnDone):
                    result = event.result
                else:
                    handle.publish(event)
        except Exception:
            result.error = result.error or error_info(ErrorCode.INTERNAL, "The reply broke off.")
            raise
        finally:
            handle.usage = handle.usage + result.usage
            self.store.append_messages(self._conversation(), [self._reply(result, handle)])
        return result

    def _confirmed_turn(self, handle: TurnHandle, record: ApprovalRecord) -> None:
        answer = self._steps().execute_approval(record, handle)
        if answer is None:  # settled by another process meanwhile: it told the model
            return
        append_answer(self.store, record, answer)
        self._model_turn(handle)

    def _retry_turn(self, handle: TurnHandle) -> None:
        self._settle(self._conversation())
        self._model_turn(handle)

    def _settle(self, conversation_id: str) -> Settled:
        """Settle cut-off confirmations and answer their requests (the lease is held)."""
        return settle_conversation(self.store, conversation_id, self._steps_for)

    def _has_open_outcome(self, conversation_id: str) -> bool:
        """A decided confirmation whose request the history has not answered (a crash
        between the outcome and its answer)."""
        decided = [ApprovalStatus.DONE, ApprovalStatus.FAILED, ApprovalStatus.REFUSED]
        records = self.store.approvals_for(conversation_id, decided)
        if not records:
            return False
        history = self.history()
        answered_ids = {p.use.id for p in tool_pairs(history) if p.result is not None}
        return any(record.tool_use_id not in answered_ids for record in records)

    # --- helpers -------------------------------------------------------------------------

    def _steps(self) -> SessionSteps:
        return self._steps_for(self.vertical_id)

    def _steps_for(self, vertical_id: str) -> SessionSteps:
        return SessionSteps(
            store=self.store,
            user_id=self.user_id,
            vertical=get_vertical(vertical_id),
            setup=self.hooked_setup(),
            manager=self.manager,
            expires_at=lambda: self.clock() + timedelta(seconds=APPROVAL_TTL_SECONDS),
            conversation_id=self.conversation_id,
            now=self.clock,  # one clock for the confirm stamp, the limit check and the audit
        )

    def _scope(self) -> CallScope:
        """Whose tool calls these are (the hooks and the audit read it)."""
        return CallScope(self.user_id, self.vertical_id, self._conversation())

    def _conversation(self) -> str:
        if self.conversation_id is None:
            self.conversation_id = self.store.create_conversation(self.user_id, self.vertical_id)
        return self.conversation_id

    def _reply(self, result: TurnResult, handle: TurnHandle) -> ChatMessage:
        vertical_id = self.vertical_id
        meta = MessageMeta(
            usage=result.usage,
            cards=SessionSteps.parse_cards(result.blocks, vertical_id),
            error=result.error,
            stopped=result.stopped,
            # A failed reply stays on screen; the model gets the question again on Retry.
            excluded=result.error is not None,
            turn_id=handle.id,
        )
        return ChatMessage(role="assistant", content=list(result.blocks), meta=meta)

    def _append_answer_for(self, use: ToolUseBlock, answer: ApprovalAnswer) -> None:
        block = ToolResultBlock(tool_use_id=use.id, is_error=True, content=answer.as_text())
        self.store.append_messages(
            self._conversation(), [ChatMessage(role="user", content=[block])]
        )

    def _own_approval(self, approval_id: str) -> ApprovalRecord:
        record = self.store.get_approval(approval_id)
        if (
            record is None
            or record.user_id != self.user_id
            or record.conversation_id != self.conversation_id
        ):
            raise ApprovalError(
                "There is nothing waiting for your confirmation here.",
                code=ErrorCode.APPROVAL_NOT_PENDING,
            )
        return record


__all__ = ["ApprovalError", "ChatSession"]
