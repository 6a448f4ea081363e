"""Starlette routes of the sandbox authorization server, in Swiggy's (awkward) layout.

- `GET /.well-known/oauth-authorization-server` at the host root, issuer `{base}/auth`;
  the RFC 8414 form `/.well-known/oauth-authorization-server/auth` answers 401 (as Swiggy's);
- `GET /.well-known/oauth-protected-resource` (root) is an HTML page, not JSON; the
  per-server forms are JSON (see `swiggy_sandbox.servers.http_app`);
- `/auth/register`, `/auth/authorize` (GET + POST steps), `/auth/token`, `/auth/logout`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from swiggy_sandbox.auth_server import pages
from swiggy_sandbox.auth_server.clients import RegistrationError
from swiggy_sandbox.auth_server.consent import Outcome, Page
from swiggy_sandbox.auth_server.grants import TokenRequestError
from swiggy_sandbox.auth_server.server import AuthorizationServer

_NO_STORE = {"cache-control": "no-store", "pragma": "no-cache"}
_MAX_BODY_BYTES = 16_384


def auth_routes(server: AuthorizationServer) -> list[BaseRoute]:
    """Every route of the authorization server, bound to `server`."""

    async def metadata(request: Request) -> Response:
        return JSONResponse(server.metadata())

    async def path_form(request: Request) -> Response:
        return JSONResponse({"error": "unauthorized", "message": "Unauthorized"}, 401)

    async def resource_root(request: Request) -> Response:
        return HTMLResponse(pages.protected_resource_root())

    async def register(request: Request) -> Response:
        body = await _params(request)
        if body is None:
            return _oauth_error("invalid_client_metadata", "send a JSON object", 400)
        try:
            return JSONResponse(server.clients.register(body), 201, headers=_NO_STORE)
        except RegistrationError as error:
            return _oauth_error(error.error, error.description, 400)

    async def authorize(request: Request) -> Response:
        if request.method == "GET":
            return _outcome(server.consent.begin(dict(request.query_params)))
        form = await request.form()
        return _outcome(server.consent.step({k: v for k, v in form.items() if isinstance(v, str)}))

    async def token(request: Request) -> Response:
        params = await _params(request)
        if params is None or not all(isinstance(v, str) for v in params.values()):
            return _oauth_error("invalid_request", "send form fields or a JSON object", 400)
        try:
            return JSONResponse(server.grants.exchange(params), headers=_NO_STORE)
        except TokenRequestError as error:
            return _oauth_error(error.error, error.description, error.status)

    async def logout(request: Request) -> Response:
        scheme, _, presented = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not presented.strip():
            return _oauth_error("invalid_request", "send the session's bearer token", 401)
        server.logout(presented.strip())
        return JSONResponse({"success": True, "message": "Logged out"})

    return [
        Route("/.well-known/oauth-authorization-server", metadata),
        Route("/.well-known/oauth-authorization-server/auth", path_form),
        Route("/.well-known/oauth-protected-resource", resource_root),
        Route("/auth/register", register, methods=["POST"]),
        Route("/auth/authorize", authorize, methods=["GET", "POST"]),
        Route("/auth/token", token, methods=["POST"]),
        Route("/auth/logout", logout, methods=["POST"]),
    ]


async def _params(request: Request) -> dict[str, Any] | None:
    """The body as a JSON object (Swiggy's documented form) or as form fields (RFC 6749)."""
    body = await request.body()
    if len(body) > _MAX_BODY_BYTES:
        return None
    if request.headers.get("content-type", "").startswith("application/json"):
        try:
            parsed = json.loads(body)
        except ValueError:
            return None
        return parsed if isinstance(parsed, dict) else None
    form = await request.form()
    return {key: value for key, value in form.items() if isinstance(value, str)}


def _outcome(outcome: Outcome) -> Response:
    if isinstance(outcome, Page):
        return HTMLResponse(outcome.html, outcome.status, headers=pages.SECURITY_HEADERS)
    # 303: the browser follows a form POST's answer with a GET.
    return RedirectResponse(outcome.url, 303, headers={"cache-control": "no-store"})


def _oauth_error(error: str, description: str, status: int) -> Response:
    payload: Mapping[str, str] = {"error": error, "error_description": description}
    return JSONResponse(dict(payload), status, headers=_NO_STORE)
