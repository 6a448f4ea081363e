"""Paying by UPI through ChatSession: one order, confirmed once, never after a failure.

Real peers: the emulator through the real SDK, the sandbox shop over HTTP (its UPI
payments decided on its simulator page through a real HTTP client), SQLite on disk.
Each test reads the sandbox's own count of check_payment_status and confirm_order calls
and the account's orders, before and after.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx2
import pytest
from session_peers import Shop, ask_checkout, asked_to_place, echo, finish, new_session

from swiggy_core.actions import typed_message
from swiggy_core.approval.payment import PAYMENT_KEY, PAYMENT_UNDER_WAY, QR_CHOICE
from swiggy_core.approval.settle import TEXT_KEY
from swiggy_core.approval.upi import NOT_PAID, NOT_PAID_IN_TIME
from swiggy_core.cart import derive_cart
from swiggy_core.errors import ErrorCode
from swiggy_core.models import ToolResultBlock
from swiggy_core.parsers import OrderPlacedResult, StatusResult, parse_tool_result
from swiggy_core.store import ApprovalRecord, ChatStore
from swiggy_core.store.spending import spent_on
from swiggy_core.turn.session import ChatSession
from swiggy_sandbox.shop.upi import payment_calls

pytestmark = pytest.mark.parametrize("result_form", ["envelope", "summary"], indirect=True)
T0 = datetime(2026, 11, 27, 6, 0, tzinfo=UTC)


class Clock:
    """The app's clock, moved by the test (Swiggy's polling interval, its deadline)."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def _upi_session(
    store: ChatStore, shop: Shop, emu: Any, engine: str = "local"
) -> tuple[ChatSession, Clock]:
    session = new_session(store, shop, emu.base_url, engine=engine, vertical_id="food")
    clock = Clock()
    session.clock = clock
    return session, clock


def _confirm_by_qr(session: ChatSession, emu: Any) -> ApprovalRecord:
    """Ask for the order, pick "UPI · scan a QR code" in the dialog, Confirm: the stored
    UPI approval, waiting for the payment."""
    asked = asked_to_place(session, emu)
    offered = [choice["id"] for choice in asked.view["payment_choices"]]
    assert offered[0] == "COD" and QR_CHOICE in offered
    emu.brain.enqueue(echo)
    finish(session.confirm(asked.id, payment=QR_CHOICE))
    record = session.store.approvals_for(session.conversation_id or "", ["awaiting_payment"])
    assert len(record) == 1, "the UPI order waits for its payment"
    assert record[0].arguments["paymentMethod"] == "UPI"
    assert record[0].arguments["generateUPIQR"] is True
    return record[0]


def _decide(record: ApprovalRecord, action: str) -> None:
    """The person pays (or fails to) on the payment page the answer linked."""
    url = record.result[PAYMENT_KEY]["bridge_url"]  # type: ignore[index]
    answer = httpx2.post(url, data={"action": action}, timeout=30)
    assert answer.status_code == 200, answer.text


def _calls(shop: Shop, record: ApprovalRecord) -> dict[str, int]:
    paas_id = record.result[PAYMENT_KEY]["paas_id"]  # type: ignore[index]
    return payment_calls(shop.sandbox.app.state.shop, paas_id)


def _spent_today(store: ChatStore, user_id: str, day: str) -> int:
    with store._db.read() as conn:  # the ledger's own sum, as the limits read it
        return spent_on(conn, user_id, day)


