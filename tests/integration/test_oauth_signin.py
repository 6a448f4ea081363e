"""Sign in with Swiggy against the sandbox authorization server, over real HTTP on loopback:
discovery, registration, the sign-in page (auto-approved and driven step by step), the code
exchange, then one token on all three MCP servers; refresh, sign-out and expiry."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from datetime import timedelta

import httpx2
import pytest
from oauth_peers import (
    ADDRESS_TOOLS,
    CALLBACK,
    Clock,
    approve_at_once,
    call_tool,
    mcp_status,
    sign_in_by_hand,
)

from swiggy_core.constants import OAUTH_EXPIRY_WARNING, SWIGGY_TOKEN_TTL_SECONDS
from swiggy_core.errors import ErrorCode
from swiggy_core.logsafe import install_redaction, uninstall_redaction
from swiggy_core.oauth import MemoryPendingStore, OAuthError, SignInService, SwiggyToken
from swiggy_sandbox.auth_server import AuthSettings
from swiggy_sandbox.runtime import SandboxServices
from swiggy_sandbox.servers import SandboxHttpServer, TokenStore


@pytest.fixture(scope="module")
def clock() -> Clock:
    return Clock()


@pytest.fixture(scope="module")
def auto(clock: Clock) -> Iterator[SandboxHttpServer]:
    """Auto-approving, like Swiggy v1 (no refresh tokens)."""
    store = TokenStore(clock=clock.epoch)
    with SandboxHttpServer(store=store, auth=AuthSettings(auto_approve=True)) as server:
        yield server


@pytest.fixture(scope="module")
def by_hand(clock: Clock) -> Iterator[SandboxHttpServer]:
    """The sign-in page with its steps, and refresh tokens switched on."""
    store = TokenStore(clock=clock.epoch)
    settings = AuthSettings(issue_refresh_tokens=True)
    with SandboxHttpServer(store=store, auth=settings) as server:
        yield server


def urls(server: SandboxHttpServer) -> dict[str, str]:
    return {key: server.url_for(key) for key in ("instamart", "food", "dineout")}


def assert_serves_all_three(server: SandboxHttpServer, token: SwiggyToken) -> None:
    for key, tool in ADDRESS_TOOLS.items():
        result = call_tool(server.url_for(key), token.access_token, tool)
        assert not result.is_error, (key, result)
        assert result.content and result.content[0].text


def test_auto_approved_sign_in_gives_one_token_for_all_three_servers(
    auto: SandboxHttpServer, clock: Clock
) -> None:
    service = SignInService(clock=clock.now)
    authorize = service.start("alice", urls(auto), CALLBACK)
    params = approve_at_once(authorize)
    assert set(params) == {"code", "state"}
    token = service.finish("alice", params)
    assert token.issuer == f"{auto.base_url}/auth" and token.client_id == "swiggy-mcp"
    assert token.token_type == "Bearer" and "mcp:tools" in token.scope.split()
    assert token.resources == tuple(urls(auto).values())
    assert token.refresh_token is None  # like Swiggy v1
    assert token.obtained_at == clock.now()
    assert token.expires_at == token.obtained_at + timedelta(seconds=SWIGGY_TOKEN_TTL_SECONDS)
    assert_serves_all_three(auto, token)


def test_the_sign_in_page_phone_otp_approve(by_hand: SandboxHttpServer, clock: Clock) -> None:
    service = SignInService(clock=clock.now)
    params = sign_in_by_hand(service.start("alice", urls(by_hand), CALLBACK))
    token = service.finish("alice", params)
    assert token.refresh_token is not None
    assert_serves_all_three(by_hand, token)


def test_the_pages_escape_the_app_name_and_show_no_script(by_hand: SandboxHttpServer) -> None:
    service = SignInService(client_name='<script>alert(1)</script> & "Co"')
    page = httpx2.get(service.start("alice", urls(by_hand), "http://127.0.0.1:8600/escape"))
    assert page.status_code == 200
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;" in page.text
    assert "<script" not in page.text
    assert page.headers["x-frame-options"] == "DENY" and "no-store" in page.headers["cache-control"]


def _signed_in_at_once(
    server: SandboxHttpServer, clock: Clock
) -> tuple[SignInService, SwiggyToken]:
    """Alice signed in on a server that approves at once; the service and her token."""
    service = SignInService(clock=clock.now)
    start = service.start("alice", urls(server), CALLBACK)
    return service, service.finish("alice", approve_at_once(start))


def _refresh_refused(
    service: SignInService, token: SwiggyToken, server: SandboxHttpServer, says: str
) -> None:
    with pytest.raises(OAuthError) as caught:
        service.refresh(token, urls(server))
    assert caught.value.code == ErrorCode.OAUTH_TOKEN_ENDPOINT
    assert says in caught.value.message


def test_refresh_when_the_server_issues_refresh_tokens(
    by_hand: SandboxHttpServer, clock: Clock
) -> None:
    service = SignInService(clock=clock.now)
    first = service.finish(
        "alice", sign_in_by_hand(service.start("alice", urls(by_hand), CALLBACK))
    )
    clock.advance(60)
    second = service.refresh(first, urls(by_hand))
    assert second.access_token != first.access_token
    assert second.refresh_token not in (None, first.refresh_token)  # rotated
    assert second.obtained_at == clock.now() and second.issuer == first.issuer
    assert_serves_all_three(by_hand, second)
    _refresh_refused(service, first, by_hand, "invalid_grant")  # the old refresh token is spent


def test_no_refresh_token_means_sign_in_again(auto: SandboxHttpServer, clock: Clock) -> None:
    service, token = _signed_in_at_once(auto, clock)
    _refresh_refused(service, token, auto, "sign in again")


def test_sign_out_revokes_the_session_everywhere(auto: SandboxHttpServer, clock: Clock) -> None:
    service, token = _signed_in_at_once(auto, clock)
    assert mcp_status(auto.url_for("food"), token.access_token).status_code == 200
    service.revoke(token, urls(auto))
    for url in urls(auto).values():
        response = mcp_status(url, token.access_token)
        assert response.status_code == 419 and response.json()["error"]["code"] == -32001
    service.revoke(token, urls(auto))  # best effort: a second time is harmless


def test_an_expired_token_answers_401_and_warns_a_day_ahead() -> None:
    clock = Clock()
    store = TokenStore(clock=clock.epoch)
    with SandboxHttpServer(store=store, auth=AuthSettings(auto_approve=True)) as server:
        _, token = _signed_in_at_once(server, clock)
        assert not token.expires_within(OAUTH_EXPIRY_WARNING, clock.now())
        clock.advance(SWIGGY_TOKEN_TTL_SECONDS - 3_600)
        assert token.expires_within(OAUTH_EXPIRY_WARNING, clock.now())
        assert mcp_status(server.url_for("instamart"), token.access_token).status_code == 200
        clock.advance(3_600)
        assert token.expired(clock.now())
        response = mcp_status(server.url_for("instamart"), token.access_token)
        assert response.status_code == 401
        assert 'error="invalid_token"' in response.headers["www-authenticate"]


def test_sandbox_services_switch_on_auto_approve_and_keep_the_demo_tokens() -> None:
    with SandboxServices.start(auth_auto_approve=True) as services:
        assert services.auth_base_url == f"{services.mcp.base_url}/auth"
        service = SignInService()
        authorize = service.start("alice", services.server_urls, CALLBACK)
        token = service.finish("alice", approve_at_once(authorize))
        assert mcp_status(services.server_urls["dineout"], token.access_token).status_code == 200
        # The offline demo's per-person token still works without any sign-in.
        demo = services.token_for("bob")
        assert mcp_status(services.server_urls["food"], demo).status_code == 200


def test_the_env_switch_turns_auto_approve_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SWIGGY_SANDBOX_AUTH_AUTO_APPROVE", "1")
    assert AuthSettings.from_env().auto_approve is True
    assert AuthSettings.from_env(False).auto_approve is False
    monkeypatch.setenv("SWIGGY_SANDBOX_AUTH_AUTO_APPROVE", "0")
    assert AuthSettings.from_env().auto_approve is False


def test_a_sign_in_at_debug_logs_no_code_verifier_or_token(
    auto: SandboxHttpServer, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    install_redaction()
    try:
        pending = MemoryPendingStore()
        service = SignInService(clock=clock.now, pending=pending)
        with caplog.at_level(logging.DEBUG):
            authorize = service.start("alice", urls(auto), CALLBACK)
            params = approve_at_once(authorize)
            found = pending.get(params["state"])
            assert found is not None
            token = service.finish("alice", params)
            logging.getLogger("test").debug(
                "callback %s verifier %s token %r %s",
                params,
                found.code_verifier,
                token,
                token.to_json(),
            )
        secrets = (params["code"], found.code_verifier, token.access_token)
        assert caplog.records and all(secret not in caplog.text for secret in secrets)
        assert re.search(r"access_token", caplog.text)  # the oauthlib debug lines were there
        assert all(secret not in repr(token) for secret in secrets)
        assert found.code_verifier not in repr(found)
    finally:
        uninstall_redaction()
