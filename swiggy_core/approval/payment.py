"""How a person pays for an order, as typed records: the methods a shop offers, the
arguments a choice adds to the spending call, and a UPI payment waiting to be made.

Swiggy's rules (SWIGGY_REFERENCE.md, payment): a phone pays through a UPI app
(`paymentMethod="UPI"` with `intentApp`), a desktop by scanning a QR (`generateUPIQR=true`);
the app never asks for a UPI id. A UPI spending call answers `PENDING_PAYMENT` with the
ids to poll (`check_payment_status`) and confirm (`confirm_order`) by.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any, Final, Literal

from pydantic import BaseModel

from swiggy_core.parsers._values import as_dict, as_list, to_bool, to_id, to_str

CASH: Final = "COD"
UPI: Final = "UPI"
QR_CHOICE: Final = "upi-qr"
PAYMENT_KEY: Final = "payment"  # the pending payment, among an approval's facts
# The keys a payment choice sets on the spending call (all cleared before a new choice).
PAYMENT_ARGUMENTS: Final = ("paymentMethod", "generateUPIQR", "intentApp")
# Polling floor and the wait allowed when the shop gives none (its documented defaults
# are 5 s and 5 minutes); a payment is never awaited past an hour.
MIN_POLL_SECONDS: Final = 3.0
DEFAULT_POLL_SECONDS: Final = 5.0
DEFAULT_WAIT_SECONDS: Final = 300.0
MAX_WAIT_SECONDS: Final = 3600.0
_ECHOED: Final = ("addressId", "cartId", "lat", "lng")
# While a UPI order waits for its payment, no other order of that shop is asked for: paying
# the first one later would place both.
PAYMENT_UNDER_WAY: Final = (
    "You have an order waiting for your UPI payment: pay it, or let it expire, before "
    "placing another."
)

ChoiceKind = Literal["cash", "qr", "app"]


class PaymentChoice(BaseModel):
    """One way to pay the dialog offers."""

    id: str  # "COD", "upi-qr", or the UPI app's intent id ("gpay://upi/")
    kind: ChoiceKind
    label: str


CASH_CHOICE: Final = PaymentChoice(id=CASH, kind="cash", label="Cash on delivery")


def choice_arguments(choice: PaymentChoice) -> dict[str, Any]:
    """What the spending call is sent for this way of paying."""
    if choice.kind == "qr":
        return {"paymentMethod": UPI, "generateUPIQR": True}
    if choice.kind == "app":
        return {"paymentMethod": UPI, "intentApp": choice.id}
    return {"paymentMethod": CASH}


def with_payment(arguments: dict[str, Any], choice: PaymentChoice) -> dict[str, Any]:
    """`arguments` paid this way (any earlier choice's keys dropped)."""
    kept = {key: value for key, value in arguments.items() if key not in PAYMENT_ARGUMENTS}
    return {**kept, **choice_arguments(choice)}


def chosen_id(arguments: dict[str, Any]) -> str:
    """Which choice `arguments` were made with ("COD" unless they ask for UPI)."""
    if arguments.get("paymentMethod") != UPI:
        return CASH
    if arguments.get("generateUPIQR") is True:
        return QR_CHOICE
    return str(arguments.get("intentApp") or "")


def offered_choices(options_text: str) -> list[PaymentChoice]:
    """Cash (when offered) and the enabled UPI ways of a `get_payment_options` answer:
    scanning a QR (desktop methods) and each UPI app (mobile methods)."""
    try:
        payload = json.loads(options_text)
    except ValueError:
        return []
    record = as_dict(payload) or {}
    record = as_dict(record.get("data")) or record
    choices: list[PaymentChoice] = []
    cod = as_dict(record.get("cod")) or {}
    if to_bool(cod.get("available")) is not False:
        choices.append(CASH_CHOICE)
    platforms = as_dict(record.get("platforms")) or {}
    desktop = _enabled(platforms.get("desktop"))
    if desktop:
        choices.append(PaymentChoice(id=QR_CHOICE, kind="qr", label="UPI · scan a QR code"))
    for method in _enabled(platforms.get("mobile")):
        name = to_str(method.get("displayName"), 40) or to_str(method.get("id"), 40) or ""
        app_id = to_str(method.get("id"), 200)
        if app_id and (method.get("kind") in (None, "intent")):
            choices.append(PaymentChoice(id=app_id, kind="app", label=f"UPI · {name}"))
    return choices


def offered_here(choices: list[PaymentChoice], *, phone: bool) -> list[PaymentChoice]:
    """The choices this device can use: a phone pays through a UPI app, a computer by
    scanning a QR (all of them when the shop offers this device no UPI way)."""
    kind = "app" if phone else "qr"
    here = [choice for choice in choices if choice.kind in ("cash", kind)]
    return here if any(c.kind == kind for c in here) else list(choices)


def _enabled(group: Any) -> list[dict[str, Any]]:
    methods = [as_dict(m) for m in as_list((as_dict(group) or {}).get("methods"))[:10]]
    return [m for m in methods if m and to_bool(m.get("enabled")) is not False]


class PendingPayment(BaseModel):
    """A UPI order Swiggy made and holds until it is paid: what to show and to poll by."""

    order_id: str
    paas_id: str
    transaction_id: str | None = None
    intent_url: str | None = None
    bridge_url: str | None = None
    is_qr: bool = False
    poll_seconds: float = DEFAULT_POLL_SECONDS
    deadline: datetime
    amount: float | None = None
    echo: dict[str, Any] = {}  # Food's addressId, cartId, lat, lng: sent back when polling
    polls: int = 0
    last_poll: datetime | None = None
    confirm_calls: int = 0

    def status_arguments(self) -> dict[str, Any]:
        return {"paasId": self.paas_id, "orderId": self.order_id, **self.echo}

    def confirm_arguments(self) -> dict[str, Any]:
        """confirm_order's ids: Instamart and Dineout need paasId; Food its address and
        coordinates (and the cart id, recommended)."""
        extra = {"transactionId": self.transaction_id} if self.transaction_id else {}
        return {"orderId": self.order_id, "paasId": self.paas_id, **extra, **self.echo}

    def due(self, now: datetime) -> bool:
        """Whether the next poll is due (the shop's interval since the last one)."""
        return self.last_poll is None or now >= self.last_poll + timedelta(
            seconds=self.poll_seconds
        )


def pending_payment(answer_text: str, now: datetime) -> PendingPayment | None:
    """The payment a UPI spending call's answer waits for; None without its ids."""
    try:
        payload = json.loads(answer_text)
    except ValueError:
        return None
    record = as_dict(payload) or {}
    record = as_dict(record.get("data")) or record
    order_id, paas_id = to_id(record.get("orderId")), to_id(record.get("paasId"))
    if not order_id or not paas_id:
        return None
    interval_ms = _number(record.get("pollingIntervalInMs"))
    wait_ms = _number(record.get("maxTimeToPollForInMs"))
    poll = max(MIN_POLL_SECONDS, interval_ms / 1000 if interval_ms else DEFAULT_POLL_SECONDS)
    wait = min(MAX_WAIT_SECONDS, wait_ms / 1000 if wait_ms else DEFAULT_WAIT_SECONDS)
    return PendingPayment(
        order_id=order_id,
        paas_id=paas_id,
        transaction_id=to_id(record.get("transactionId")),
        intent_url=_link(record.get("upiIntentUrl"), ("upi:", "gpay:", "phonepe:", "paytmmp:")),
        bridge_url=_link(record.get("bridgeUrl"), ("http://", "https://")),
        is_qr=to_bool(record.get("isQrFlow")) is True,
        poll_seconds=poll,
        deadline=now + timedelta(seconds=wait),
        amount=_number(record.get("cartTotal") or record.get("totalAmount")) or None,
        echo={key: record[key] for key in _ECHOED if record.get(key) is not None},
    )


def _number(value: Any) -> float:
    if isinstance(value, bool):
        return 0.0
    try:
        number = float(value)
    except (TypeError, ValueError):
        return 0.0
    return number if number > 0 and number == number and number != float("inf") else 0.0


def _link(value: Any, schemes: tuple[str, ...]) -> str | None:
    """A link of one of `schemes` (a `javascript:` or other link is never kept)."""
    text = to_str(value, 2000)
    return text if text and text.lower().startswith(schemes) else None


class PaymentCheck(BaseModel):
    """One `check_payment_status` answer."""

    status: str = ""
    terminal: bool = False
    succeeded: bool = False
    failed: bool = False
    confirmed: bool = False


def payment_check(answer_text: str) -> PaymentCheck | None:
    """The poll's answer; None when it is not one (a failure envelope, an unreadable text)."""
    try:
        payload = json.loads(answer_text)
    except ValueError:
        return None
    record = as_dict(payload) or {}
    if record.get("success") is False:
        return None
    record = as_dict(record.get("data")) or record
    if "paasId" not in record and "terminal" not in record:
        return None
    succeeded = to_bool(record.get("isTerminalSuccess")) is True
    failed = to_bool(record.get("isTerminalFailure")) is True
    return PaymentCheck(
        status=to_str(record.get("status"), 40) or "",
        terminal=to_bool(record.get("terminal")) is True or succeeded or failed,
        succeeded=succeeded and not failed,
        failed=failed,
        confirmed=to_bool(record.get("confirmed")) is True,
    )


def confirm_result(answer_text: str) -> str:
    """`confirm_order`'s `result` ("success", "failed", "pending"), or "" when unreadable."""
    try:
        payload = json.loads(answer_text)
    except ValueError:
        return ""
    record = as_dict(payload) or {}
    if record.get("success") is False:
        return "failed"
    record = as_dict(record.get("data")) or record
    return (to_str(record.get("result"), 40) or "").lower()
