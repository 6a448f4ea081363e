"""Small pieces of a session's bookkeeping: reading the model's approval request,
answering requests the person left open, and the errors a Confirm can meet."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from swiggy_core.approval.request_tool import ApprovalAnswer, ApprovalRequest
from swiggy_core.approval.settle import answer_of
from swiggy_core.constants import APPROVAL_TOOL_NAME
from swiggy_core.engine import StreamFailed
from swiggy_core.errors import ActionRefused, ErrorCode, SwiggyAssistantError
from swiggy_core.models import (
    ChatMessage,
    ErrorInfo,
    MessageMeta,
    ToolResultBlock,
    ToolUseBlock,
    TurnResult,
    block_pairs,
    tool_pairs,
)
from swiggy_core.parsers.cards import parse_cards
from swiggy_core.parsers.routing import changes_cart
from swiggy_core.store import ApprovalRecord, ApprovalStatus, ChatStore
from swiggy_core.turn.handle import TurnHandle
from swiggy_core.verticals import VERTICALS, get_vertical


def close_open_requests(
    store: ChatStore,
    conversation_id: str,
    history: list[ChatMessage],
    message: ChatMessage,
    known: Sequence[ApprovalRecord] = (),
) -> ChatMessage:
    """Answer approval requests the person left open, truthfully: a pending one is
    superseded by this message; a decided one is answered with what really happened (the
    chat has been settled first, so a confirmed one is never told "did not confirm").

    `known`: the open requests' approvals as settling just read them (under the same
    lease); they are read again only when one of the requests is not among them."""
    last = history[-1] if history else None
    asked = [
        pair.use.id
        for pair in tool_pairs([last] if last else [])
        if pair.use.name == APPROVAL_TOOL_NAME and pair.result is None
    ]
    if not asked:  # the last reply asked nothing: no approval to read
        return message
    answers: list[ToolResultBlock] = []
    records = {record.tool_use_id: record for record in known}
    if any(use_id not in records for use_id in asked):
        # Only the approvals those requests made: a chat's older ones are never read here.
        asked_records = store.approvals_for(conversation_id, tool_use_ids=asked)
        records = {record.tool_use_id: record for record in asked_records}
    for use_id in asked:
        record = records.get(use_id)
        if record is None:
            continue
        if record.status == ApprovalStatus.PENDING:
            moved = store.supersede_approvals(record.conversation_id, record.server_key, seen=True)
            if record.id in moved:  # closed by this message, as it was asked
                record = replace(record, status=ApprovalStatus.SUPERSEDED)
            else:  # confirmed (or closed) meanwhile: answer with what really happened
                record = store.get_approval(record.id) or record
        answer = answer_of(get_vertical(record.vertical_id), record)
        answers.append(ToolResultBlock(tool_use_id=record.tool_use_id, content=answer.as_text()))
    if not answers:
        return message
    return message.model_copy(update={"content": [*answers, *message.blocks()]})


def not_pending_error(store: ChatStore, approval_id: str) -> ActionRefused:
    """Why a Confirm or Cancel found its approval no longer pending, as a coded error."""
    record = store.get_approval(approval_id)
    status = record.status if record else "missing"
    if status == "expired" or (status == "pending" and record is not None):
        return ActionRefused(
            "This confirmation expired. Ask again to see the current cart or slot.",
            code=ErrorCode.APPROVAL_EXPIRED,
        )
    if status in ("executing", "done", "failed", "unknown"):
        return ActionRefused(
            "This was already confirmed once; it will not run again.",
            code=ErrorCode.APPROVAL_NOT_PENDING,
        )
    why = _CLOSED_WHY.get(status, "it was closed")
    return ActionRefused(
        f"This confirmation is no longer open: {why}. Ask again if you still want it.",
        code=ErrorCode.APPROVAL_NOT_PENDING,
    )


_CLOSED_WHY = {
    "declined": "you cancelled it",
    "superseded": "a newer question or a change to your cart replaced it",
    "refused": "it was stopped when you confirmed",
}


def approval_request(result: TurnResult) -> tuple[ToolUseBlock, ApprovalRequest] | None:
    """The model's complete request for approval, if its reply ends with one."""
    if result.error is not None or result.stopped or result.stop_reason != "tool_use":
        return None
    for block in reversed(result.blocks):
        if isinstance(block, ToolUseBlock) and block.name == APPROVAL_TOOL_NAME:
            return block, request_of(block.input)
    return None


