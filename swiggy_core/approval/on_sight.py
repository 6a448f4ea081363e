"""Bring a chat's confirmations up to date before anyone acts on it.

Run while holding the chat's lease (so no live turn is mid-confirmation), when the chat is
opened, before a new message is answered and on Retry:
1. every approval left `executing` or `unknown` (its turn died) is settled by reading
   orders, never by calling the spending tool again;
2. every confirmed approval whose request the history has not answered yet gets its
   answer (with the order card, or the "could not tell" card) where the dialog was, so
   the model hears the true outcome and the person sees it.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from swiggy_core.approval.request_tool import ApprovalAnswer
from swiggy_core.approval.settle import answer_of
from swiggy_core.approval.steps import SessionSteps
from swiggy_core.models import ChatMessage, MessageMeta, ToolResultBlock
from swiggy_core.parsers import ParsedToolResult, StatusResult, parse_tool_result
from swiggy_core.store import ApprovalRecord, ApprovalStatus, ChatStore
from swiggy_core.store.approval_states import PAYING, UNSETTLED
from swiggy_core.store.history_cache import EMPTY_HISTORY, History
from swiggy_core.turn.lease import TurnElsewhere, TurnGate
from swiggy_core.verticals import get_vertical


@dataclass(frozen=True, slots=True)
class Settled:
    """What bringing a chat up to date did."""

    settled: tuple[ApprovalRecord, ...] = ()  # approvals moved out of executing/unknown
    answered: tuple[str, ...] = ()  # tool_use ids that got their answer now
    deferred: bool = False  # a live turn held the chat: nothing was looked at; look again
    # The approvals of requests still open after settling (a pending one, say), as read.
    requests: tuple[ApprovalRecord, ...] = ()
    history: History = EMPTY_HISTORY  # the chat as settling left it (read under the lease)

    @property
    def changed(self) -> bool:
        return bool(self.settled or self.answered)


def settle_held(
    store: ChatStore,
    gate: TurnGate,
    conversation_id: str,
    settle: Callable[[str], Settled],
) -> Settled:
    """Settle a chat under its lease (taken here); deferred while a reply elsewhere holds it."""
    if not needs_settling(store, conversation_id):
        return Settled()
    try:
        lease = gate.take(conversation_id, f"settle-{uuid.uuid4().hex}", "settle")
    except TurnElsewhere:
        return Settled(deferred=True)
    try:
        return settle(conversation_id)
    finally:
        lease.release()


def settle_conversation(
    store: ChatStore,
    conversation_id: str,
    steps_for: Callable[[str], SessionSteps],
) -> Settled:
    """Settle the chat's cut-off confirmations and answer what the history left open.

    `steps_for(vertical_id)` gives the approval steps of that vertical (its MCP reads).
    The caller holds the chat's lease.
    """
    history = store.load_history(conversation_id)
    open_uses = history.open_uses  # kept with the history: no scan of the chat
    found = store.approvals_to_settle(conversation_id, open_uses)
    unsettled = [record for record in found if record.status in UNSETTLED]
    settled: list[ApprovalRecord] = []
    for record in unsettled:
        run, recorded = steps_for(record.vertical_id).settle(record)
        if recorded and run.status != record.status:
            settled.append(record)
    if unsettled:  # settled here or elsewhere: the open requests' approvals read afresh
        found = store.approvals_for(conversation_id, tool_use_ids=open_uses)
    requests = [record for record in found if record.tool_use_id in open_uses]
    answered: list[str] = []
    for record in requests:
        if record.status in _OUTCOMES:  # decided (or still unknown): its answer is due
            append_answer(store, record, answer_of(get_vertical(record.vertical_id), record))
            answered.append(record.tool_use_id)
    still_open = tuple(record for record in requests if record.tool_use_id not in answered)
    if answered:  # the answers were appended: the chat as it is now
        history = store.load_history(conversation_id)
    return Settled(tuple(settled), tuple(answered), requests=still_open, history=history)


# Confirmed ones: what happened to the money is told at once. A request the person left
# open (expired, superseded) is answered with their next message instead.
# A UPI order waiting for its payment is answered too (its payment panel shows how it goes).
_OUTCOMES = (
    frozenset(
        {ApprovalStatus.DONE, ApprovalStatus.FAILED, ApprovalStatus.UNKNOWN, ApprovalStatus.REFUSED}
    )
    | PAYING
)


def append_answer(store: ChatStore, record: ApprovalRecord, answer: ApprovalAnswer) -> None:
    """The outcome as the request's tool result, with its card (the dialog's place)."""
    card = answer_card(record, answer)
    block = ToolResultBlock(tool_use_id=record.tool_use_id, content=answer.as_text())
    meta = MessageMeta(approval_id=record.id, cards={record.tool_use_id: card})
    store.append_messages(
        record.conversation_id, [ChatMessage(role="user", content=[block], meta=meta)]
    )


def needs_settling(store: ChatStore, conversation_id: str) -> bool:
    """Whether the chat has a confirmation to settle or an outcome to show (one read of
    the approvals, whatever the chat's length and past orders)."""
    open_uses = store.load_history(conversation_id).open_uses
    return any(
        record.status in UNSETTLED
        or (record.tool_use_id in open_uses and record.status in _OUTCOMES)
        for record in store.approvals_to_settle(conversation_id, open_uses)
    )


def last_is_unanswered(history: list[ChatMessage]) -> bool:
    """True when the newest stored message is the person's (or an outcome) with no reply."""
    return bool(history) and history[-1].role == "user"


def answer_card(record: ApprovalRecord, answer: ApprovalAnswer) -> ParsedToolResult:
    """The card an approval's outcome shows: the order or booking, else the reason in the
    person's words (never the model's instructions) with its code for support."""
    if answer.result is not None:
        text = answer.result if isinstance(answer.result, str) else json.dumps(answer.result)
        return parse_tool_result(record.tool, text, record.vertical_id, record.arguments)
    return StatusResult(success=False, message=answer.shown or NOT_DONE, code=answer.code)


NOT_DONE = "This was not done."
