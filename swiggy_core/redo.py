"""Edit and resend the last message, or regenerate the last reply, without losing anything.

Messages are only ever appended, so neither control rewrites the chat: each stores a new
message of the person that asks again (the edited words, or the same words for a fresh
reply) with a short note for the model, and the model answers that one. The earlier turn
stays where it was, on screen and in the model's view, so nothing done in it is lost or
done twice: what it put in the cart is still there, and a confirmation it asked for is
answered as superseded by the new message. A turn in which a confirmed order or booking
ran (or may have run) cannot be redone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from swiggy_core.actions import REDO_TAG, check_typed, typed_message, visible_text
from swiggy_core.errors import ActionRefused, ErrorCode, InputError
from swiggy_core.models import ChatMessage, MessageMeta, TextBlock, ToolResultBlock, tool_pairs
from swiggy_core.store import ApprovalRecord, ChatStore
from swiggy_core.store.approval_states import COUNTED

EDIT_NOTE_FOR_MODEL: Final = (
    "I edited my previous message: the words above are the new version. Answer this one "
    "instead of the earlier one. What is already in my cart, booked or ordered stays as it is."
)
REGENERATE_NOTE_FOR_MODEL: Final = (
    "I'm asking this again for a fresh answer. What is already in my cart, booked or ordered "
    "stays as it is: don't add, book or order anything a second time."
)
RedoKind = Literal["edit", "regenerate"]
_NOTES: Final[dict[RedoKind, str]] = {
    "edit": EDIT_NOTE_FOR_MODEL,
    "regenerate": REGENERATE_NOTE_FOR_MODEL,
}
NOTHING_TO_REDO: Final = "There is no answered message of yours here to edit or ask again."
SPENT_IN_TURN: Final = (
    "An order or booking you confirmed came from that reply, so it can't be redone. "
    "Send a new message instead."
)


@dataclass(frozen=True, slots=True)
class RedoOptions:
    """What the person may redo now, and the words of their last message."""

    words: str = ""
    edit: bool = False
    regenerate: bool = False


def redo_options(
    history: Sequence[ChatMessage], approvals: Sequence[ApprovalRecord]
) -> RedoOptions:
    """Edit and regenerate apply to the person's last typed message once it has a reply,
    unless a confirmed order or booking ran (or may have run) after it."""
    start = _last_typed(history)
    if start is None or start == len(history) - 1 or _spent_after(history, start, approvals):
        return RedoOptions()
    words = visible_text(history[start]).strip()
    return RedoOptions(words=words, edit=True, regenerate=True)


def edited_message(
    history: Sequence[ChatMessage], approvals: Sequence[ApprovalRecord], words: str
) -> ChatMessage:
    """The person's edited last message, to be answered instead of the earlier one."""
    _check(history, approvals)
    check_typed(words)
    return _asked_again(words, "edit")


def regenerate_message(
    history: Sequence[ChatMessage], approvals: Sequence[ApprovalRecord]
) -> ChatMessage:
    """The person's last message asked again, for a fresh reply."""
    return _asked_again(_check(history, approvals).words, "regenerate")


def _check(history: Sequence[ChatMessage], approvals: Sequence[ApprovalRecord]) -> RedoOptions:
    options = redo_options(history, approvals)
    if options.edit:
        return options
    start = _last_typed(history)
    if start is not None and _spent_after(history, start, approvals):
        raise ActionRefused(SPENT_IN_TURN, code=ErrorCode.NOTHING_TO_REDO)
    raise ActionRefused(NOTHING_TO_REDO, code=ErrorCode.NOTHING_TO_REDO)


def _asked_again(words: str, kind: RedoKind) -> ChatMessage:
    if not words.strip():
        raise InputError(NOTHING_TO_REDO)
    note = TextBlock(text=f"<{REDO_TAG}>{_NOTES[kind]}</{REDO_TAG}>")
    return ChatMessage(
        role="user",
        content=[TextBlock(text=typed_message(words).text()), note],
        meta=MessageMeta(redo=kind),
    )


def _last_typed(history: Sequence[ChatMessage]) -> int | None:
    """Index of the person's last message; None when it was a card button (or none)."""
    for index in range(len(history) - 1, -1, -1):
        message = history[index]
        if message.role != "user":
            continue
        blocks = message.blocks()
        if blocks and all(isinstance(block, ToolResultBlock) for block in blocks):
            continue  # the app's answer to a tool call, not something the person said
        return None if message.meta.action is not None else index
    return None


def _spent_after(
    history: Sequence[ChatMessage], start: int, approvals: Sequence[ApprovalRecord]
) -> bool:
    """Whether an approval asked for after `start` was confirmed (it ran or may have)."""
    asked = {pair.use.id for pair in tool_pairs(history[start:])}
    return any(record.tool_use_id in asked and record.status in COUNTED for record in approvals)


def approvals_to_redo(
    store: ChatStore, conversation_id: str | None
) -> Callable[[], list[ApprovalRecord]]:
    """The chat's approvals, read when the redo is built (after settling)."""
    if conversation_id is None:
        raise ActionRefused(NOTHING_TO_REDO, code=ErrorCode.NOTHING_TO_REDO)
    return lambda: store.approvals_for(conversation_id)
