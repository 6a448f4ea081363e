"""`/auth/authorize`: check the request, then phone → OTP → approve or deny (or auto-approve).

Problems with the client or its redirect URI are shown on the page and never redirected
(RFC 6749 §4.1.2.1); every other answer goes back to the app's redirect URI with `state`.
"""

from __future__ import annotations

import re
import secrets
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import urlencode

from swiggy_core.constants import OAUTH_PENDING_TTL_SECONDS, OAUTH_SCOPES_SUPPORTED
from swiggy_sandbox.auth_server import pages
from swiggy_sandbox.auth_server.clients import ClientDirectory
from swiggy_sandbox.auth_server.grants import CodeGrant, Grants

# The sandbox account an auto-approved sign-in belongs to unless `login_hint` names a phone.
DEFAULT_PHONE = "9876543210"
_PHONE = re.compile(r"[6-9]\d{9}")
_MAX_OTP_ATTEMPTS = 3


@dataclass(frozen=True, slots=True)
class Page:
    html: str
    status: int = 200


@dataclass(frozen=True, slots=True)
class Redirect:
    url: str


Outcome = Page | Redirect


@dataclass
class _Request:
    """One authorize request while the person goes through the steps."""

    client_id: str
    app_name: str
    redirect_uri: str
    state: str | None
    challenge: str
    resource: str
    created_at: float
    phone: str | None = None
    otp: str | None = field(default=None, repr=False)
    wrong_otps: int = 0
    verified: bool = False


class Consent:
    """The authorize endpoint's steps; thread-safe."""

    def __init__(
        self,
        clients: ClientDirectory,
        grants: Grants,
        *,
        default_resource: str,
        auto_approve: bool,
    ) -> None:
        self.clients = clients
        self.grants = grants
        self.default_resource = default_resource
        self.auto_approve = auto_approve
        self._lock = threading.Lock()
        self._requests: dict[str, _Request] = {}

    def begin(self, params: Mapping[str, str]) -> Outcome:
        """GET /auth/authorize: the first page (or, auto-approving, the redirect with a code)."""
        client_id, redirect_uri = params.get("client_id", ""), params.get("redirect_uri", "")
        app_name = self.clients.app_name(client_id, redirect_uri)
        if not self.clients.known(client_id):
            return Page(pages.problem("This app is not known to Swiggy's sign-in."), 400)
        if app_name is None:
            return Page(pages.problem("This app's return address is not allowed."), 400)
        state = params.get("state")
        if self.clients.is_blocked(client_id, app_name):
            back = _back(
                redirect_uri,
                state,
                error="unauthorized_client",
                error_description=f"{app_name} isn't whitelisted yet",
            )
            return back if self.auto_approve else Page(pages.blocked(app_name, back.url), 403)
        problem = self._check(params)
        if problem:
            return _back(redirect_uri, state, error=problem[0], error_description=problem[1])
        request = _Request(
            client_id=client_id,
            app_name=app_name,
            redirect_uri=redirect_uri,
            state=state,
            challenge=params["code_challenge"],
            resource=params.get("resource") or self.default_resource,
            created_at=self.grants.store.clock(),
        )
        if self.auto_approve:
            hint = params.get("login_hint", "")
            return self._approve(request, hint if _PHONE.fullmatch(hint) else DEFAULT_PHONE)
        request_id = secrets.token_urlsafe(24)
        with self._lock:
            self._forget_old()
            self._requests[request_id] = request
        return Page(pages.phone_step(request_id, app_name))

    def step(self, form: Mapping[str, str]) -> Outcome:
        """POST /auth/authorize: the phone, the OTP, then approve or deny."""
        request_id, action = form.get("request_id", ""), form.get("step", "")
        # One lock over each step: a double-submitted form cannot skip or repeat one.
        with self._lock:
            self._forget_old()
            request = self._requests.get(request_id)
            if request is None:
                return Page(
                    pages.problem("This sign-in has expired. Start again from the app."), 400
                )
            if action == "phone":
                return self._phone(request_id, request, form.get("phone", "").strip())
            if action == "otp":
                return self._otp(request_id, request, form.get("otp", "").strip())
            if action not in ("deny", "approve") or (
                action == "approve" and not (request.verified and request.phone)
            ):
                return Page(pages.problem("That step is not possible now. Start again."), 400)
            del self._requests[request_id]
        if action == "deny":
            return _back(request.redirect_uri, request.state, error="access_denied")
        return self._approve(request, str(request.phone))

    def _phone(self, request_id: str, request: _Request, phone: str) -> Outcome:
        if not _PHONE.fullmatch(phone):
            return Page(
                pages.phone_step(request_id, request.app_name, "Enter a 10-digit mobile number."),
                400,
            )
        request.phone, request.otp = phone, f"{secrets.randbelow(1_000_000):06d}"
        request.verified, request.wrong_otps = False, 0
        return Page(pages.otp_step(request_id, request.app_name, phone, request.otp))

    def _otp(self, request_id: str, request: _Request, otp: str) -> Outcome:
        if request.otp is None or request.phone is None:
            return Page(pages.problem("Enter your phone number first."), 400)
        if not secrets.compare_digest(otp.encode(), request.otp.encode()):
            request.wrong_otps += 1
            if request.wrong_otps >= _MAX_OTP_ATTEMPTS:
                del self._requests[request_id]
                return _back(
                    request.redirect_uri,
                    request.state,
                    error="access_denied",
                    error_description="too many wrong OTPs",
                )
            page = pages.otp_step(
                request_id, request.app_name, request.phone, request.otp, "That OTP is not right."
            )
            return Page(page, 400)
        request.verified = True
        return Page(pages.consent_step(request_id, request.app_name, request.phone))

    def _approve(self, request: _Request, phone: str) -> Redirect:
        grant = CodeGrant(
            user_id=f"phone-{phone}",
            client_id=request.client_id,
            redirect_uri=request.redirect_uri,
            challenge=request.challenge,
            resource=request.resource,
            issued_at=self.grants.store.clock(),
        )
        return _back(request.redirect_uri, request.state, code=self.grants.issue_code(grant))

    def _check(self, params: Mapping[str, str]) -> tuple[str, str] | None:
        if params.get("response_type") != "code":
            return "unsupported_response_type", "response_type must be code"
        if not params.get("code_challenge") or params.get("code_challenge_method") != "S256":
            return "invalid_request", "PKCE with code_challenge_method=S256 is required"
        scopes = params.get("scope", "mcp:tools").split()
        if not scopes or any(scope not in OAUTH_SCOPES_SUPPORTED for scope in scopes):
            return "invalid_scope", "unknown scope"
        resource = params.get("resource")
        if resource is not None and resource not in self.grants.resources:
            return "invalid_target", "resource is not served here"
        return None

    def _forget_old(self) -> None:
        oldest = self.grants.store.clock() - OAUTH_PENDING_TTL_SECONDS
        for old in [k for k, r in self._requests.items() if r.created_at < oldest]:
            del self._requests[old]


def _back(redirect_uri: str, state: str | None, **answer: str) -> Redirect:
    """The app's redirect URI with the answer (and `state`) added to its query."""
    if state is not None:
        answer["state"] = state
    joiner = "&" if "?" in redirect_uri else "?"
    return Redirect(f"{redirect_uri}{joiner}{urlencode(answer)}")
