"""Payment records: the ways to pay a shop offers, the arguments each choice sends, a UPI
answer's pending payment and a poll's answer, read from Swiggy's documented shapes."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from swiggy_core.approval.payment import (
    CASH_CHOICE,
    MIN_POLL_SECONDS,
    QR_CHOICE,
    PaymentChoice,
    chosen_id,
    confirm_result,
    offered_choices,
    offered_here,
    payment_check,
    pending_payment,
    with_payment,
)
from swiggy_core.store.approval_states import ALLOWED, ApprovalStatus
from swiggy_core.store.schema import STATUS_LENGTH

NOW = datetime(2026, 11, 27, 6, 0, tzinfo=UTC)
OPTIONS = {
    "success": True,
    "data": {
        "cod": {"available": True, "id": "COD", "displayName": "Cash on Delivery"},
        "platforms": {
            "desktop": {"groupName": "UPI", "methods": [{"id": "UPI_QR", "kind": "qr"}]},
            "mobile": {
                "groupName": "UPI",
                "methods": [
                    {"id": "gpay://upi/", "displayName": "Google Pay", "kind": "intent"},
                    {"id": "phonepe://pay", "displayName": "PhonePe", "enabled": False},
                ],
            },
        },
        "allMethods": [],
        "placeOrderToolName": "checkout",
    },
}
PENDING = {
    "success": True,
    "data": {
        "orderId": "IM-1",
        "transactionId": "TX-1",
        "paasId": "PAAS-1",
        "upiIntentUrl": "upi://pay?pa=a@upi&am=10.00",
        "bridgeUrl": "http://127.0.0.1:9/pay/PAAS-1",
        "isQrFlow": True,
        "pollingIntervalInMs": 1000,
        "maxTimeToPollForInMs": 120000,
        "paymentMethod": "UPI",
        "status": "PENDING_PAYMENT",
        "cartTotal": 113.5,
    },
}


def test_every_status_fits_the_ledgers_column() -> None:
    assert all(len(status.value) <= STATUS_LENGTH for status in ApprovalStatus)
    assert set(ALLOWED) == set(ApprovalStatus)


def test_the_offered_ways_are_cash_a_qr_and_each_enabled_upi_app() -> None:
    choices = offered_choices(json.dumps(OPTIONS))
    assert [c.id for c in choices] == ["COD", QR_CHOICE, "gpay://upi/"]
    assert [c.label for c in choices] == [
        "Cash on delivery",
        "UPI · scan a QR code",
        "UPI · Google Pay",
    ]
    assert [c.id for c in offered_here(choices, phone=False)] == ["COD", QR_CHOICE]
    assert [c.id for c in offered_here(choices, phone=True)] == ["COD", "gpay://upi/"]
    assert offered_choices("not json") == []


def test_a_phone_with_no_upi_app_offered_sees_every_way() -> None:
    choices = [CASH_CHOICE, PaymentChoice(id=QR_CHOICE, kind="qr", label="UPI · QR")]
    assert offered_here(choices, phone=True) == choices


def test_each_choice_sends_exactly_its_arguments() -> None:
    asked = {"addressId": "a1", "paymentMethod": "UPI", "intentApp": "gpay://upi/"}
    qr = PaymentChoice(id=QR_CHOICE, kind="qr", label="")
    assert with_payment(asked, qr) == {
        "addressId": "a1",
        "paymentMethod": "UPI",
        "generateUPIQR": True,
    }
    assert with_payment(asked, CASH_CHOICE) == {"addressId": "a1", "paymentMethod": "COD"}
    assert chosen_id(asked) == "gpay://upi/"
    assert chosen_id(with_payment(asked, qr)) == QR_CHOICE
    assert chosen_id({"paymentMethod": "Cash"}) == "COD"


def test_a_upi_answer_holds_the_ids_to_poll_and_confirm_by() -> None:
    payment = pending_payment(json.dumps(PENDING), NOW)
    assert payment is not None
    assert (payment.order_id, payment.paas_id, payment.is_qr) == ("IM-1", "PAAS-1", True)
    assert payment.poll_seconds == MIN_POLL_SECONDS, "never polled faster than the floor"
    assert payment.deadline == NOW + timedelta(seconds=120)
    assert payment.amount == 113.5
    assert payment.confirm_arguments() == {
        "orderId": "IM-1",
        "paasId": "PAAS-1",
        "transactionId": "TX-1",
    }
    assert payment.due(NOW)
    polled = payment.model_copy(update={"last_poll": NOW})
    assert not polled.due(NOW + timedelta(seconds=2)) and polled.due(NOW + timedelta(seconds=3))


def test_a_hostile_link_is_never_kept() -> None:
    hostile = {**PENDING["data"], "upiIntentUrl": "javascript:alert(1)", "bridgeUrl": "file:///etc"}
    payment = pending_payment(json.dumps(hostile), NOW)
    assert payment is not None and payment.intent_url is None and payment.bridge_url is None
    assert pending_payment(json.dumps({"orderId": "IM-1"}), NOW) is None, "no paasId: unclear"


def test_a_poll_reads_terminal_success_failure_and_confirmed() -> None:
    paid = payment_check(
        json.dumps(
            {
                "paasId": "P",
                "status": "SUCCESS",
                "terminal": True,
                "isTerminalSuccess": True,
                "confirmed": False,
            }
        )
    )
    assert paid is not None and paid.succeeded and not paid.confirmed and not paid.failed
    failed = payment_check(
        json.dumps({"data": {"paasId": "P", "terminal": True, "isTerminalFailure": True}})
    )
    assert failed is not None and failed.failed and not failed.succeeded
    assert payment_check(json.dumps({"success": False, "error": {"message": "no"}})) is None
    assert payment_check("") is None
    assert confirm_result(json.dumps({"success": True, "data": {"result": "SUCCESS"}})) == "success"
    assert confirm_result(json.dumps({"success": False, "error": {"message": "x"}})) == "failed"
    assert confirm_result("garbled") == ""
