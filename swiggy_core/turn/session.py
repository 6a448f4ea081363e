"""One conversation's turns, owned by the core from the person's message to the stored result.

`send` takes the chat's lease (one reply at a time, across replicas), stores the person's
message before the model is called, and runs the reply on its own thread (`turn.handle`):
no rerun, click or closed tab can skip the bookkeeping stored in its `finally`. Spending
never happens inside a model turn: the model asks through `request_confirmation`, and
`confirm` runs that exact stored call once (`swiggy_core.approval`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from swiggy_core.approval import decision as session_confirm
from swiggy_core.approval.on_sight import (
    Settled,
    append_answer,
    last_is_unanswered,
    settle_conversation,
    settle_held,
)
from swiggy_core.approval.payment import chosen_id
from swiggy_core.approval.steps import SessionSteps
from swiggy_core.approval.upi import PaymentProgress, advance_payment
from swiggy_core.constants import APPROVAL_TTL_SECONDS
from swiggy_core.engine import RetryPolicy, StreamFailed, TurnSetup
from swiggy_core.hooks import CallScope
from swiggy_core.hooks.rules import default_hooks
from swiggy_core.logsafe import install_redaction, redaction_installed, register_secret
from swiggy_core.mcp.budget import RateBudget
from swiggy_core.mcp.manager import McpManager
from swiggy_core.models import ChatMessage, ErrorInfo, TurnResult
from swiggy_core.parsers import AddressItem
from swiggy_core.redo import (
    RedoOptions,
    approvals_to_redo,
    edited_message,
    redo_options,
    regenerate_message,
)
from swiggy_core.shared_state import shared_state
from swiggy_core.store import ApprovalRecord, ChatStore
from swiggy_core.store.history_cache import EMPTY_HISTORY, History
from swiggy_core.turn.approval_requests import close_open_requests, own_approval
from swiggy_core.turn.handle import (
    TurnHandle,
    TurnKind,
    abandon,
    reserve_with_lease,
    run_turn,
    running_turn,
)
from swiggy_core.turn.lease import TurnGate
from swiggy_core.turn.reply import guarded, model_turn, stream_and_store
from swiggy_core.verticals import get_vertical

if TYPE_CHECKING:  # the SDK loads with the client a turn asks for, not with the page
    import anthropic


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
        """The setup with its hooks; without its own, the session's defaults (made once):
        every call audited to this store, the rate budget all replicas share, the checks."""
        # Masked in the audit (and every log) even where a model echoes it in an argument.
        for secret in (self.setup.swiggy_token, *(s.token for s in self.setup.extra_servers)):
            register_secret(secret)
        if self.setup.hooks is None:
            hooks = default_hooks(self.store.record_tool_call, budget=RateBudget(shared_state()))
            self.setup = replace(self.setup, hooks=hooks)
        return self.setup

    # --- reading -------------------------------------------------------------------------

    def history(self) -> list[ChatMessage]:
        """Every stored message of the conversation, in order."""
        if self.conversation_id is None:
            return []
        return self.store.load_messages(self.conversation_id)

    def transcript(self) -> History:
        """The stored messages with where each turn begins (what a page draws from)."""
        if self.conversation_id is None:
            return EMPTY_HISTORY
        return self.store.load_history(self.conversation_id)

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
        return not self._gate.busy(self.conversation_id) and not self.answered_since(history)

    def answered_since(self, history: list[ChatMessage]) -> bool:
        """`history`'s newest message had no reply, and the stored chat has one now: its
        turn ended after `history` was read (never "interrupted" for a reply that came)."""
        return last_is_unanswered(history) and not last_is_unanswered(self.history())

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

    def send_answered(
        self, message: ChatMessage, answer: Callable[[TurnHandle], ChatMessage]
    ) -> TurnHandle:
        """Store the person's message first, then the app's own reply that `answer` builds
        on the turn's thread (a shopping list's basket review): no model call."""
        conversation_id = self._conversation()

        def body(turn: TurnHandle) -> None:
            self.store.append_messages(conversation_id, [answer(turn)])

        return self._ask("message", lambda _history: message, body)

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
        return self._start("retry", lambda: None, self._retry_turn)

    def settle_on_sight(self) -> Settled:
        """When the chat is opened: settle confirmations whose turn died and show their
        outcome. Nothing happens while a live turn holds the chat (it is not cut off)."""
        if self.conversation_id is None:
            return Settled()
        if self.running() is not None:
            return Settled(deferred=True)
        return settle_held(self.store, self._gate, self.conversation_id, self._settle)

    def confirm(
        self, approval_id: str, address: AddressItem | None = None, payment: str | None = None
    ) -> TurnHandle:
        """Run the approved call once (atomic pending → executing within the person's
        limits, one confirmation per person at a time), then let the model go on.

        `address`: another of the saved addresses the dialog offered; `payment`: the way
        to pay chosen there (an id of its payment choices). The order is read again for
        them; if it then differs from what was shown, nothing runs (E-1103).
        """
        record = self._own_approval(approval_id)
        if address is not None and address.address_id == record.arguments.get("addressId"):
            address = None
        if payment is not None and payment == chosen_id(record.arguments):
            payment = None
        if address is not None or payment is not None:
            record = session_confirm.rechoose(self._steps(), record, address, payment)
        refused: ErrorInfo | None = None

        def begin() -> None:
            nonlocal refused
            refused = session_confirm.begin_confirm(self.store, self.user_id, record, self.clock())

        def body(turn: TurnHandle) -> None:
            if refused is None:
                self._confirmed_turn(turn, record)
            else:  # over a limit at Confirm: nothing runs; the person and the model hear why
                turn.publish(StreamFailed(error=refused))
                self._model_turn(turn)

        return self._start("confirm", begin, body)

    def advance_payment(self, approval_id: str) -> PaymentProgress:
        """One step of this chat's UPI payment (a poll, or the confirm once paid)."""
        record = self._own_approval(approval_id)
        return advance_payment(self._steps_for(record.vertical_id), record)

    def decline(self, approval_id: str) -> TurnHandle:
        """Cancel: the model hears that the person said no."""
        record = self._own_approval(approval_id)
        decline = lambda: session_confirm.decline(self.store, self.user_id, record)  # noqa: E731
        return self._start("decline", decline, self._model_turn)

    # --- turns (on the turn's thread) ----------------------------------------------------

    def _ask(
        self,
        kind: TurnKind,
        make: Callable[[list[ChatMessage]], ChatMessage],
        answer: Callable[[TurnHandle], None] | None = None,
    ) -> TurnHandle:
        """Store the message `make` builds from the settled history, then answer it (by
        the model unless `answer` is given)."""
        conversation_id = self._conversation()

        def store_message() -> None:
            self.store.expire_approvals(self.clock())
            settled = self._settle(conversation_id)  # under the lease: the chat as it is
            history = list(settled.history.messages)
            message = close_open_requests(
                self.store, conversation_id, history, make(history), settled.requests
            )
            self.store.append_messages(conversation_id, [message])

        return self._start(kind, store_message, answer or self._model_turn)

    def _redo_approvals(self) -> Callable[[], list[ApprovalRecord]]:
        return approvals_to_redo(self.store, self.conversation_id)

    def _start(
        self, kind: TurnKind, before: Callable[[], None], body: Callable[[TurnHandle], None]
    ) -> TurnHandle:
        """Reserve the chat (E-1105 or TurnElsewhere while a reply runs), do `before` on
        this thread (a failure gives the chat back and raises), then run `body` on the
        turn's own thread, any failure there ending as a coded event."""
        assert self.conversation_id is not None
        handle, lease = reserve_with_lease(self._gate, self.conversation_id, kind)
        try:
            before()
        except BaseException:
            abandon(handle, lease)
            raise
        return run_turn(handle, lease, lambda turn: guarded(turn, body))

    @property
    def _gate(self) -> TurnGate:
        assert self.gate is not None  # set in __post_init__
        return self.gate

    def _model_turn(self, handle: TurnHandle) -> None:
        model_turn(self, handle)

    def _stream_and_store(self, handle: TurnHandle) -> TurnResult:
        return stream_and_store(self, handle)

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

    def approval_steps(self) -> SessionSteps:
        """The approval steps of this chat's shop (open, execute once, settle)."""
        return self._steps_for(self.vertical_id)

    _steps = approval_steps

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

    def scope(self) -> CallScope:
        """Whose tool calls these are (the hooks and the audit read it)."""
        return CallScope(self.user_id, self.vertical_id, self._conversation())

    def conversation_id_or_new(self) -> str:
        """The conversation, created on first use (a first message has none yet)."""
        if self.conversation_id is None:
            self.conversation_id = self.store.create_conversation(self.user_id, self.vertical_id)
        return self.conversation_id

    _conversation = conversation_id_or_new

    def _own_approval(self, approval_id: str) -> ApprovalRecord:
        return own_approval(self.store, approval_id, self.user_id, self.conversation_id)


__all__ = ["ChatSession"]
