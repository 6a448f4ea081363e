"""Edit and regenerate ask again with a new message; what they may redo; a late Stop."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import pytest

from swiggy_core.actions import CardAction, action_message, typed_message, visible_text
from swiggy_core.constants import APPROVAL_TOOL_NAME
from swiggy_core.errors import ActionRefused, ErrorCode, InputError
from swiggy_core.models import ChatMessage, TextBlock, ToolResultBlock, ToolUseBlock
from swiggy_core.redo import (
    EDIT_NOTE_FOR_MODEL,
    REGENERATE_NOTE_FOR_MODEL,
    edited_message,
    redo_options,
    regenerate_message,
)
from swiggy_core.store import ApprovalRecord, ApprovalStatus
from swiggy_core.turn.handle import start_turn

NOW = datetime(2026, 11, 20, 8, 0, tzinfo=UTC)


def _reply(text: str, *blocks: ToolUseBlock) -> ChatMessage:
    return ChatMessage(role="assistant", content=[TextBlock(text=text), *blocks])


def _asked_to_confirm() -> tuple[list[ChatMessage], ToolUseBlock]:
    use = ToolUseBlock(id="toolu_ask", name=APPROVAL_TOOL_NAME, input={"tool": "checkout"})
    history = [typed_message("milk"), _reply("Added."), typed_message("place the order")]
    return [*history, _reply("Please confirm.", use)], use


def _approval(tool_use_id: str, status: ApprovalStatus) -> ApprovalRecord:
    return ApprovalRecord(
        user_id="u",
        conversation_id="c",
        vertical_id="food",
        server_key="instamart",
        tool="checkout",
        arguments={},
        digest="d",
        view={},
        tool_use_id=tool_use_id,
        expires_at=NOW,
        id="a1",
        status=status,
        created_at=NOW,
        updated_at=NOW,
        result=None,
        note="",
    )


def test_an_edit_is_a_new_message_with_the_new_words_and_a_note_for_the_model() -> None:
    history = [typed_message("greek yogurt"), _reply("Here are three.")]
    assert redo_options(history, []).words == "greek yogurt"
    edited = edited_message(history, [], "paneer <b>")
    assert edited.meta.redo == "edit"
    assert visible_text(edited) == "paneer &lt;b&gt;"  # escaped like anything typed
    assert EDIT_NOTE_FOR_MODEL in edited.text()  # the model hears which one to answer
    with pytest.raises(InputError):
        edited_message(history, [], "   ")


def test_regenerate_asks_the_same_words_again() -> None:
    history = [typed_message("greek yogurt"), _reply("Here are three.")]
    again = regenerate_message(history, [])
    assert again.meta.redo == "regenerate" and visible_text(again) == "greek yogurt"
    assert REGENERATE_NOTE_FOR_MODEL in again.text()
    # Asked again twice: the words are still the person's, never the note.
    assert (
        regenerate_message([*history, again, _reply("Fresh.")], [])
        .text()
        .count(REGENERATE_NOTE_FOR_MODEL)
        == 1
    )


def test_nothing_to_redo_without_an_answered_typed_message() -> None:
    pressed = action_message(CardAction(kind="add_to_cart", label="Add milk"))
    cases = [
        [],
        [typed_message("greek yogurt")],  # not answered yet: Retry's job
        [typed_message("milk"), _reply("Here."), pressed, _reply("Added.")],  # a button
    ]
    for history in cases:
        assert not redo_options(history, []).edit
        with pytest.raises(ActionRefused) as refused:
            regenerate_message(history, [])
        assert refused.value.code == ErrorCode.NOTHING_TO_REDO


def test_a_confirmation_question_may_be_redone_but_not_a_confirmed_order() -> None:
    history, use = _asked_to_confirm()
    for status in (ApprovalStatus.PENDING, ApprovalStatus.DECLINED, ApprovalStatus.FAILED):
        assert redo_options(history, [_approval(use.id, status)]).regenerate
    outcome = ChatMessage(role="user", content=[ToolResultBlock(tool_use_id=use.id, content="")])
    placed = [*history, outcome, _reply("Your order is on its way.")]
    for status in (ApprovalStatus.EXECUTING, ApprovalStatus.DONE, ApprovalStatus.UNKNOWN):
        assert not redo_options(placed, [_approval(use.id, status)]).regenerate
        with pytest.raises(ActionRefused, match="can't be redone"):
            edited_message(placed, [_approval(use.id, status)], "place it again")
    # An order from an earlier turn does not stop redoing a later one.
    later = [*placed, typed_message("greek yogurt"), _reply("Here.")]
    assert redo_options(later, [_approval(use.id, ApprovalStatus.DONE)]).edit


def test_stop_after_the_end_is_told_apart_from_a_stop_that_cut_the_reply() -> None:
    release = threading.Event()
    late = start_turn("chat-late", "message", lambda _h: release.wait(30) and None)
    late_after_end = start_turn("chat-ended", "message", lambda _h: None)
    cut = start_turn("chat-cut", "message", lambda h: release.wait(30) and h.mark_cut())

    assert late.press_stop() is True  # running: it is asked to stop
    assert cut.press_stop() is True
    release.set()
    assert late.wait(30) and cut.wait(30) and late_after_end.wait(30)
    assert late.stop_came_late and not cut.stop_came_late
    assert late_after_end.press_stop() is False  # it had already finished
    assert late_after_end.stop_came_late
    lost = start_turn("chat-lost", "message", lambda h: h.stop())  # a lost lease, no click
    assert lost.wait(30) and not lost.stop_came_late