@pytest.mark.parametrize("engine", ["local", "connector"])
def test_paid_by_qr_is_confirmed_once_and_placed_once(emu, shared_db_url, shop, engine) -> None:
    store = ChatStore(shared_db_url)
    session, clock = _upi_session(store, shop, emu, engine)
    before = shop.orders()
    record = _confirm_by_qr(session, emu)
    assert shop.orders() == before, "a UPI order is not placed before it is paid"
    held = derive_cart(session.history(), "food")
    assert held.held_for_payment, "the cart is not offered to order twice"
    answer = session.history()[-2]  # the request's answer, then the model's reply
    pending = [b for b in answer.content if isinstance(b, ToolResultBlock)]
    assert pending and "awaiting_payment" in str(pending[0].content)

    progress = session.advance_payment(record.id)  # first poll: still waiting
    assert progress.waiting and progress.payment is not None
    assert progress.payment.intent_url and progress.payment.intent_url.startswith("upi://pay?")
    assert session.advance_payment(record.id).payment.polls == 1  # type: ignore[union-attr]
    assert _calls(shop, record)["checks"] == 1, "no second poll inside Swiggy's interval"

    _decide(record, "pay")
    clock.advance(progress.payment.poll_seconds)
    done = session.advance_payment(record.id)
    assert done.status == "done" and done.outcome_text
    card = parse_tool_result("checkout", done.outcome_text, "instamart")
    assert isinstance(card, OrderPlacedResult) and card.order_id == progress.payment.order_id
    for _ in range(3):  # later looks (another tab, a rerun) change nothing
        clock.advance(60)
        assert session.advance_payment(record.id).status == "done"
    assert _calls(shop, record)["confirms"] == 1
    assert shop.orders() == before + 1
    assert shop.call("instamart", "get_cart", {})["data"].get("items") in ([], None)
    spent = _spent_today(store, session.user_id, "2026-11-27")
    assert spent == round(float(record.view["to_pay"]) * 100)


def test_a_failed_payment_is_never_confirmed_and_stops_counting(emu, shared_db_url, shop) -> None:
    store = ChatStore(shared_db_url)
    session, clock = _upi_session(store, shop, emu)
    before = shop.orders()
    record = _confirm_by_qr(session, emu)
    assert _spent_today(store, session.user_id, "2026-11-27") > 0, "a payment under way counts"
    _decide(record, "fail")
    failed = session.advance_payment(record.id)
    assert failed.status == "failed" and failed.code is ErrorCode.PAYMENT_NOT_MADE
    card = parse_tool_result("checkout", failed.outcome_text or "", "instamart")
    assert isinstance(card, StatusResult) and card.message == NOT_PAID
    clock.advance(600)
    assert session.advance_payment(record.id).status == "failed"
    assert _calls(shop, record)["confirms"] == 0
    assert shop.orders() == before
    assert _spent_today(store, session.user_id, "2026-11-27") == 0


def test_no_payment_by_swiggys_deadline_orders_nothing(emu, shared_db_url, shop) -> None:
    store = ChatStore(shared_db_url)
    session, clock = _upi_session(store, shop, emu)
    before = shop.orders()
    record = _confirm_by_qr(session, emu)
    clock.advance(299)
    assert session.advance_payment(record.id).waiting
    clock.advance(2)  # past maxTimeToPollForInMs: one last poll, still pending
    expired = session.advance_payment(record.id)
    assert expired.status == "failed"
    assert json.loads(expired.outcome_text or "{}")["error"]["message"] == NOT_PAID_IN_TIME
    _decide(record, "pay")  # paid too late: the app never confirms it
    clock.advance(60)
    assert session.advance_payment(record.id).status == "failed"
    assert _calls(shop, record)["confirms"] == 0 and shop.orders() == before


def test_a_payment_swiggy_confirmed_itself_is_not_confirmed_again(emu, shared_db_url, shop) -> None:
    store = ChatStore(shared_db_url)
    session, _clock = _upi_session(store, shop, emu)
    before = shop.orders()
    record = _confirm_by_qr(session, emu)
    _decide(record, "pay_confirmed")
    assert session.advance_payment(record.id).status == "done"
    assert _calls(shop, record)["confirms"] == 0 and shop.orders() == before + 1


