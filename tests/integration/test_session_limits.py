"""Spending limits through ChatSession: the approval step refuses what is over a limit.

Real peers only: the emulator through the real SDK, the sandbox shop over HTTP, SQLite on
disk. The limits are the person's stored preference, read at request and again at Confirm.
"""

from __future__ import annotations

import json
import threading

import pytest
from session_peers import Shop, ask_checkout, asked_to_place, echo, finish, free_table, new_session

from swiggy_core.actions import typed_message
from swiggy_core.approval.limits import SpendingLimits, save_limits
from swiggy_core.engine import StreamFailed
from swiggy_core.errors import ErrorCode
from swiggy_core.models import ToolResultBlock
from swiggy_core.store import ApprovalRecord, ChatStore
from swiggy_core.turn.session import ChatSession

LIMIT = ErrorCode.SPENDING_LIMIT.value


def _ask(session: ChatSession, emu, *, refused: bool = False) -> list[object]:
    """The model asks to check out; a refused request is answered and the model replies."""
    emu.brain.enqueue(ask_checkout(), *([echo] if refused else []))
    return finish(session.send(typed_message("place the order")))


def _pending(session: ChatSession) -> ApprovalRecord:
    approval = session.pending_approval()
    assert approval is not None, session.history()[-1].text()
    return approval


def _limit_failures(events: list[object]) -> list[StreamFailed]:
    return [e for e in events if isinstance(e, StreamFailed) and e.error.code == LIMIT]


def _refusal_sent_to_model(session: ChatSession) -> dict[str, object]:
    answers = [
        block
        for message in session.history()
        if message.role == "user"
        for block in message.blocks()
        if isinstance(block, ToolResultBlock)
    ]
    return dict(json.loads(answers[-1].content))


@pytest.fixture
def asked_chat(emu, store: ChatStore, shop: Shop) -> tuple[ChatSession, ApprovalRecord]:
    """A local-engine chat in which the model asked to place the order, and the approval
    waiting for the person."""
    session = new_session(store, shop, emu.base_url, engine="local")
    return session, asked_to_place(session, emu)


@pytest.mark.parametrize("engine", ["connector", "local"])
def test_an_order_over_the_per_order_limit_is_refused_and_nothing_is_placed(
    engine, emu, store: ChatStore, shop: Shop
) -> None:
    session = new_session(store, shop, emu.base_url, engine=engine)
    save_limits(store, session.user_id, SpendingLimits(per_order=100))
    before = shop.orders()

    events = _ask(session, emu, refused=True)

    assert session.pending_approval() is None
    assert session.conversation_id is not None
    assert store.approvals_for(session.conversation_id) == [], "nothing stored as pending"
    (failure,) = _limit_failures(events)
    assert "per-order limit of ₹1" in failure.error.message
    refusal = _refusal_sent_to_model(session)
    assert refusal["approval"] == "refused" and refusal["code"] == LIMIT
    assert refusal["shown"] == failure.error.message  # the notice's words, kept for the model
    assert shop.orders() == before


def test_the_per_day_limit_refuses_the_second_order_of_the_day(
    asked_chat: tuple[ChatSession, ApprovalRecord], emu, store: ChatStore, shop: Shop
) -> None:
    session, first = asked_chat
    before = shop.orders()
    to_pay = float(first.view["to_pay"])
    # Room for this order today, not for a second one like it.
    save_limits(store, session.user_id, SpendingLimits(per_day=round(to_pay * 150)))
    emu.brain.enqueue(echo)
    finish(session.confirm(first.id))
    assert shop.orders() == before + 1

    shop.set_cart(shop.milk_line())
    events = _ask(session, emu, refused=True)

    assert session.pending_approval() is None
    (failure,) = _limit_failures(events)
    assert "daily limit" in failure.error.message and "already spent today" in failure.error.message
    assert shop.orders() == before + 1


def test_a_limit_lowered_before_confirm_refuses_it_and_a_raised_one_allows_it(
    asked_chat: tuple[ChatSession, ApprovalRecord], emu, store: ChatStore, shop: Shop
) -> None:
    session, approval = asked_chat
    before = shop.orders()
    save_limits(store, session.user_id, SpendingLimits(per_order=100, per_day=None))

    emu.brain.enqueue(echo)
    events = finish(session.confirm(approval.id))

    assert _limit_failures(events)
    record = store.get_approval(approval.id)
    assert record is not None and record.status == "refused"
    assert shop.orders() == before

    save_limits(store, session.user_id, SpendingLimits(per_order=10_000_000, per_day=10_000_000))
    again = asked_to_place(session, emu)
    emu.brain.enqueue(echo)
    events = finish(session.confirm(again.id))
    assert not _limit_failures(events)
    done = store.get_approval(again.id)
    assert done is not None and done.status == "done"
    assert shop.orders() == before + 1


def test_limits_belong_to_one_user_and_world(emu, store: ChatStore, shop: Shop) -> None:
    """The same person's real-Swiggy limit does not apply in the sandbox world."""
    session = new_session(store, shop, emu.base_url, engine="local", user_id="asha@sandbox")
    save_limits(store, "asha@swiggy", SpendingLimits(per_order=100))
    approval = asked_to_place(session, emu)
    assert approval.tool == "checkout"


def test_a_free_table_costs_nothing_so_a_zero_limit_still_books_it(
    emu, store: ChatStore, shop: Shop
) -> None:
    session = new_session(store, shop, emu.base_url, engine="local", vertical_id="dining")
    save_limits(store, session.user_id, SpendingLimits(per_order=0, per_day=0))
    before = len(shop.bookings())
    emu.brain.enqueue(ask_checkout(free_table(shop)[1], tool="book_table"))
    finish(session.send(typed_message("book it")))
    approval = _pending(session)
    emu.brain.enqueue(echo)
    events = finish(session.confirm(approval.id))
    assert not _limit_failures(events)
    assert len(shop.bookings()) == before + 1


def test_two_chats_confirming_at_once_under_a_day_limit_place_one_order(
    emu, store: ChatStore, shop: Shop
) -> None:
    """The same cart confirmed in two chats at the same moment, with room today for one:
    exactly one order; the other confirmation is refused with the true total."""
    first = new_session(store, shop, emu.base_url, engine="local", user_id="asha@sandbox")
    second = new_session(store, shop, emu.base_url, engine="local", user_id="asha@sandbox")
    asked = [asked_to_place(session, emu) for session in (first, second)]
    to_pay = round(float(asked[0].view["to_pay"]) * 100)
    save_limits(store, "asha@sandbox", SpendingLimits(per_day=to_pay + 100))
    before = shop.orders()
    emu.brain.enqueue(echo, echo)
    start = threading.Barrier(2)
    handles: list[object] = []

    def press(session: ChatSession, approval: ApprovalRecord) -> None:
        start.wait()
        handles.append(session.confirm(approval.id))

    threads = [
        threading.Thread(target=press, args=pair)
        for pair in zip((first, second), asked, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    events = [event for handle in handles for event in finish(handle)]  # type: ignore[arg-type]

    assert shop.orders() == before + 1
    statuses = sorted(str(store.get_approval(a.id).status) for a in asked)  # type: ignore[union-attr]
    assert statuses == ["done", "refused"]
    (refusal,) = _limit_failures(events)
    total = f"₹{2 * to_pay // 100}"
    assert f"today's spending to {total}" in refusal.error.message
