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

from swiggy_core import session_confirm
from swiggy_core.constants import APPROVAL_TTL_SECONDS
from swiggy_core.engine import RetryPolicy, StreamFailed, TurnDone, TurnSetup
from swiggy_core.errors import ActionRefused, ErrorCode, SwiggyAssistantError
from swiggy_core.hook_rules import default_hooks
from swiggy_core.hooks import CallScope, ToolHooks
from swiggy_core.limits import (
    SpendingLimitExceeded,
)
from swiggy_core.logsafe import install_redaction, redaction_installed, register_secret
from swiggy_core.mcp.budget import RateBudget
from swiggy_core.mcp.manager import McpManager
from swiggy_core.models import (
    ChatMessage,
    TurnResult,
)
from swiggy_core.parsers import AddressItem
from swiggy_core.parsers.cards import latest_request
from swiggy_core.redo import (
    NOTHING_TO_REDO,
    RedoOptions,
    edited_message,
    redo_options,
    regenerate_message,
)
from swiggy_core.session_settle import (
    Settled,
    append_answer,
    last_is_unanswered,
    needs_settling,
    settle_conversation,
)
from swiggy_core.session_steps import SessionSteps
from swiggy_core.session_support import (
    approval_request,
    close_open_requests,
    error_info,
    not_pending_error,
    own_approval,
    refusal_message,
    reply_message,
    retire_on_cart_change,
)
from swiggy_core.shared_state import shared_state
from swiggy_core.store import ApprovalRecord, ChatStore
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
from swiggy_core.verticals import get_vertical

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
    # The time the model is told (default: real time); the sandbox passes its shop's clock.
    moment: Callable[[], datetime] | None = None
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
        return self._ask("message", lambda _history: message)

    def edit_last(self, words: str) -> TurnHandle:
        """Send the person's last message again as `words`: the model answers the edited
        one. The earlier turn stays (messages are only appended); nothing in it is undone
        or done twice (see `swiggy_core.redo`)."""
        approvals = self._redo_approvals()
        return self._ask("edit", lambda history: edited_message(history, approvals(), words))

    def regenerate(self) -> TurnHandle:
        """A fresh reply to the person's last message, asked again like an edit with the
        same words: a confirmation the last reply asked for is superseded, never doubled."""
        approvals = self._redo_approvals()
        return self._ask("regenerate", lambda history: regenerate_message(history, approvals()))

    def redo_options(self, history: list[ChatMessage]) -> RedoOptions:
        """Whether the person's last message can be edited or asked again right now."""
        if self.conversation_id is None:
            return RedoOptions()
        return redo_options(history, self.store.approvals_for(self.conversation_id))

    def retry(self) -> TurnHandle:
        """Run the model again on the stored history: nothing is resent, nothing re-spent."""
        self._conversation()
        handle, lease = self._reserve("retry")
        return run_turn(handle, lease, lambda h: self._guarded(h, self._retry_turn))

    def settle_on_sight(self) -> Settled:
        """When the chat is opened: settle confirmations whose turn died and show their
        outcome. Nothing happens while a live turn holds the chat (it is not cut off)."""
        conversation_id = self.conversation_id
        if conversation_id is None:
            return Settled()
        if self.running() is not None:
            return Settled(deferred=True)
        if not needs_settling(self.store, conversation_id):
            return Settled()
        try:
            lease = self._gate.take(conversation_id, f"settle-{uuid.uuid4().hex}", "settle")
        except TurnElsewhere:
            return Settled(deferred=True)
        try:
            return self._settle(conversation_id)
        finally:
            lease.release()

    def confirm(self, approval_id: str, address: AddressItem | None = None) -> TurnHandle:
        """Run the approved call once (atomic pending → executing within the person's
        limits, one confirmation per person at a time), then let the model go on.

        `address`: another of the saved addresses the dialog offered (the order is read
        again for it; if it then differs from what was shown, nothing runs: E-1103).
        """
        record = self._own_approval(approval_id)
        if address is not None and address.address_id != record.arguments.get("addressId"):
            record = session_confirm.readdress(self._steps(), record, address)
        handle, lease = self._reserve("confirm")
        try:
            started = session_confirm.begin_spend(self.store, self.user_id, record, self.clock())
        except SpendingLimitExceeded as error:
            # Over a limit at Confirm: nothing runs; the person and the model hear why.
            try:
                session_confirm.refuse_over_limit(self.store, self.user_id, record, error)
            except BaseException:
                self._abandon(handle, lease)
                raise
            failure = StreamFailed(error=session_confirm.refused_notice(error))

            def refused(turn: TurnHandle) -> None:
                turn.publish(failure)
                self._model_turn(turn)

            return run_turn(handle, lease, lambda h: self._guarded(h, refused))
        except BaseException:
            self._abandon(handle, lease)
            raise
        if not started:
            self._abandon(handle, lease)
            raise not_pending_error(self.store, approval_id)
        confirmed = lambda h: self._confirmed_turn(h, record)  # noqa: E731
        return run_turn(handle, lease, lambda h: self._guarded(h, confirmed))

    def decline(self, approval_id: str) -> TurnHandle:
        """Cancel: the model hears that the person said no."""
        record = self._own_approval(approval_id)
        handle, lease = self._reserve("decline")
        try:
            session_confirm.decline(self.store, self.user_id, record)
        except BaseException:
            self._abandon(handle, lease)
            raise
        return run_turn(handle, lease, lambda h: self._guarded(h, self._model_turn))

    # --- turns (on the turn's thread) ----------------------------------------------------

    def _ask(self, kind: TurnKind, make: Callable[[list[ChatMessage]], ChatMessage]) -> TurnHandle:
        """Store the message `make` builds from the settled history, then answer it."""
        conversation_id = self._conversation()
        handle, lease = self._reserve(kind)
        try:
            self.store.expire_approvals(self.clock())
            self._settle(conversation_id)
            history = self.store.load_messages(conversation_id)
            message = close_open_requests(self.store, conversation_id, history, make(history))
            self.store.append_messages(conversation_id, [message])
        except BaseException:
            self._abandon(handle, lease)
            raise
        return run_turn(handle, lease, lambda h: self._guarded(h, self._model_turn))

    def _redo_approvals(self) -> Callable[[], list[ApprovalRecord]]:
        """The chat's approvals, read when the redo is built (after settling)."""
        conversation_id = self.conversation_id
        if conversation_id is None:
            raise ActionRefused(NOTHING_TO_REDO, code=ErrorCode.NOTHING_TO_REDO)
        return lambda: self.store.approvals_for(conversation_id)

    def _reserve(self, kind: TurnKind) -> tuple[TurnHandle, HeldLease]:
        """This process's registry first (a second tab here), then the chat's lease in the
        shared store (another replica): E-1105 or TurnElsewhere when a reply runs."""
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
            retire_on_cart_change(self.store, self.user_id, self.vertical_id, result)
            request = approval_request(result)
            if request is None:
                return
            answer = self._steps().open_approval(request, self._conversation(), handle)
            if answer is None:
                return  # a pending approval waits for the person
            refusal = refusal_message(request[0], answer)
            self.store.append_messages(self._conversation(), [refusal])

    def _stream_and_store(self, handle: TurnHandle) -> TurnResult:
        result = TurnResult()
        asked: str | None = None  # what search cards are ranked against
        try:
            messages = self.history()
            asked = latest_request(messages)
            events = stream_turn(
                self.client(),
                self.hooked_setup(),
                messages,
                now=self.moment() if self.moment is not None else None,
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
            if result.stopped:
                handle.mark_cut()
            reply = reply_message(result, handle.id, self.vertical_id, asked)
            self.store.append_messages(self._conversation(), [reply])
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

    def _own_approval(self, approval_id: str) -> ApprovalRecord:
        return own_approval(self.store, approval_id, self.user_id, self.conversation_id)


__all__ = ["ChatSession"]
