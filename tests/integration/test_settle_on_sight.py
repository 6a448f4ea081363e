"""A confirmation cut off by a crash is settled on sight, truthfully, once; an unanswered
message shows as interrupted; a second window cannot reply in a chat that is replying.

The crash states are the ones a killed process leaves behind (see the chaos tests in
tests/chaos for real SIGKILLs): the approval stays `executing` with the facts written so
far, no answer is stored, no audit entry exists. The model is the emulator's scripted
brain through the real SDK; the shop is the sandbox over HTTP; the store is SQLite on disk.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from session_peers import ADDRESS, Shop, finish, free_table, new_session

from swiggy_core.actions import typed_message
from swiggy_core.approval.limits import india_day
from swiggy_core.constants import APPROVAL_TOOL_NAME
from swiggy_core.store import ChatStore
from swiggy_core.turn.handle import running_count
from swiggy_core.turn.lease import TurnElsewhere, TurnGate
from swiggy_core.turn.session import ChatSession
from swiggy_sandbox.emulator import EmulatorServer, Fault, ScriptedBrain, ScriptedTurn, text_turn
from swiggy_sandbox.emulator.script import text_block, tool_use_block


@pytest.fixture(autouse=True)
def emu(wire_emu: EmulatorServer[ScriptedBrain]) -> EmulatorServer[ScriptedBrain]:
    return wire_emu


def _ask(tool: str = "checkout", arguments: dict[str, Any] | None = None) -> ScriptedTurn:
    payload = {"tool": tool, "arguments": arguments or {"addressId": ADDRESS}}
    return ScriptedTurn(
        content=[
            text_block("Please confirm."),
            tool_use_block("toolu_ask", APPROVAL_TOOL_NAME, payload),
        ],
        stop_reason="tool_use",
    )


def _asked(session: ChatSession, emu: EmulatorServer[ScriptedBrain], **ask: Any) -> str:
    emu.brain.enqueue(_ask(**ask))
    finish(session.send(typed_message("place the order")))
    approval = session.pending_approval()
    assert approval is not None
    return approval.id


def _same_chat_again(session: ChatSession, store: ChatStore, shop: Shop, emu: Any) -> ChatSession:
    """The same person's chat opened in a new session (another replica, a restart)."""
    chat = {"conversation_id": session.conversation_id, "user_id": session.user_id}
    return new_session(store, shop, emu.base_url, engine="local", **chat)


@pytest.fixture
def asked_chat(emu, store: ChatStore, shop: Shop) -> tuple[ChatSession, str]:
    """A local-engine chat in which the model asked to place the order: the session and
    the id of the approval waiting for the person."""
    session = new_session(store, shop, emu.base_url, engine="local")
    return session, _asked(session, emu)


def _crash_after_cas(store: ChatStore, session: ChatSession, approval_id: str) -> None:
    """What a process killed right after Confirm's compare-and-set leaves: executing, its
    amount and day written, the call never made."""
    record = store.get_approval(approval_id)
    assert record is not None
    facts = {"amount_paise": 8_600, "day": india_day(session.clock())}
    assert store.transition_approval(approval_id, ["pending"], "executing", result=facts)


def _crash_after_call(store: ChatStore, session: ChatSession, approval_id: str, shop: Shop) -> None:
    """Killed after the call went out (it placed the order), before its outcome was stored."""
    before = sorted(
        str(o["orderId"]) for o in shop.call("instamart", "get_orders", {})["data"]["orders"]
    )
    facts = {
        "amount_paise": 8_600,
        "day": india_day(session.clock()),
        "before": before,
        "calling": True,
    }
    assert store.transition_approval(approval_id, ["pending"], "executing", result=facts)
    shop.call("instamart", "checkout", {"addressId": ADDRESS, "paymentMethod": "COD"})


def _answers_sent(emu: EmulatorServer[ScriptedBrain]) -> list[dict[str, Any]]:
    sent = emu.requests[-1].body["messages"]
    return [
        json.loads(
            block["content"] if isinstance(block["content"], str) else block["content"][0]["text"]
        )
        for message in sent
        if isinstance(message["content"], list)
        for block in message["content"]
        if block.get("type") == "tool_result" and block.get("tool_use_id") == "toolu_ask"
    ]


def _spend_audits(store: ChatStore, user: str) -> list[dict[str, Any]]:
    return [detail for action, detail in store.audit_entries(user) if action == "spend_call"]


def test_a_crash_after_the_call_is_settled_on_opening_the_chat_as_the_order_it_placed(
    emu, store: ChatStore, shop: Shop, asked_chat: tuple[ChatSession, str]
) -> None:
    session, approval_id = asked_chat
    orders = shop.orders()
    _crash_after_call(store, session, approval_id, shop)
    assert shop.orders() == orders + 1

    # The chat is opened again (another replica, a restart): no turn holds it.
    reopened = _same_chat_again(session, store, shop, emu)
    settled = reopened.settle_on_sight()

    assert [record.id for record in settled.settled] == [approval_id]
    record = store.get_approval(approval_id)
    assert record is not None and record.status == "done"
    answer = next(m for m in reopened.history() if m.meta.approval_id == approval_id)
    assert next(iter(answer.meta.cards.values())).type == "order_placed"
    (audit,) = _spend_audits(store, session.user_id)
    assert audit["outcome"] == "done" and audit["amount_paise"] == 8_600
    assert store.spent_today(session.user_id, india_day(session.clock())) == 8_600
    # Opening again settles nothing twice.
    assert not reopened.settle_on_sight().changed
    assert len(_spend_audits(store, session.user_id)) == 1

    # The person types: the model hears the truth, and nothing is ordered again.
    emu.brain.enqueue(text_turn("Your order is on its way."))
    finish(reopened.send(typed_message("did it go through?")))
    (told,) = _answers_sent(emu)
    assert told["approval"] == "confirmed"
    assert "did not confirm" not in json.dumps(told)
    assert shop.orders() == orders + 1


