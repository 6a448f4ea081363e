"""Find Swiggy's authorization server from an MCP server URL, the way Swiggy really serves it.

Swiggy's layout defeats strict clients: the 401 challenge points at a root protected-resource
URL that is not JSON (the per-server forms are), and the authorization-server metadata sits at
the host root while its issuer is `…/auth` (the RFC 8414 path form answers 401). So every
candidate URL is tried in turn, anything that is not a JSON object is skipped, and the issuer
is checked against the one pinned for the host instead of against where the document was found.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from swiggy_core.errors import ErrorCode, OAuthError
from swiggy_core.oauth.urls import is_allowed_endpoint, origin_of
from swiggy_core.oauth.web import get_json

if TYPE_CHECKING:  # the HTTP client loads with the first sign-in request, not the page
    import httpx2

_RESOURCE_METADATA = re.compile(r'resource_metadata="([^"]+)"')
_PROTECTED_RESOURCE = "/.well-known/oauth-protected-resource"
_AUTHORIZATION_SERVER = "/.well-known/oauth-authorization-server"
_OPENID = "/.well-known/openid-configuration"
# What an unauthenticated MCP client sends first; the answer's 401 challenge is the hint.
_PROBE = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "swiggy-mcp-assistant-discovery", "version": "1"},
    },
}
_PROBE_HEADERS = {"accept": "application/json, text/event-stream"}

# An MCP server URL → the issuer pinned for its host (None: no pin).
IssuerPin = Callable[[str], str | None]


@dataclass(frozen=True, slots=True)
class AuthServerMetadata:
    """The parts of RFC 8414 metadata the sign-in uses."""

    issuer: str
    authorization_endpoint: str
    token_endpoint: str
    registration_endpoint: str | None
    # Swiggy's metadata names none; its documented `/auth/logout` is used then.
    revocation_endpoint: str
    scopes_supported: tuple[str, ...]


def discover(server_url: str, http: httpx2.Client, pin: IssuerPin) -> AuthServerMetadata:
    """The authorization server of the MCP server at `server_url`; OAuthError E-5101/E-5102."""
    if not is_allowed_endpoint(server_url):
        raise OAuthError(
            "The Swiggy server address must use https (or be the local sandbox).",
            code=ErrorCode.OAUTH_DISCOVERY,
        )
    tried: list[str] = []
    resource = _protected_resource(server_url, _challenge_hint(server_url, http), http, tried)
    issuer = _choose_issuer(server_url, resource, pin(server_url), tried)
    document = _first_json(_metadata_candidates(issuer), http, tried)
    if document is None:
        raise _not_found(tried)
    if document.get("issuer") != issuer:
        raise OAuthError(
            f"Swiggy's sign-in metadata names the issuer {_shown(document.get('issuer'))}, "
            f"not the expected {issuer}; refusing to sign in there.",
            code=ErrorCode.OAUTH_ISSUER_MISMATCH,
        )
    return _metadata(issuer, document)


def _challenge_hint(server_url: str, http: httpx2.Client) -> str | None:
    """The `resource_metadata` URL of the server's 401 challenge, if it gives a usable one."""
    import httpx2  # loaded already: `http` is its client

    try:
        with http.stream("POST", server_url, json=_PROBE, headers=_PROBE_HEADERS) as response:
            challenge = response.headers.get("www-authenticate", "")
            status = response.status_code
    except httpx2.HTTPError:
        return None
    match = _RESOURCE_METADATA.search(challenge) if status == 401 else None
    if match is None:
        return None
    hint = match.group(1)
    # Only the server's own origin may describe it (the hint must not send us elsewhere).
    if not is_allowed_endpoint(hint) or origin_of(hint) != origin_of(server_url):
        return None
    return hint


