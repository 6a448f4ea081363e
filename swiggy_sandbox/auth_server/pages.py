"""The sandbox sign-in pages: plain HTML, every value escaped, no scripts."""

from __future__ import annotations

from html import escape

SECURITY_HEADERS = {
    "cache-control": "no-store",
    "x-frame-options": "DENY",
    "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; "
    "frame-ancestors 'none'",
    "referrer-policy": "no-referrer",
}
_STYLE = (
    "body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;"
    "color:#1b1b1b;line-height:1.5}h1{font-size:1.4rem;color:#fc8019}"
    "input{font-size:1.1rem;padding:.4rem;width:100%;box-sizing:border-box;margin:.3rem 0 1rem}"
    "button{font-size:1rem;padding:.5rem 1.2rem;margin-right:.5rem}"
    ".note{background:#fff4e5;padding:.6rem;border-radius:.4rem}.error{color:#b00020}"
)


def _page(title: str, body: str) -> str:
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{_STYLE}</style></head><body>"
        f"<h1>Swiggy (sandbox)</h1>{body}</body></html>"
    )


def _form(request_id: str, inner: str) -> str:
    return (
        '<form method="post" action="/auth/authorize">'
        f'<input type="hidden" name="request_id" value="{escape(request_id)}">{inner}</form>'
    )


def _error(message: str) -> str:
    return f'<p class="error" role="alert">{escape(message)}</p>' if message else ""


_CANCEL = '<button type="submit" name="step" value="deny" formnovalidate>Cancel</button>'


def phone_step(request_id: str, app: str, error: str = "") -> str:
    inner = (
        '<label for="phone">Mobile number</label>'
        '<input id="phone" name="phone" inputmode="numeric" autocomplete="tel" '
        'pattern="[6-9][0-9]{9}" required>'
        f'<button type="submit" name="step" value="phone">Send OTP</button>{_CANCEL}'
    )
    body = (
        f"<p><strong>{escape(app)}</strong> wants to use your Swiggy account.</p>"
        f"{_error(error)}<p>Sign in with your phone number.</p>{_form(request_id, inner)}"
    )
    return _page("Sign in to Swiggy", body)


def otp_step(request_id: str, app: str, phone: str, otp: str, error: str = "") -> str:
    inner = (
        '<label for="otp">OTP</label>'
        '<input id="otp" name="otp" inputmode="numeric" autocomplete="one-time-code" required>'
        f'<button type="submit" name="step" value="otp">Verify</button>{_CANCEL}'
    )
    body = (
        f"<p>We sent an OTP to <strong>{escape(phone)}</strong>.</p>"
        f'<p class="note">Sandbox: no SMS is sent. Your OTP is '
        f'<strong id="sandbox-otp">{escape(otp)}</strong>.</p>'
        f"{_error(error)}{_form(request_id, inner)}"
    )
    return _page("Enter the OTP", body)


def consent_step(request_id: str, app: str, phone: str) -> str:
    inner = (
        '<button type="submit" name="step" value="approve">Approve</button>'
        '<button type="submit" name="step" value="deny">Deny</button>'
    )
    body = (
        f"<p>Signed in as <strong>{escape(phone)}</strong>.</p>"
        f"<p>Allow <strong>{escape(app)}</strong> to search, fill your carts and place orders "
        "and bookings on Swiggy Instamart, Food and Dineout for you?</p>"
        f"{_form(request_id, inner)}"
    )
    return _page("Allow access", body)


def blocked(app: str, back_url: str) -> str:
    body = (
        f'<p class="error"><strong>{escape(app)}</strong> isn\'t whitelisted yet.</p>'
        "<p>Swiggy has not allow-listed this app for sign-in. Ask its developer, or paste a "
        "token into the app instead.</p>"
        f'<p><a id="back" href="{escape(back_url)}">Back to {escape(app)}</a></p>'
    )
    return _page("App not allowed", body)


def problem(message: str) -> str:
    return _page("Sign-in problem", f"{_error(message)}<p>Nothing was shared.</p>")


def protected_resource_root() -> str:
    """What the root protected-resource URL answers: a page, not JSON (as on Swiggy)."""
    body = (
        "<p>Swiggy MCP servers: <code>/im</code>, <code>/food</code>, <code>/dineout</code>.</p>"
        "<p>Their metadata is per server, e.g. <code>/food/.well-known/"
        "oauth-protected-resource</code>.</p>"
    )
    return _page("Swiggy MCP", body)
