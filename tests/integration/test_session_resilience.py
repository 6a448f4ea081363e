"""Turns that survive failures: Retry never re-spends, interrupts lose nothing, two tabs
both keep their messages, Stop keeps what arrived.

The model is the emulator's scripted brain through the real SDK (faults included); the
shop is the sandbox over HTTP; the store is SQLite on disk.
"""

from __future__ import annotations

import json
import threading

import pytest
from session_peers import ADDRESS, Shop, finish, new_session, new_shop

from swiggy_core.actions import typed_message
from swiggy_core.constants import APPROVAL_TOOL_NAME
from swiggy_core.models import ToolResultBlock
from swiggy_core.store import ChatStore
from swiggy_sandbox.emulator import EmulatorServer, Fault, ScriptedBrain, ScriptedTurn, text_turn
from swiggy_sandbox.emulator.script import text_block, tool_use_block

FAILURES = {
    "three_500s": [Fault("server_error")] * 3,
    "cut_stream": [
        Fault("cut", after_blocks=1, partial=text_turn("Your order is placed and it will")),
    ],
}


@pytest.fixture(autouse=True)
def emu(wire_emu: EmulatorServer[ScriptedBrain]) -> EmulatorServer[ScriptedBrain]:
    return wire_emu


def ask_turn(tool_id: str = "toolu_ask") -> ScriptedTurn:
    """The model asks for approval of a checkout (raw wire format)."""
    payload = {"tool": "checkout", "arguments": {"addressId": ADDRESS}}
    return ScriptedTurn(
        content=[
            text_block("Please confirm the order."),
            tool_use_block(tool_id, APPROVAL_TOOL_NAME, payload),
        ],
        stop_reason="tool_use",
    )


def pending_id(session) -> str:
    approval = session.pending_approval()
    assert approval is not None, "no approval is waiting"
    return approval.id


@pytest.mark.parametrize("failure", sorted(FAILURES))
@pytest.mark.parametrize("engine", ["connector", "local"])
def test_retry_after_a_failed_confirmed_turn_never_orders_again(
    engine, failure, emu, store, shop
) -> None:
    session = new_session(store, shop, emu.base_url, engine=engine)
    before = shop.orders()
    emu.brain.enqueue(ask_turn())
    finish(session.send(typed_message("place the order")))
    approval_id = pending_id(session)

    emu.brain.enqueue(*FAILURES[failure])
    finish(session.confirm(approval_id))
    assert shop.orders() == before + 1
    history = session.history()
    assert history[-1].meta.error is not None, "the continuation failed"
    order_cards = [m for m in history if m.meta.approval_id == approval_id]
    assert len(order_cards) == 1 and order_cards[0].meta.cards

    emu.brain.enqueue(text_turn("Your order is on its way."))
    finish(session.retry())
    assert shop.orders() == before + 1, "Retry must never place the order again"
    history = session.history()
    assert [m for m in history if m.meta.approval_id == approval_id] == order_cards
    assert history[-1].text() == "Your order is on its way."
    # The retried request carried the outcome, not a second confirmation.
    sent = emu.requests[-1].body["messages"]
    answers = [
        b for m in sent if isinstance(m["content"], list) for b in m["content"]
        if b.get("type") == "tool_result" and "approval" in json.dumps(b)
    ]  # fmt: skip
    assert len(answers) == 1 and '\\"confirmed\\"' in json.dumps(answers[0])
    actions = [action for action, _ in store.audit_entries(session.user_id)]
    assert actions.count("spend_call") == 1


def test_an_unclear_outcome_is_settled_by_looking_not_by_retrying(emu, store, shop) -> None:
    session = new_session(store, shop, emu.base_url, engine="local")
    before = shop.orders()
    emu.brain.enqueue(ask_turn())
    finish(session.send(typed_message("place the order")))
    approval_id = pending_id(session)
    # The app crashed after the call went out: the approval is left executing.
    facts = {"before": [], "calling": True}  # written before the call went out
    assert store.transition_approval(approval_id, ["pending"], "executing", result=facts)
    shop.call("instamart", "checkout", {"addressId": ADDRESS, "paymentMethod": "COD"})
    emu.brain.enqueue(text_turn("Checked."))
    finish(session.retry())
    record = store.get_approval(approval_id)
    assert record is not None and record.status == "done"
    assert shop.orders() == before + 1
    answer = next(m for m in session.history() if m.meta.approval_id == approval_id)
    assert next(iter(answer.meta.cards.values())).type == "order_placed"


