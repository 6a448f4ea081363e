"""The payment and support tools every Swiggy server shares.

`register_payment_tools(server, shop, domain)` adds get_payment_options,
check_payment_status, confirm_order and report_error to a sandbox server; call it once
from each server factory with its domain ("im", "food" or "dineout"). Instamart and Food
take cash on delivery and UPI (a QR or a UPI app; the payment simulator page decides the
payment, see `shop.upi`). Dineout books free tables only: its UPI methods are listed but
switched off, and it has no UPI payment to check or confirm.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Annotated, Any, Literal
from urllib.parse import quote

from mcp.server.mcpserver import Context
from mcp_types import ToolAnnotations
from pydantic import Field
from sqlalchemy import select

from swiggy_core.logsafe import MASK, redact
from swiggy_sandbox.servers.envelope import SandboxServer, ok
from swiggy_sandbox.shop import Shop, ShopError
from swiggy_sandbox.shop import db as tables
from swiggy_sandbox.shop.tracking import iso
from swiggy_sandbox.shop.upi import payments_of
from swiggy_sandbox.shop.upi_request import QR_METHOD_ID, UPI_APPS

logger = logging.getLogger(__name__)

Domain = Literal["im", "food", "dineout"]
# (user_id, addressId or None) → the amount the cart would cost, like "₹113.00", or None.
AmountDue = Callable[[str, str | None], str | None]

PAYMENT_WRITE_TOOLS = frozenset({"confirm_order", "report_error"})
PLACE_ORDER_TOOL: dict[str, str] = {
    "im": "checkout",
    "food": "place_food_order",
    "dineout": "book_table",
}
# The spending tools' UPI arguments, described alike on Instamart and Food.
PAYMENT_METHOD_DOC = "'Cash' (the default) or 'UPI' with exactly one of intentApp/generateUPIQR."
INTENT_APP_DOC = "UPI on a phone: a platforms.mobile method id from get_payment_options."
UPI_QR_DOC = "UPI on a desktop: true for a QR to scan (the platforms.desktop method)."
SUPPORT_EMAIL = "support@swiggy-sandbox.invalid"
_DOMAINS = ("im", "food", "dineout")
_CASH = {
    "im": ("COD", "Cash on Delivery"),
    "food": ("COD", "Cash on Delivery"),
    "dineout": ("Cash", "Free booking (pay at the restaurant)"),
}
_NO_UPI = "the sandbox started no such UPI payment for you"
_FIELD_CHARS = 500
_SECRET_WORDS = ("token", "secret", "password", "authorization", "otp", "verifier", "cookie", "key")

_READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)
_WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)


def payment_options(domain: Domain, amount: str | None, address_id: str | None) -> dict[str, Any]:
    """The documented PaymentOptionsView: cash, and UPI (switched off for Dineout)."""
    cash_id, cash_name = _CASH[domain]
    upi_on = domain != "dineout"
    cash = {"id": cash_id, "groupName": "Cash", "displayName": cash_name, "enabled": True}
    intents = [
        {"id": app, "groupName": "UPI", "displayName": name, "kind": "intent", "enabled": upi_on}
        for app, name in UPI_APPS
    ]
    qr = {
        "id": QR_METHOD_ID,
        "groupName": "UPI",
        "displayName": "Scan a QR with any UPI app",
        "kind": "qr",
        "enabled": upi_on,
    }
    options: dict[str, Any] = {
        "platforms": {
            "mobile": {"groupName": "UPI", "methods": intents},
            "desktop": {"groupName": "UPI", "methods": [qr]},
        },
        "cod": {"available": True, "id": cash_id, "displayName": cash_name},
        "allMethods": [cash, *intents, qr],
        "paymentAmount": amount,
        "placeOrderToolName": PLACE_ORDER_TOOL[domain],
    }
    if domain == "food" and address_id:
        options["addressId"] = address_id
    return options


def _instamart_amount(shop: Shop) -> AmountDue:
    def amount(user_id: str, address_id: str | None) -> str | None:
        cart = shop.instamart.cart(user_id)
        return str(cart["cartTotalAmount"]) if cart["items"] else None

    return amount


def _known_order(shop: Shop, user_id: str, order_id: str) -> bool:
    """True when `order_id` is one of the user's placed orders or bookings."""
    orders, bookings = tables.orders, tables.bookings
    with shop.db.tx() as conn:
        order = conn.execute(
            select(orders.c.order_id).where(
                (orders.c.order_id == order_id) & (orders.c.user_id == user_id)
            )
        ).first()
        booking = conn.execute(
            select(bookings.c.booking_id).where(
                (bookings.c.booking_id == order_id) & (bookings.c.user_id == user_id)
            )
        ).first()
    return order is not None or booking is not None


