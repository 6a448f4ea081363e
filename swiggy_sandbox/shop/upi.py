"""UPI payments in the sandbox: the documented pending answer, a payment's states, and placing
its order once it is paid and confirmed.

A UPI checkout stores a payment that holds the order it would place; nothing is placed and
the cart stays as it is. The payment simulator page decides the payment (pay, fail, or pay
and have Swiggy confirm it at once); undecided, it expires once `MAX_POLL_MS` has passed on
the shop's clock. confirm_order after a successful payment places the order, exactly once.
Payments live in the shop's database, so every process serving the sandbox sees the same.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import quote

from sqlalchemy import Connection, select

from swiggy_sandbox.shop import db
from swiggy_sandbox.shop.errors import ShopError
from swiggy_sandbox.shop.upi_request import UpiChoice

if TYPE_CHECKING:
    from swiggy_sandbox.shop.facade import Shop

UpiShop = Literal["im", "food"]
POLL_INTERVAL_MS = 5_000
MAX_POLL_MS = 300_000
PAYEE_VPA = "swiggy.sandbox@upi"
PAYEE_NAME = "Swiggy Sandbox"
PAGE_PATH = "/pay"
ACTIONS = ("pay", "fail", "pay_confirmed")
_FIRST_PAYMENT_NUMBER = 700_001

# Places a paid order: (transaction, user_id, the stored placement).
Placer = Callable[[Connection, str, dict[str, Any]], None]


@dataclass(frozen=True, slots=True)
class NewPayment:
    """A UPI payment to start for an order that is not placed yet."""

    user_id: str
    shop: UpiShop
    order_id: str
    amount: float
    created_at: float
    placement: dict[str, Any]
    choice: UpiChoice


def intent_url(amount: float, transaction_id: str) -> str:
    """The UPI deep link a QR encodes or a UPI app opens."""
    return (
        f"upi://pay?pa={PAYEE_VPA}&pn={quote(PAYEE_NAME)}&am={amount:.2f}"
        f"&tr={transaction_id}&cu=INR"
    )


def start_payment(
    database: db.Database, conn: Connection, new: NewPayment, base_url: str
) -> dict[str, Any]:
    """Store a pending payment; answer the documented pending fields both shops share."""
    number = database.next_id(conn, "upi_payment", _FIRST_PAYMENT_NUMBER)
    paas_id, transaction_id = f"PAAS{number}", f"TXN{number}"
    conn.execute(
        db.upi_payments.insert().values(
            paas_id=paas_id,
            user_id=new.user_id,
            shop=new.shop,
            order_id=new.order_id,
            transaction_id=transaction_id,
            amount=new.amount,
            created_at=new.created_at,
            outcome=None,
            confirmed=False,
            placement=new.placement,
            checks=0,
            confirms=0,
        )
    )
    return {
        "orderId": new.order_id,
        "transactionId": transaction_id,
        "paasId": paas_id,
        "upiIntentUrl": intent_url(new.amount, transaction_id),
        "bridgeUrl": f"{base_url.rstrip('/')}{PAGE_PATH}/{paas_id}",
        "isQrFlow": new.choice.qr,
        "pollingIntervalInMs": POLL_INTERVAL_MS,
        "maxTimeToPollForInMs": MAX_POLL_MS,
        "paymentMethod": "UPI",
        "status": "PENDING_PAYMENT",
    }


@dataclass(frozen=True, slots=True)
class Payment:
    """One stored payment as it stands."""

    paas_id: str
    user_id: str
    shop: UpiShop
    order_id: str
    transaction_id: str
    amount: float
    created_at: float
    outcome: str | None
    confirmed: bool
    placement: dict[str, Any]
    checks: int
    confirms: int

    @property
    def expires_at(self) -> float:
        """When an undecided payment stops being payable (unix seconds)."""
        return self.created_at + MAX_POLL_MS / 1000

    def status(self, now: float) -> str:
        """PENDING, SUCCESS, FAILED, or EXPIRED once the poll window passed undecided."""
        if self.outcome:
            return self.outcome
        return "EXPIRED" if now >= self.expires_at else "PENDING"


def _payment(row: Any) -> Payment:
    return Payment(**row._mapping)


def _order_status(payment: Payment, status: str) -> str:
    if payment.confirmed:
        return "CONFIRMED"
    if status == "SUCCESS":
        return "AWAITING_CONFIRMATION"
    return "PENDING_PAYMENT" if status == "PENDING" else "NOT_PLACED"


def status_wire(payment: Payment, now: float) -> dict[str, Any]:
    """check_payment_status' documented answer (without the caller's echoes)."""
    status = payment.status(now)
    return {
        "paasId": payment.paas_id,
        "status": status,
        "terminal": status != "PENDING",
        "isTerminalSuccess": status == "SUCCESS",
        "isTerminalFailure": status in ("FAILED", "EXPIRED"),
        "confirmed": payment.confirmed,
        "orderStatus": _order_status(payment, status),
        "orderId": payment.order_id,
        "cartTotal": payment.amount,
    }


class UpiPayments:
    """Reading, deciding and confirming the sandbox's UPI payments."""

    def __init__(
        self, database: db.Database, clock: Callable[[], Any], placers: dict[str, Placer]
    ) -> None:
        self._db, self._clock, self._placers = database, clock, placers

    def now(self) -> float:
        """The shop's time (unix seconds)."""
        return float(self._clock().timestamp())

    def _find(self, conn: Connection, paas_id: str) -> Payment | None:
        table = db.upi_payments
        row = conn.execute(select(table).where(table.c.paas_id == paas_id)).first()
        return _payment(row) if row else None

    def _of_order(self, conn: Connection, user_id: str, shop: str, order_id: str) -> Payment | None:
        table = db.upi_payments
        row = conn.execute(
            select(table).where(
                (table.c.order_id == order_id)
                & (table.c.user_id == user_id)
                & (table.c.shop == shop)
            )
        ).first()
        return _payment(row) if row else None

    def _count(self, conn: Connection, payment: Payment, column: str) -> None:
        table = db.upi_payments
        conn.execute(
            table.update()
            .where(table.c.paas_id == payment.paas_id)
            .values({column: getattr(payment, column) + 1})
        )

    def _place(self, conn: Connection, payment: Payment) -> None:
        """Place the paid order and mark the payment confirmed (once)."""
        self._placers[payment.shop](conn, payment.user_id, payment.placement)
        table = db.upi_payments
        conn.execute(
            table.update().where(table.c.paas_id == payment.paas_id).values(confirmed=True)
        )

    def check(
        self, user_id: str, shop: str, paas_id: str, order_id: str | None
    ) -> dict[str, Any] | None:
        """One poll (counted); None when the user has no such payment in this shop."""
        with self._db.tx() as conn:
            payment = self._find(conn, paas_id)
            if payment is None or (payment.user_id, payment.shop) != (user_id, shop):
                return None
            if order_id and order_id != payment.order_id:
                raise ShopError(
                    f"Invalid orderId '{order_id}': payment {paas_id} is for order "
                    f"{payment.order_id}."
                )
            self._count(conn, payment, "checks")
            return status_wire(payment, self.now())

    def confirm(
        self, user_id: str, shop: str, order_id: str, paas_id: str | None
    ) -> dict[str, Any] | None:
        """confirm_order (counted, idempotent); None when the order has no UPI payment."""
        with self._db.tx() as conn:
            payment = self._of_order(conn, user_id, shop, order_id)
            if payment is None:
                return None
            if paas_id and paas_id != payment.paas_id:
                raise ShopError(
                    f"Invalid paasId '{paas_id}': order {order_id} was paid with {payment.paas_id}."
                )
            self._count(conn, payment, "confirms")
            answer: dict[str, Any] = {"orderId": order_id, "paasId": payment.paas_id}
            status = payment.status(self.now())
            if status == "PENDING":
                return {**answer, "orderStatus": "PENDING_PAYMENT", "result": "pending"}
            if status != "SUCCESS":
                return {**answer, "orderStatus": "NOT_PLACED", "result": "failed"}
            if not payment.confirmed:
                self._place(conn, payment)
            return {**answer, "orderStatus": "CONFIRMED", "result": "success"}

    def payment(self, paas_id: str) -> Payment | None:
        """The payment as it stands (the simulator page shows it)."""
        with self._db.tx() as conn:
            return self._find(conn, paas_id)

    def decide(self, paas_id: str, action: str) -> Payment:
        """The simulator's decision: pay, fail, or pay and have Swiggy confirm the order."""
        if action not in ACTIONS:
            raise ShopError(f"Invalid action '{action}': use {', '.join(ACTIONS)}.")
        with self._db.tx() as conn:
            payment = self._find(conn, paas_id)
            if payment is None:
                raise ShopError(f"Invalid paasId '{paas_id}': no such payment.")
            status = payment.status(self.now())
            if status != "PENDING":
                done = "paid" if status == "SUCCESS" else status.lower()
                raise ShopError(f"This payment is already {done}: nothing changed.")
            outcome = "FAILED" if action == "fail" else "SUCCESS"
            table = db.upi_payments
            conn.execute(table.update().where(table.c.paas_id == paas_id).values(outcome=outcome))
            decided = self._find(conn, paas_id)
            assert decided is not None  # read in this transaction
            if action == "pay_confirmed":
                self._place(conn, decided)
            return self._find(conn, paas_id) or decided

    def calls(self, paas_id: str) -> dict[str, int]:
        """How many check_payment_status and confirm_order calls this payment has had."""
        found = self.payment(paas_id)
        if found is None:
            raise ShopError(f"Invalid paasId '{paas_id}': no such payment.")
        return {"checks": found.checks, "confirms": found.confirms}


def payments_of(shop: Shop) -> UpiPayments:
    """The UPI payments of `shop`, placing paid orders through its Instamart and Food parts."""
    placers: dict[str, Placer] = {
        "im": shop.instamart.place_paid,
        "food": shop.food.place_paid,
    }
    return UpiPayments(shop.db, shop.clock, placers)


def payment_calls(shop: Shop, paas_id: str) -> dict[str, int]:
    """`{"checks": n, "confirms": m}` for one payment: tests read how often the app asked."""
    return payments_of(shop).calls(paas_id)