def _confirm_turn_events(emu, store, shop) -> int:
    """How many events a whole confirm turn yields (measured on a throwaway chat)."""
    session = new_session(store, shop, emu.base_url, engine="local")
    emu.brain.enqueue(ask_turn())
    finish(session.send(typed_message("place the order")))
    emu.brain.enqueue(text_turn("Placed: thank you for your order today."))
    return len(finish(session.confirm(pending_id(session))))


def test_an_interrupt_at_any_event_loses_nothing(emu, db_url, shop_server, app_mcp) -> None:
    """The page's consumer is stopped at each event in turn (as Streamlit stops a script)."""
    total = _confirm_turn_events(emu, ChatStore(db_url), _fresh_shop(shop_server, app_mcp))
    assert total >= 3
    for stop_at in range(total + 1):
        shop = _fresh_shop(shop_server, app_mcp)
        store = ChatStore(db_url)
        session = new_session(store, shop, emu.base_url, engine="local")
        before = shop.orders()
        emu.brain.enqueue(ask_turn())
        finish(session.send(typed_message("place the order")))
        approval_id = pending_id(session)
        emu.brain.enqueue(text_turn("Placed: thank you for your order today."))
        handle = session.confirm(approval_id)
        watched = handle.events()
        for seen, _event in enumerate(watched):
            if seen == stop_at:
                break
        watched.close()  # the script was stopped: its generator is closed
        assert handle.wait(90)
        reloaded = ChatStore(db_url)
        history = reloaded.load_messages(session.conversation_id)
        assert shop.orders() == before + 1
        assert any(m.meta.approval_id == approval_id for m in history)
        assert history[-1].text() == "Placed: thank you for your order today."
        record = reloaded.get_approval(approval_id)
        assert record is not None and record.status == "done"
        actions = [a for a, _ in reloaded.audit_entries(session.user_id)]
        assert actions.count("spend_call") == 1


def _fresh_shop(shop_server, app_mcp) -> Shop:
    account = new_shop(shop_server, app_mcp)
    account.set_cart(account.milk_line())
    return account


def test_two_tabs_on_one_conversation_both_keep_their_messages(emu, shared_db_url, shop) -> None:
    db_url = shared_db_url
    first = new_session(ChatStore(db_url), shop, emu.base_url, engine="connector")
    emu.brain.enqueue(text_turn("Hello from tab one."))
    finish(first.send(typed_message("tab one says hi")))
    second = new_session(
        ChatStore(db_url), shop, emu.base_url, engine="connector",
        conversation_id=first.conversation_id, user_id=first.user_id,
    )  # fmt: skip
    stale_view = first.history()
    emu.brain.enqueue(text_turn("Hello from tab two."))
    finish(second.send(typed_message("tab two says hi")))
    emu.brain.enqueue(text_turn("Back to tab one."))
    finish(first.send(typed_message("tab one again")))  # it had not reloaded
    texts = [m.text() for m in ChatStore(db_url).load_messages(first.conversation_id)]
    assert texts == [
        "tab one says hi",
        "Hello from tab one.",
        "tab two says hi",
        "Hello from tab two.",
        "tab one again",
        "Back to tab one.",
    ]
    assert len(stale_view) == 2
    # The model saw tab two's messages when tab one spoke again.
    sent = [m["content"] for m in emu.requests[-1].body["messages"]]
    assert "tab two says hi" in json.dumps(sent)


def test_stop_ends_a_stalled_reply_and_keeps_what_arrived(emu, store, shop) -> None:
    session = new_session(store, shop, emu.base_url, engine="connector")
    partial = text_turn("Here is the first part of a long answer")
    emu.brain.enqueue(Fault("stall", after_blocks=1, partial=partial, stall_seconds=60))
    handle = session.send(typed_message("tell me everything"))
    arrived = threading.Event()

    def watch() -> None:
        for event in handle.events():
            if getattr(event, "kind", "") == "text":
                arrived.set()

    watcher = threading.Thread(target=watch)
    watcher.start()
    assert arrived.wait(60), "the first part never arrived"
    handle.stop()
    assert handle.wait(30), "Stop did not end the stalled reply"
    watcher.join(30)
    last = session.history()[-1]
    assert last.meta.stopped and last.meta.error is None
    assert last.text().startswith("Here is the first part")
    # The next message goes out normally, with the stopped reply as context.
    emu.brain.enqueue(text_turn("ok"))
    finish(session.send(typed_message("thanks")))
    assert session.history()[-1].text() == "ok"
    assert isinstance(session.history()[-2].blocks()[0], type(typed_message("x").blocks()[0]))
    assert not any(isinstance(b, ToolResultBlock) for b in session.history()[-1].blocks())