def test_two_tabs_watching_one_payment_confirm_it_once(emu, shared_db_url, shop) -> None:
    store = ChatStore(shared_db_url)
    session, clock = _upi_session(store, shop, emu)
    before = shop.orders()
    record = _confirm_by_qr(session, emu)
    other = new_session(
        store, shop, emu.base_url, engine="local", vertical_id="food",
        conversation_id=session.conversation_id, user_id=session.user_id,
    )  # fmt: skip
    other.clock = clock
    _decide(record, "pay")
    seen = {session.advance_payment(record.id).status, other.advance_payment(record.id).status}
    assert seen == {"done"}
    assert _calls(shop, record)["confirms"] == 1 and shop.orders() == before + 1


@pytest.mark.parametrize("confirm_went_through", [False, True])
def test_a_crash_while_confirming_is_settled_on_sight(
    emu, shared_db_url, shop, confirm_went_through: bool
) -> None:
    """The process died after it moved the paid order to paid_confirming: before its
    confirm_order call, or right after it (the call counted on the approval, the answer
    lost). The next look settles it: one order, confirm_order sent at most once more only
    when Swiggy has not confirmed it."""
    store = ChatStore(shared_db_url)
    session, _clock = _upi_session(store, shop, emu)
    before = shop.orders()
    record = _confirm_by_qr(session, emu)
    _decide(record, "pay")
    payment = dict(record.result[PAYMENT_KEY])  # type: ignore[index]
    if confirm_went_through:
        arguments = {"orderId": payment["order_id"], "paasId": payment["paas_id"]}
        assert shop.call("instamart", "confirm_order", arguments)["success"]
        payment["confirm_calls"] = 1
    facts = {**(record.result or {}), PAYMENT_KEY: payment}
    assert store.transition_approval(
        record.id, ["awaiting_payment"], "paid_confirming", result=facts
    ), "left as the dead process left it"
    settled = session.advance_payment(record.id)
    assert settled.status == "done"
    assert _calls(shop, record)["confirms"] == 1, "confirmed exactly once in all"
    assert shop.orders() == before + 1
    stored = store.get_approval(record.id)
    assert stored is not None and TEXT_KEY in (stored.result or {})


def test_no_other_order_is_asked_for_while_a_payment_waits(emu, shared_db_url, shop) -> None:
    """Paying the first order later would place both: the second request is refused (and
    allowed again once the first payment has ended)."""
    store = ChatStore(shared_db_url)
    session, _clock = _upi_session(store, shop, emu)
    record = _confirm_by_qr(session, emu)
    emu.brain.enqueue(ask_checkout())
    emu.brain.enqueue(echo)
    finish(session.send(typed_message("place it again")))
    assert session.pending_approval() is None
    assert PAYMENT_UNDER_WAY in json.dumps([m.model_dump(mode="json") for m in session.history()])
    _decide(record, "fail")
    assert session.advance_payment(record.id).status == "failed"
    assert asked_to_place(session, emu).status == "pending"


def test_an_order_asked_in_another_chat_is_not_placed_while_a_payment_waits(
    emu, shared_db_url, shop
) -> None:
    """Asked in one chat, then paid by UPI in another (a second tab): confirming the first
    while that payment waits would order the same cart twice. It is refused, nothing is
    placed, and the waiting payment is untouched."""
    store = ChatStore(shared_db_url)
    first, _clock = _upi_session(store, shop, emu)
    waiting = asked_to_place(first, emu)
    second, _clock = _upi_session(store, shop, emu)
    record = _confirm_by_qr(second, emu)
    before = shop.orders()
    emu.brain.enqueue(echo)
    finish(first.confirm(waiting.id))
    refused = store.get_approval(waiting.id)
    assert refused is not None and refused.status == "refused"
    assert refused.note == PAYMENT_UNDER_WAY
    assert shop.orders() == before
    assert _calls(shop, record) == {"checks": 0, "confirms": 0}
    assert store.get_approval(record.id).status == "awaiting_payment"  # type: ignore[union-attr]
