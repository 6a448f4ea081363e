"""The OAuth 2.1 requests themselves, made with requests-oauthlib: authorize URL, code, refresh.

oauthlib refuses plain http outright. The sandbox (and any RFC 8252 loopback server) is
http on 127.0.0.1, so for loopback URLs only, and only for the duration of one call, its
documented switch is set; every other URL must be https (checked before any call).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, cast

from swiggy_core.constants import OAUTH_SCOPE
from swiggy_core.errors import ErrorCode, OAuthError
from swiggy_core.oauth.errors import server_text
from swiggy_core.oauth.pkce import s256_challenge
from swiggy_core.oauth.token import SwiggyToken
from swiggy_core.oauth.urls import is_allowed_endpoint, is_loopback_url

if TYPE_CHECKING:  # requests-oauthlib (300 modules) loads with a sign-in, not with the page
    import requests
    from oauthlib.oauth2 import OAuth2Error
    from requests_oauthlib import OAuth2Session

_INSECURE_SWITCH = "OAUTHLIB_INSECURE_TRANSPORT"
_switch_lock = threading.Lock()


@contextmanager
def _transport_allowed(url: str) -> Iterator[None]:
    if not is_allowed_endpoint(url):
        raise OAuthError(
            "Swiggy's sign-in endpoints must use https.", code=ErrorCode.OAUTH_DISCOVERY
        )
    if url.startswith("https://") or not is_loopback_url(url):
        yield
        return
    with _switch_lock:
        previous = os.environ.get(_INSECURE_SWITCH)
        os.environ[_INSECURE_SWITCH] = "1"
        try:
            yield
        finally:
            if previous is None:
                del os.environ[_INSECURE_SWITCH]
            else:
                os.environ[_INSECURE_SWITCH] = previous


def authorize_url(
    endpoint: str, *, client_id: str, redirect_uri: str, state: str, verifier: str, resource: str
) -> str:
    """The URL of Swiggy's sign-in page for this authorisation (PKCE S256, scope, resource)."""
    session = _session(client_id, redirect_uri=redirect_uri, scope=[OAUTH_SCOPE])
    with _transport_allowed(endpoint):
        url, _state = session.authorization_url(
            endpoint,
            state=state,
            code_challenge=s256_challenge(verifier),
            code_challenge_method="S256",
            resource=resource,
        )
    return cast(str, url)


def exchange_code(
    token_endpoint: str,
    *,
    code: str,
    verifier: str,
    client_id: str,
    redirect_uri: str,
    resource: str,
    timeout: float,
) -> Mapping[str, Any]:
    """The token endpoint's answer to the authorization code (E-5109 on any failure)."""
    # No scope on the session: Swiggy grants more scopes than asked, which oauthlib would
    # otherwise raise as a "scope changed" Warning.
    session = _session(client_id, redirect_uri=redirect_uri)
    return _token_call(
        session,
        token_endpoint,
        lambda: session.fetch_token(
            token_endpoint,
            code=code,
            code_verifier=verifier,
            include_client_id=True,
            resource=resource,
            timeout=timeout,
        ),
    )


def refresh_grant(
    token_endpoint: str, *, refresh_token: str, client_id: str, timeout: float
) -> Mapping[str, Any]:
    """The token endpoint's answer to a refresh token (E-5109 on any failure)."""
    session = _session(client_id)
    return _token_call(
        session,
        token_endpoint,
        lambda: session.refresh_token(
            token_endpoint, refresh_token=refresh_token, client_id=client_id, timeout=timeout
        ),
    )


def _session(client_id: str, **options: Any) -> OAuth2Session:
    from requests_oauthlib import OAuth2Session

    return OAuth2Session(client_id, **options)


def _token_call(session: OAuth2Session, url: str, call: Callable[[], Any]) -> Mapping[str, Any]:
    import requests  # loaded already: the session is requests-oauthlib's
    from oauthlib.oauth2 import OAuth2Error

    statuses: list[int] = []

    def remember_status(response: requests.Response) -> requests.Response:
        statuses.append(response.status_code)
        return response

    session.register_compliance_hook("access_token_response", remember_status)
    session.register_compliance_hook("refresh_token_response", remember_status)
    with _transport_allowed(url):
        try:
            answer = call()
        except OAuth2Error as error:
            raise _token_error(_describe(error, statuses)) from error
        except (requests.RequestException, ValueError) as error:
            raise _token_error("unreachable or unreadable answer") from error
    if not isinstance(answer, Mapping):
        raise _token_error("unreadable answer")
    return answer


def _describe(error: OAuth2Error, statuses: list[int]) -> str:
    """The server's `error` and `error_description`; its HTTP status when it sent neither."""
    if error.error == "missing_token" and statuses and statuses[-1] >= 400:
        return f"HTTP {statuses[-1]}"
    detail = server_text(error.error)
    return f"{detail}: {server_text(error.description)}" if error.description else detail


def _token_error(detail: str) -> OAuthError:
    return OAuthError(
        f"Swiggy's token endpoint refused the sign-in ({detail}). Try signing in again.",
        code=ErrorCode.OAUTH_TOKEN_ENDPOINT,
    )


def token_from_answer(
    answer: Mapping[str, Any],
    *,
    issuer: str,
    now: datetime,
    resources: tuple[str, ...],
    client_id: str,
) -> SwiggyToken:
    """A SwiggyToken from a token endpoint answer (E-5109 when it is not a bearer token)."""
    access = answer.get("access_token")
    token_type = str(answer.get("token_type") or "Bearer")
    if not isinstance(access, str) or not access or token_type.lower() != "bearer":
        raise _token_error("the answer holds no bearer token")
    scope = answer.get("scope") or OAUTH_SCOPE
    expires_in = answer.get("expires_in")
    refresh = answer.get("refresh_token")
    return SwiggyToken(
        access_token=access,
        token_type="Bearer",
        scope=" ".join(scope) if isinstance(scope, list | tuple) else str(scope),
        issuer=issuer,
        obtained_at=now,
        expires_at=now + timedelta(seconds=float(expires_in))
        if isinstance(expires_in, int | float) and expires_in > 0
        else None,
        refresh_token=refresh if isinstance(refresh, str) and refresh else None,
        resources=resources,
        client_id=client_id,
    )