def request_of(tool_input: dict[str, Any]) -> ApprovalRequest:
    arguments = tool_input.get("arguments")
    return ApprovalRequest(
        tool=str(tool_input.get("tool", "")),
        arguments=arguments if isinstance(arguments, dict) else {},
    )


def answered(history: list[ChatMessage], tool_use_id: str) -> bool:
    return any(p.use.id == tool_use_id and p.result is not None for p in tool_pairs(history))


def error_info(code: ErrorCode, message: str) -> ErrorInfo:
    category = "approval" if code.value.startswith("E-11") else "internal"
    if code.value.startswith("E-41"):
        category = "store"
    return ErrorInfo(code=code.value, category=category, message=message)


def retire_on_cart_change(
    store: ChatStore, user_id: str, vertical_id: str, result: TurnResult
) -> None:
    """A cart changed by this reply ends every open approval on that cart (all pages)."""
    vertical = get_vertical(vertical_id)
    changed = any(
        pair.result is not None and not pair.result.is_error and changes_cart(pair.use.name)
        for pair in block_pairs(result.blocks)
    )
    if not changed:
        return
    for other in VERTICALS.values():
        if other.server_key != vertical.server_key:
            continue
        for info in store.list_conversations(user_id, other.id):
            store.supersede_approvals(
                info.id, vertical.server_key, note="The cart changed after it was shown."
            )


def reply_message(
    result: TurnResult, turn_id: str, vertical_id: str, request: str | None = None
) -> ChatMessage:
    """The stored reply of one model turn, its cards parsed (and searches ranked) once.

    `request`: what the person last typed, which search cards are ranked against.
    """
    meta = MessageMeta(
        usage=result.usage,
        cards=parse_cards(result.blocks, vertical_id, request=request),
        error=result.error,
        stopped=result.stopped,
        # A failed reply stays on screen; the model gets the question again on Retry.
        excluded=result.error is not None,
        turn_id=turn_id,
    )
    return ChatMessage(role="assistant", content=list(result.blocks), meta=meta)


def refusal_message(use: ToolUseBlock, answer: ApprovalAnswer) -> ChatMessage:
    """The app's answer to an approval request it refused (the model may ask again)."""
    block = ToolResultBlock(tool_use_id=use.id, is_error=True, content=answer.as_text())
    return ChatMessage(role="user", content=[block])


def own_approval(
    store: ChatStore, approval_id: str, user_id: str, conversation_id: str | None
) -> ApprovalRecord:
    """The approval, if it belongs to this person's chat; else the coded refusal."""
    record = store.get_approval(approval_id)
    if record is None or record.user_id != user_id or record.conversation_id != conversation_id:
        raise ActionRefused(
            "There is nothing waiting for your confirmation here.",
            code=ErrorCode.APPROVAL_NOT_PENDING,
        )
    return record


TOLD_FOR_MODEL = "The app has shown the person this reason; do not repeat it word for word."


def refuse_request(
    handle: TurnHandle, tool: str, error: SwiggyAssistantError, for_model: str
) -> ApprovalAnswer:
    """A request refused before the person was asked: the notice says why, in their words;
    the model hears its own reason and that the person has been told."""
    notice = ErrorInfo(code=error.code.value, category="approval", message=error.message)
    handle.publish(StreamFailed(error=notice))
    return ApprovalAnswer(
        approval="refused",
        tool=tool,
        message=f"{for_model} {TOLD_FOR_MODEL}",
        shown=error.message,
        code=error.code.value,
    )