def test_a_crash_before_the_call_is_settled_as_nothing_placed(
    emu, store: ChatStore, shop: Shop, asked_chat: tuple[ChatSession, str]
) -> None:
    session, approval_id = asked_chat
    orders = shop.orders()
    _crash_after_cas(store, session, approval_id)

    emu.brain.enqueue(text_turn("Nothing was placed; shall I try again?"))
    finish(session.send(typed_message("hello?")))  # settled before it is answered

    record = store.get_approval(approval_id)
    assert record is not None and record.status == "failed"
    (told,) = _answers_sent(emu)
    assert told["approval"] == "failed" and "nothing was placed" in told["message"]
    (audit,) = _spend_audits(store, session.user_id)
    assert audit["outcome"] == "failed"
    assert store.spent_today(session.user_id, india_day(session.clock())) == 0
    assert shop.orders() == orders


def test_an_unclear_booking_with_no_order_id_is_shown_as_unknown_never_booked_again(
    emu, store: ChatStore, shop: Shop
) -> None:
    session = new_session(store, shop, emu.base_url, engine="local", vertical_id="dining")
    _slots, book = free_table(shop)
    approval_id = _asked(session, emu, tool="book_table", arguments=book)
    bookings = len(shop.bookings())
    facts = {"amount_paise": 0, "day": india_day(session.clock()), "before": None, "calling": True}
    assert store.transition_approval(approval_id, ["pending"], "executing", result=facts)

    settled = session.settle_on_sight()

    assert settled.answered == ("toolu_ask",)
    record = store.get_approval(approval_id)
    assert record is not None and record.status == "unknown"
    answer = next(m for m in session.history() if m.meta.approval_id == approval_id)
    card = next(iter(answer.meta.cards.values()))
    assert card.type == "status" and "check your bookings in the Swiggy app" in card.message
    assert len(shop.bookings()) == bookings
    assert session.interrupted(session.history())  # the model has not replied to it yet


def test_nothing_is_settled_while_a_live_turn_holds_the_chat(
    emu, store: ChatStore, shop: Shop, asked_chat: tuple[ChatSession, str]
) -> None:
    session, approval_id = asked_chat
    _crash_after_cas(store, session, approval_id)  # as a confirm in another replica looks
    assert session.conversation_id is not None
    other_replica = TurnGate(store.leases)
    held = other_replica.take(session.conversation_id, "turn-elsewhere", "confirm")
    try:
        looked = session.settle_on_sight()
        assert not looked.changed and looked.deferred  # the page must look again later
        assert session.replying_elsewhere()
        with pytest.raises(TurnElsewhere):
            session.send(typed_message("are you there?"))
        record = store.get_approval(approval_id)
        assert record is not None and record.status == "executing"
    finally:
        held.release()
    texts = [m.text() for m in session.history() if m.role == "user"]
    assert "are you there?" not in texts  # refused before it was stored; the page keeps it
    again = session.settle_on_sight()  # once the hold is gone, looking again settles it
    assert again.changed and not again.deferred
    record = store.get_approval(approval_id)
    assert record is not None and record.status != "executing"


def test_a_reply_cut_off_shows_as_interrupted_and_retry_answers_it(
    emu, store: ChatStore, shop: Shop
) -> None:
    session = new_session(store, shop, emu.base_url, engine="local")
    conversation = session._conversation()
    store.append_messages(conversation, [typed_message("any eggs?")])  # stored, then the crash
    assert session.interrupted(session.history())
    emu.brain.enqueue(text_turn("Yes, eggs are in stock."))
    finish(session.retry())
    assert not session.interrupted(session.history())
    assert session.history()[-1].text() == "Yes, eggs are in stock."


def test_a_reply_that_lands_after_the_page_read_the_chat_is_not_called_interrupted(
    emu, store: ChatStore, shop: Shop
) -> None:
    """The page read the chat while the reply was still coming; the turn then ended and let
    go of the chat before the page asked whether one was running."""
    session = new_session(store, shop, emu.base_url, engine="local")
    emu.brain.enqueue(text_turn("Yes, eggs are in stock."))
    finish(session.send(typed_message("any eggs?")))
    read_before_the_reply = session.history()[:-1]
    assert session.answered_since(read_before_the_reply)
    assert not session.interrupted(read_before_the_reply)
    assert not session.answered_since(session.history())


def test_a_running_reply_is_not_called_interrupted(emu, store: ChatStore, shop: Shop) -> None:
    session = new_session(store, shop, emu.base_url, engine="local")
    emu.brain.enqueue(
        Fault("stall", stall_seconds=30, partial=text_turn("Looking"), after_blocks=1)
    )
    handle = session.send(typed_message("slow one"))
    try:
        other = _same_chat_again(session, store, shop, emu)
        assert other.history()[-1].text() == "slow one"
        assert not other.interrupted(other.history())
    finally:
        handle.stop()
        finish(handle)


def test_finished_turns_leave_nothing_behind_in_the_process(
    emu, store: ChatStore, shop: Shop
) -> None:
    for index in range(20):
        session = new_session(store, shop, emu.base_url, engine="local")
        emu.brain.enqueue(text_turn(f"Noted {index}."))
        finish(session.send(typed_message("note this")))
    assert running_count() == 0