def _no_payment(shop: Shop, user_id: str, order_id: str | None, paas_id: str) -> ShopError:
    """Why there is nothing to check or confirm: a cash order or free booking, or no such
    payment."""
    if order_id and _known_order(shop, user_id, order_id):
        return ShopError(
            f"Order {order_id} is cash on delivery (or a free booking): it has no UPI payment "
            "and needs no confirmation."
        )
    return ShopError(f"Invalid paasId '{paas_id}': no such payment; {_NO_UPI}.")


_CONFIRM_MESSAGES = {
    "success": "Order {order} is confirmed and placed.",
    "pending": "The payment for order {order} is not complete yet: nothing is placed.",
    "failed": "The payment for order {order} failed or expired: nothing was ordered.",
}


def _status_message(status: dict[str, Any]) -> str:
    if status["confirmed"]:
        return f"Paid; order {status['orderId']} is confirmed."
    if status["isTerminalSuccess"]:
        return f"Paid; call confirm_order to place order {status['orderId']}."
    if status["isTerminalFailure"]:
        return f"Payment {status['status'].lower()}: nothing was ordered; do not confirm."
    return "Payment pending: poll again at the polling interval."


def _clean(value: Any) -> str:
    """One report field as short, redacted text."""
    return redact(str(value))[:_FIELD_CHARS]


def _context_lines(context: dict[str, Any] | None) -> list[str]:
    lines = []
    for key, value in list((context or {}).items())[:20]:
        secret = any(word in str(key).lower() for word in _SECRET_WORDS)
        lines.append(f"{_clean(key)}: {MASK if secret else _clean(value)}")
    return lines


def error_report(
    report_id: str, domain: str, tool: str, error_message: str, details: dict[str, Any]
) -> dict[str, Any]:
    """The report: a summary, a pre-filled mailto link, never a secret."""
    lines = [f"Report {report_id}", f"Server: {domain}", f"Tool: {_clean(tool)}"]
    lines.append(f"Error: {_clean(error_message)}")
    if details.get("flowDescription"):
        lines.append(f"What happened: {_clean(details['flowDescription'])}")
    if context := _context_lines(details.get("toolContext")):
        lines.append("Context: " + "; ".join(context))
    if details.get("userNotes"):
        lines.append(f"Notes: {_clean(details['userNotes'])}")
    summary = "\n".join(lines)
    subject = f"Swiggy sandbox error report {report_id}: {_clean(tool)}"
    mailto = f"mailto:{SUPPORT_EMAIL}?subject={quote(subject)}&body={quote(summary)}"
    return {"reportId": report_id, "domain": domain, "summary": summary, "mailtoLink": mailto}


