"""The sandbox authorization server's endpoints over raw HTTP: registration, the authorize
checks, the token endpoint's rules (PKCE, redirect URI, single use, JSON or form bodies)."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlencode

import httpx2
import pytest
from oauth_peers import approve_at_once, mcp_status, query_of

from swiggy_core.oauth.pkce import new_verifier, s256_challenge
from swiggy_sandbox.auth_server import AuthSettings
from swiggy_sandbox.servers import SandboxHttpServer

# Loopback redirects match Swiggy's documented `http://127.0.0.1/callback` on any port.
REDIRECT = "http://127.0.0.1:9999/callback"


@pytest.fixture(scope="module")
def sandbox() -> Iterator[SandboxHttpServer]:
    with SandboxHttpServer(auth=AuthSettings(auto_approve=True)) as server:
        yield server


def authorize_url(sandbox: SandboxHttpServer, **changes: str) -> str:
    params = {
        "response_type": "code",
        "client_id": "swiggy-mcp",
        "redirect_uri": REDIRECT,
        "code_challenge": changes.pop("challenge", ""),
        "code_challenge_method": "S256",
        "state": "st-1",
        "scope": "mcp:tools",
        **changes,
    }
    return f"{sandbox.base_url}/auth/authorize?{urlencode(params)}"


def new_code(sandbox: SandboxHttpServer) -> tuple[str, str]:
    """A fresh authorization code and its verifier."""
    verifier = new_verifier()
    params = approve_at_once(authorize_url(sandbox, challenge=s256_challenge(verifier)))
    assert params["state"] == "st-1"
    return params["code"], verifier


def token_request(sandbox: SandboxHttpServer, *, as_json: bool, **fields: str) -> httpx2.Response:
    url = f"{sandbox.base_url}/auth/token"
    return httpx2.post(url, json=fields) if as_json else httpx2.post(url, data=fields)


def exchange(
    sandbox: SandboxHttpServer,
    code: str,
    verifier: str,
    /,
    *,
    as_json: bool = False,
    **changes: str,
) -> httpx2.Response:
    fields = {
        "grant_type": "authorization_code",
        "code": code,
        "code_verifier": verifier,
        "redirect_uri": REDIRECT,
        "client_id": "swiggy-mcp",
        **changes,
    }
    return token_request(sandbox, as_json=as_json, **fields)


def test_registration_hands_out_the_shared_public_client_id(sandbox: SandboxHttpServer) -> None:
    for name in ("One app", "Another app"):
        answer = httpx2.post(
            f"{sandbox.base_url}/auth/register",
            json={"client_name": name, "redirect_uris": ["http://localhost:5000/cb"]},
        )
        assert answer.status_code == 201
        assert answer.json()["client_id"] == "swiggy-mcp"
        assert answer.json()["token_endpoint_auth_method"] == "none"
    refused = httpx2.post(
        f"{sandbox.base_url}/auth/register", json={"redirect_uris": ["http://example.com/cb"]}
    )
    assert refused.status_code == 400 and refused.json()["error"] == "invalid_redirect_uri"


@pytest.mark.parametrize("as_json", [True, False], ids=["json-body", "form-body"])
def test_the_token_endpoint_takes_json_and_form_bodies(
    sandbox: SandboxHttpServer, as_json: bool
) -> None:
    code, verifier = new_code(sandbox)
    answer = exchange(sandbox, code, verifier, as_json=as_json)
    assert answer.status_code == 200 and answer.headers["cache-control"] == "no-store"
    body = answer.json()
    assert (body["token_type"], body["expires_in"]) == ("Bearer", 432_000)
    assert "refresh_token" not in body  # Swiggy v1
    assert mcp_status(sandbox.url_for("food"), body["access_token"]).status_code == 200


@pytest.mark.parametrize(
    ("changes", "error"),
    [
        ({"code_verifier": "x" * 43}, "invalid_grant"),  # the wrong verifier
        ({"code_verifier": "short"}, "invalid_request"),
        ({"code_verifier": ""}, "invalid_request"),
        ({"redirect_uri": "http://127.0.0.1:9999/other"}, "invalid_grant"),
        ({"client_id": "someone-else"}, "invalid_grant"),
        ({"resource": "http://127.0.0.1:1/elsewhere"}, "invalid_target"),
        ({"grant_type": "password"}, "unsupported_grant_type"),
        ({"code": "no-such-code"}, "invalid_grant"),
    ],
)
def test_token_endpoint_errors_are_rfc6749_json(
    sandbox: SandboxHttpServer, changes: dict[str, str], error: str
) -> None:
    code, verifier = new_code(sandbox)
    answer = exchange(sandbox, code, verifier, **changes)
    assert answer.status_code == 400
    assert answer.json()["error"] == error and answer.json()["error_description"]
    assert verifier not in answer.text


def test_a_code_works_once_and_a_replay_revokes_what_it_issued(sandbox: SandboxHttpServer) -> None:
    code, verifier = new_code(sandbox)
    token = exchange(sandbox, code, verifier).json()["access_token"]
    assert mcp_status(sandbox.url_for("dineout"), token).status_code == 200
    replay = exchange(sandbox, code, verifier)
    assert replay.status_code == 400 and replay.json()["error"] == "invalid_grant"
    assert mcp_status(sandbox.url_for("dineout"), token).status_code == 419


def test_a_failed_exchange_also_spends_the_code(sandbox: SandboxHttpServer) -> None:
    code, verifier = new_code(sandbox)
    assert exchange(sandbox, code, "y" * 43).status_code == 400
    assert exchange(sandbox, code, verifier).json()["error"] == "invalid_grant"


def test_authorize_never_redirects_to_an_address_it_does_not_know(
    sandbox: SandboxHttpServer,
) -> None:
    challenge = s256_challenge(new_verifier())
    for changes in (
        {"redirect_uri": "https://evil.example/callback"},
        {"redirect_uri": "http://127.0.0.1:9999/not-registered"},
        {"client_id": "nobody"},
    ):
        answer = httpx2.get(authorize_url(sandbox, challenge=challenge, **changes))
        assert answer.status_code == 400 and "location" not in answer.headers
        assert answer.headers["content-type"].startswith("text/html")


@pytest.mark.parametrize(
    ("changes", "error"),
    [
        ({"code_challenge_method": "plain"}, "invalid_request"),
        ({"challenge": ""}, "invalid_request"),
        ({"response_type": "token"}, "unsupported_response_type"),
        ({"scope": "food.write"}, "invalid_scope"),
        ({"resource": "https://mcp.swiggy.com/food"}, "invalid_target"),
    ],
)
def test_other_authorize_problems_go_back_to_the_app_with_state(
    sandbox: SandboxHttpServer, changes: dict[str, str], error: str
) -> None:
    changes.setdefault("challenge", s256_challenge(new_verifier()))
    params = approve_at_once(authorize_url(sandbox, **changes))
    assert params["error"] == error and params["state"] == "st-1" and "code" not in params


def test_logout_needs_the_bearer_token_and_ends_the_session(sandbox: SandboxHttpServer) -> None:
    code, verifier = new_code(sandbox)
    token = exchange(sandbox, code, verifier).json()["access_token"]
    assert httpx2.post(f"{sandbox.base_url}/auth/logout").status_code == 401
    answer = httpx2.post(
        f"{sandbox.base_url}/auth/logout", headers={"authorization": f"Bearer {token}"}
    )
    assert answer.status_code == 200
    assert mcp_status(sandbox.url_for("instamart"), token).status_code == 419


def test_the_redirect_keeps_the_apps_own_query(sandbox: SandboxHttpServer) -> None:
    httpx2.post(
        f"{sandbox.base_url}/auth/register",
        json={"redirect_uris": ["http://localhost:7000/cb?tab=2"]},
    )
    verifier = new_verifier()
    url = authorize_url(
        sandbox, challenge=s256_challenge(verifier), redirect_uri="http://localhost:7000/cb?tab=2"
    )
    location = httpx2.get(url).headers["location"]
    assert location.startswith("http://localhost:7000/cb?tab=2&code=")
    assert query_of(location)["state"] == "st-1"
