"""Chat controls people expect, on the offline demo's page: edit and resend the last
message, regenerate the last reply (never two confirmations waiting, never a second
order), and a word when Stop came after the reply had already finished."""

from __future__ import annotations

import os

from uihelpers import buttons, open_page, store_user, texts

from swiggy_core.store import ChatStore
from swiggy_core.store.approval_states import COUNTED, ApprovalStatus
from swiggy_core.turn.session import ChatSession
from swiggy_ui.live_turn import LATE_STOP_NOTE
from swiggy_ui.turn_controls import ASKED_AGAIN_CAPTION, EDIT_LABEL, EDITED_CAPTION

PAGE = "nutricart"


def _store() -> ChatStore:
    return ChatStore(os.environ["SWIGGY_DATABASE_URL"])


def _conversation(at) -> str:
    (chat,) = _store().list_conversations(store_user(at), "food")
    return chat.id


def _said(at) -> list[str]:
    return [texts(m.markdown) for m in at.chat_message if m.name == "user"]


def test_edit_and_resend_answers_the_edited_words_and_keeps_the_earlier_turn(app):
    at = open_page(app, PAGE)
    at.chat_input[0].set_value("greek yogurt").run()
    assert buttons(at, "Add") and not at.text_area
    at = buttons(at, EDIT_LABEL)[0].click().run()
    assert at.text_area[0].value == "greek yogurt"  # the words to change, ready
    at.text_area[0].set_value("paneer")
    at = buttons(at, "Send")[0].click().run()
    assert not at.exception, at.exception

    assert _said(at) == ["greek yogurt", "paneer"]  # the earlier turn stays, above
    replies = [texts(m.markdown) for m in at.chat_message if m.name == "assistant"]
    assert len(replies) == 2
    assert "Greek Yogurt" in replies[0] and "Paneer" in replies[1]
    assert "Greek Yogurt" not in replies[1]  # the edited words were answered
    assert EDITED_CAPTION in texts(at.chat_message[-2].caption)
    assert not at.text_area  # the editor closed with the send
    stored = _store().load_messages(_conversation(at))
    assert stored[-2].meta.redo == "edit" and "redo_note" in stored[-2].text()


def test_regenerate_after_a_confirmation_question_leaves_one_waiting_and_spends_nothing(app):
    at = open_page(app, PAGE)
    at.chat_input[0].set_value("add 2 amul taaza milk").run()
    at.chat_input[0].set_value("place the order").run()
    store, conversation = _store(), _conversation(at)
    (first,) = store.approvals_for(conversation)
    assert first.status == ApprovalStatus.PENDING

    at = buttons(at, "Regenerate")[0].click().run()
    assert not at.exception, at.exception
    approvals = store.approvals_for(conversation)
    assert [a.status for a in approvals] == [ApprovalStatus.SUPERSEDED, ApprovalStatus.PENDING]
    assert approvals[1].id != first.id
    assert not [a for a in approvals if a.status in COUNTED]  # nothing ran
    assert "Order placed" not in texts(at.markdown)
    assert ASKED_AGAIN_CAPTION in texts(at.caption)
    assert _said(at) == ["add 2 amul taaza milk", "place the order"]  # not said twice
    assert len(buttons(at, "Confirm")) == 1  # one question in the dialog


def test_a_reply_that_placed_an_order_cannot_be_redone(app):
    at = open_page(app, PAGE)
    at.chat_input[0].set_value("add 2 amul taaza milk").run()
    at.chat_input[0].set_value("place the order").run()
    assert buttons(at, "Regenerate")  # a question is not an order yet
    at = buttons(at, "Confirm")[0].click().run()
    assert "Order placed" in texts(at.markdown)
    assert not buttons(at, "Regenerate") and not buttons(at, EDIT_LABEL)


def test_a_stop_after_the_reply_finished_says_so(app, monkeypatch):
    stream_and_store = ChatSession._stream_and_store

    def stop_arriving_late(self, handle):
        result = stream_and_store(self, handle)
        handle.press_stop()  # the click lands once the whole reply is in
        return result

    monkeypatch.setattr(ChatSession, "_stream_and_store", stop_arriving_late)
    at = open_page(app, PAGE)
    at.chat_input[0].set_value("greek yogurt").run()
    assert not at.exception, at.exception
    assert [toast.value for toast in at.toast] == [LATE_STOP_NOTE]
    assert "Stopped" not in texts(at.caption)  # the reply is whole: nothing was cut
    assert buttons(at, "Add")