def register_payment_tools(
    server: SandboxServer, shop: Shop, domain: Domain, *, amount_due: AmountDue | None = None
) -> None:
    """Add the shared payment and support tools to `server` for `domain`.

    `amount_due` reports the cart's amount for get_payment_options' `paymentAmount`
    (Instamart reads its own cart when it is not given; otherwise the amount is null).
    """
    if domain not in _DOMAINS:
        raise ValueError(f"unknown domain {domain!r}; expected one of {', '.join(_DOMAINS)}")
    amount_of = amount_due or (_instamart_amount(shop) if domain == "im" else None)
    server_domain: Domain = domain  # report_error has its own `domain` argument

    payments = payments_of(shop) if domain != "dineout" else None
    options_message = (
        "Cash is available. UPI is listed but not supported for Dineout in the sandbox."
        if domain == "dineout"
        else "Cash on delivery and UPI (scan a QR, or a UPI app on a phone) are available."
    )

    @server.tool(annotations=_READ, structured_output=False)
    def get_payment_options(
        ctx: Context,
        addressId: Annotated[
            str | None, Field(description="Food only: the addressId of the cart (echoed).")
        ] = None,
    ) -> str:
        """Payment methods for the cart; then call the returned placeOrderToolName."""
        user_id = server.user_of(ctx)
        amount = amount_of(user_id, addressId) if amount_of else None
        return ok(payment_options(server_domain, amount, addressId), options_message)

    @server.tool(annotations=_READ, structured_output=False)
    def check_payment_status(
        ctx: Context,
        paasId: Annotated[
            str, Field(description="The payment's paasId from the UPI pending answer.")
        ],
        orderId: str | None = None,
        addressId: str | None = None,
        cartId: str | None = None,
        lat: float | None = None,
        lng: float | None = None,
    ) -> str:
        """One poll of a UPI payment; poll at pollingIntervalInMs until terminal."""
        user_id = server.user_of(ctx)
        found = payments.check(user_id, server_domain, paasId, orderId) if payments else None
        if found is None:
            raise _no_payment(shop, user_id, orderId, paasId)
        echoes = {"addressId": addressId, "cartId": cartId, "lat": lat, "lng": lng}
        data = {**found, **{k: v for k, v in echoes.items() if v is not None}}
        return ok(data, _status_message(data))

    def confirm(ctx: Context, order_id: str, paas_id: str | None) -> str:
        user_id = server.user_of(ctx)
        found = payments.confirm(user_id, server_domain, order_id, paas_id) if payments else None
        if found is None:
            raise _no_payment(shop, user_id, order_id, paas_id or "")
        return ok(found, _CONFIRM_MESSAGES[found["result"]].format(order=order_id))

    if domain == "food":

        @server.tool(name="confirm_order", annotations=_WRITE, structured_output=False)
        def confirm_food_order(
            ctx: Context,
            orderId: str,
            addressId: str,
            lat: float,
            lng: float,
            cartId: str | None = None,
            paasId: str | None = None,
            transactionId: str | None = None,
        ) -> str:
            """Place the order once its UPI payment succeeded (idempotent; never for cash)."""
            shop.address(server.user_of(ctx), addressId)  # an unknown address is refused
            return confirm(ctx, orderId, paasId)

    else:

        @server.tool(name="confirm_order", annotations=_WRITE, structured_output=False)
        def confirm_order(
            ctx: Context,
            orderId: str,
            paasId: str,
            transactionId: str | None = None,
        ) -> str:
            """Place the order once its UPI payment succeeded (idempotent; never for cash)."""
            return confirm(ctx, orderId, paasId)

    @server.tool(annotations=_WRITE, structured_output=False)
    def report_error(
        ctx: Context,
        tool: Annotated[str, Field(description="The tool that failed, e.g. 'checkout'.")],
        errorMessage: Annotated[str, Field(description="The error the user saw.")],
        domain: Annotated[str | None, Field(description="'im', 'food' or 'dineout'.")] = None,
        flowDescription: str | None = None,
        toolContext: Annotated[
            dict[str, Any] | None, Field(description="Ids from the failed call.")
        ] = None,
        userNotes: str | None = None,
    ) -> str:
        """Prepare an error report: a summary and a mailto link (also logged by the server)."""
        user_id = server.user_of(ctx)
        where = (domain or server_domain).strip().lower()
        if where not in _DOMAINS:
            raise ShopError(f"Invalid domain '{domain}': use im, food or dineout.")
        with shop.db.tx() as conn:
            number = shop.db.next_id(conn, "error_report", 1001)
        details = {
            "flowDescription": flowDescription,
            "toolContext": toolContext,
            "userNotes": userNotes,
        }
        report = error_report(f"ERR{number}", where, tool, errorMessage, details)
        report["loggedAt"] = iso(shop.clock().timestamp())
        logger.warning("Error report from %s:\n%s", user_id, report["summary"])
        return ok(report, f"Error report {report['reportId']} is ready: open the link to send it.")