def _protected_resource(
    server_url: str, hint: str | None, http: httpx2.Client, tried: list[str]
) -> dict[str, Any] | None:
    origin, path = origin_of(server_url), urlsplit(server_url).path.rstrip("/")
    candidates = [
        *([hint] if hint else []),
        f"{origin}{_PROTECTED_RESOURCE}{path}",
        f"{origin}{path}{_PROTECTED_RESOURCE}",
        f"{origin}{_PROTECTED_RESOURCE}",
    ]
    accepted = {server_url.rstrip("/"), origin}
    for url in _unique(candidates):
        document, reason = get_json(http, url)
        if document is not None:
            servers = document.get("authorization_servers")
            described = str(document.get("resource", server_url)).rstrip("/")
            if not isinstance(servers, list) or not servers:
                reason = "names no authorization server"
            elif described not in accepted:
                reason = "describes another resource"
            else:
                return document
        tried.append(f"{url} ({reason})")
    return None


def _choose_issuer(
    server_url: str, resource: dict[str, Any] | None, pinned: str | None, tried: list[str]
) -> str:
    named = [s for s in (resource or {}).get("authorization_servers", []) if isinstance(s, str)]
    if pinned is not None:
        if named and pinned not in named:
            raise OAuthError(
                f"The server {server_url} names the authorization server {_shown(named[0])}, "
                f"not the expected {pinned}; refusing to sign in there.",
                code=ErrorCode.OAUTH_ISSUER_MISMATCH,
            )
        return pinned
    if not named:
        raise _not_found(tried)
    if not is_allowed_endpoint(named[0]):
        raise OAuthError(
            f"The authorization server {_shown(named[0])} does not use https.",
            code=ErrorCode.OAUTH_DISCOVERY,
        )
    return named[0]


def _metadata_candidates(issuer: str) -> list[str]:
    origin, path = origin_of(issuer), urlsplit(issuer).path.rstrip("/")
    return _unique(
        [
            f"{origin}{_AUTHORIZATION_SERVER}{path}",  # RFC 8414 (Swiggy: 401)
            f"{origin}{_AUTHORIZATION_SERVER}",  # where Swiggy serves it
            f"{issuer.rstrip('/')}{_OPENID}",
            f"{origin}{_OPENID}",
        ]
    )


def _first_json(urls: list[str], http: httpx2.Client, tried: list[str]) -> dict[str, Any] | None:
    for url in urls:
        document, reason = get_json(http, url)
        if document is not None:
            return document
        tried.append(f"{url} ({reason})")
    return None


def _metadata(issuer: str, document: dict[str, Any]) -> AuthServerMetadata:
    endpoints = {
        name: document.get(name)
        for name in ("authorization_endpoint", "token_endpoint", "registration_endpoint")
    }
    for name, url in endpoints.items():
        required = name != "registration_endpoint"
        if (url is not None or required) and not (
            isinstance(url, str) and is_allowed_endpoint(url)
        ):
            raise OAuthError(
                f"Swiggy's sign-in metadata has no usable {name} (https required).",
                code=ErrorCode.OAUTH_DISCOVERY,
            )
    methods = document.get("code_challenge_methods_supported")
    if not isinstance(methods, list) or "S256" not in methods:
        raise OAuthError(
            "Swiggy's sign-in metadata does not offer PKCE with S256; refusing to sign in.",
            code=ErrorCode.OAUTH_DISCOVERY,
        )
    revocation = document.get("revocation_endpoint")
    scopes = document.get("scopes_supported")
    return AuthServerMetadata(
        issuer=issuer,
        authorization_endpoint=str(endpoints["authorization_endpoint"]),
        token_endpoint=str(endpoints["token_endpoint"]),
        registration_endpoint=endpoints["registration_endpoint"],
        revocation_endpoint=(
            revocation
            if isinstance(revocation, str) and is_allowed_endpoint(revocation)
            else f"{issuer.rstrip('/')}/logout"
        ),
        scopes_supported=tuple(s for s in scopes if isinstance(s, str))
        if isinstance(scopes, list)
        else (),
    )


def _not_found(tried: list[str]) -> OAuthError:
    return OAuthError(
        "Could not find Swiggy's sign-in metadata. Tried: " + "; ".join(tried) + ".",
        code=ErrorCode.OAUTH_DISCOVERY,
    )


def _unique(urls: list[str]) -> list[str]:
    return list(dict.fromkeys(urls))


def _shown(value: object) -> str:
    return repr(str(value)[:120]) if value is not None else "(none)"
