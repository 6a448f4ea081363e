"""The UPI payment simulator page: `GET /pay/<paasId>` shows a payment, `POST` decides it.

A UPI pending answer's `bridgeUrl` points here. The person (or a test) pays, fails the
payment, or pays and has Swiggy confirm the order at once (`pay_confirmed`); doing nothing
lets it expire. The page reads and writes the shop's database, so it decides payments
started over any transport (HTTP or stdio) that shares that database. No external assets,
no scripts; every value is escaped.
"""

from __future__ import annotations

from datetime import UTC, datetime
from html import escape
from urllib.parse import parse_qs

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from swiggy_core.constants import SWIGGY_TZ
from swiggy_sandbox.shop import Shop, ShopError
from swiggy_sandbox.shop.common import amount_text
from swiggy_sandbox.shop.upi import PAGE_PATH, Payment, UpiPayments, payments_of

_SHOP_NAMES = {"im": "Instamart", "food": "Food"}
_MAX_FORM_BYTES = 1_000
# Per status: the heading (with the amount) and what it means for the person.
_OUTCOMES = {
    "PENDING": ("You are paying {amount} to Swiggy (sandbox)", "Waiting for you to pay."),
    "SUCCESS": (
        "You paid {amount} to Swiggy (sandbox)",
        "Go back to the app: it confirms your order.",
    ),
    "FAILED": (
        "Your payment of {amount} failed",
        "You were not charged and nothing was ordered.",
    ),
    "EXPIRED": (
        "Your payment of {amount} expired",
        "You were not charged and nothing was ordered.",
    ),
}
_CONFIRMED = "Swiggy confirmed your order: it is placed."
_STYLE = """
body{font-family:system-ui,sans-serif;max-width:34rem;margin:2rem auto;padding:0 1rem;
color:#1b1b1b;line-height:1.5}
h1{font-size:1.4rem}.status{padding:.75rem 1rem;border-radius:.5rem;background:#f4f4f4}
.SUCCESS{background:#e7f6ec}.FAILED,.EXPIRED{background:#fdecea}
form{display:inline}button{font-size:1rem;padding:.6rem 1.2rem;margin:.5rem .5rem 0 0;
border-radius:.4rem;border:1px solid #888;cursor:pointer}
.pay{background:#fc8019;color:#fff;border-color:#fc8019}small{color:#555}
"""


def _clock_time(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, UTC).astimezone(SWIGGY_TZ).strftime("%H:%M")


def _buttons(paas_id: str) -> str:
    action = escape(f"{PAGE_PATH}/{paas_id}")
    buttons = [
        ("pay", "pay", "Pay"),
        ("fail", "", "Fail"),
        ("pay_confirmed", "", "Pay, and Swiggy confirms the order itself"),
    ]
    return "".join(
        f'<form method="post" action="{action}"><input type="hidden" name="action" '
        f'value="{value}"><button class="{css}" type="submit">{escape(label)}</button></form>'
        for value, css, label in buttons
    )


def _body(payment: Payment, now: float, note: str) -> str:
    status = payment.status(now)
    shop = escape(_SHOP_NAMES.get(payment.shop, payment.shop))
    heading, outcome = _OUTCOMES[status]
    if payment.confirmed:
        outcome = _CONFIRMED
    parts = [
        f"<h1>{escape(heading.format(amount=amount_text(payment.amount)))}</h1>",
        f"<p>For your {shop} order {escape(payment.order_id)}. This is a practice payment: "
        "no money moves.</p>",
        f'<p class="status {escape(status)}" role="status">{escape(outcome)}</p>',
    ]
    if note:
        parts.append(f"<p><small>{escape(note)}</small></p>")
    if status == "PENDING":
        expires = escape(_clock_time(payment.expires_at))
        parts += [
            _buttons(payment.paas_id),
            f"<p><small>To let it expire, do nothing: it expires at {expires} (5 minutes "
            "after it started), and nothing is ordered.</small></p>",
        ]
    return "".join(parts)


def _page(title: str, body: str, status_code: int = 200) -> HTMLResponse:
    html = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{_STYLE}</style></head>"
        f"<body>{body}</body></html>"
    )
    headers = {
        "cache-control": "no-store",
        "content-security-policy": "default-src 'none'; "
        "style-src 'unsafe-inline'; form-action 'self'",
    }
    return HTMLResponse(html, status_code=status_code, headers=headers)


def _not_found(paas_id: str) -> HTMLResponse:
    body = f"<h1>No such payment</h1><p>There is no payment {escape(paas_id)} to show.</p>"
    return _page("No such payment", body, 404)


def pay_routes(shop: Shop) -> list[Route]:
    """GET and POST `/pay/{paas_id}` over `shop`'s payments."""
    payments: UpiPayments = payments_of(shop)

    async def show(request: Request) -> Response:
        paas_id = request.path_params["paas_id"]
        payment = payments.payment(paas_id)
        if payment is None:
            return _not_found(paas_id)
        return _page("Swiggy sandbox payment", _body(payment, payments.now(), ""))

    async def decide(request: Request) -> Response:
        paas_id = request.path_params["paas_id"]
        raw = (await request.body())[:_MAX_FORM_BYTES].decode("utf-8", "replace")
        action = (parse_qs(raw).get("action") or [""])[0]
        try:
            payments.decide(paas_id, action)
        except ShopError as refused:
            payment = payments.payment(paas_id)
            if payment is None:
                return _not_found(paas_id)
            body = _body(payment, payments.now(), str(refused))
            return _page("Swiggy sandbox payment", body, 409)
        decided = payments.payment(paas_id)
        assert decided is not None  # it was just decided
        return _page("Swiggy sandbox payment", _body(decided, payments.now(), ""))

    path = PAGE_PATH + "/{paas_id}"
    return [Route(path, show, methods=["GET"]), Route(path, decide, methods=["POST"])]
