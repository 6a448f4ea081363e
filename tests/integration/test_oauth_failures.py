"""Every bad sign-in input gives its coded message, stores nothing and keeps the previous
sign-in: forged, foreign, replayed and expired callbacks, refused consent, an app that is not
allow-listed, token endpoint errors, a wrong issuer and metadata served as HTML."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from oauth_peers import (
    CALLBACK,
    Clock,
    SignInPage,
    approve_at_once,
    mcp_status,
    metadata_site,
    query_of,
    sign_in_by_hand,
)

from swiggy_core.errors import ErrorCode
from swiggy_core.oauth import (
    MemoryPendingStore,
    OAuthError,
    PendingAuthorization,
    SignInService,
    SwiggyToken,
    TokenVault,
)
from swiggy_core.oauth.pkce import new_verifier
from swiggy_sandbox.auth_server import AuthSettings
from swiggy_sandbox.servers import SandboxHttpServer, TokenStore

BLOCKED = frozenset({"Blocked App", "unlisted-app"})
# A redirect only the blocked app registers (loopback URIs match on any port).
BLOCKED_CALLBACK = "http://127.0.0.1:8600/blocked-callback"


@pytest.fixture(scope="module")
def clock() -> Clock:
    return Clock()


@pytest.fixture(scope="module")
def auto(clock: Clock) -> Iterator[SandboxHttpServer]:
    settings = AuthSettings(auto_approve=True, blocked_clients=BLOCKED)
    with SandboxHttpServer(store=TokenStore(clock=clock.epoch), auth=settings) as server:
        yield server


@pytest.fixture(scope="module")
def manual(clock: Clock) -> Iterator[SandboxHttpServer]:
    settings = AuthSettings(blocked_clients=BLOCKED)
    with SandboxHttpServer(store=TokenStore(clock=clock.epoch), auth=settings) as server:
        yield server


def urls(server: SandboxHttpServer) -> dict[str, str]:
    return {key: server.url_for(key) for key in ("instamart", "food", "dineout")}


@dataclass
class Previous:
    """Alice's earlier sign-in, remembered encrypted; no failure may touch it."""

    vault: TokenVault
    token: SwiggyToken
    server: SandboxHttpServer

    def untouched(self) -> None:
        assert self.vault.load("alice", "sandbox") == self.token
        for url in urls(self.server).values():
            assert mcp_status(url, self.token.access_token).status_code == 200


@pytest.fixture
def previous(auto: SandboxHttpServer, clock: Clock, tmp_path: Path) -> Previous:
    service = SignInService(clock=clock.now)
    token = service.finish("alice", approve_at_once(service.start("alice", urls(auto), CALLBACK)))
    vault = TokenVault(f"sqlite:///{tmp_path / 'app.db'}", "app secret")
    vault.save("alice", "sandbox", token)
    return Previous(vault, token, auto)


def fails(code: ErrorCode, service: SignInService, user: str, params: dict[str, str]) -> str:
    with pytest.raises(OAuthError) as caught:
        service.finish(user, params)
    assert caught.value.code == code, caught.value
    return caught.value.message


def test_a_forged_or_missing_state_is_e5104(auto, clock, previous) -> None:
    service = SignInService(clock=clock.now)
    params = approve_at_once(service.start("alice", urls(auto), CALLBACK))
    fails(ErrorCode.OAUTH_STATE_MISMATCH, service, "alice", {**params, "state": "forged"})
    fails(ErrorCode.OAUTH_STATE_MISMATCH, service, "alice", {"code": params["code"]})
    previous.untouched()


def test_another_persons_callback_is_e5104_and_leaves_theirs_usable(auto, clock, previous) -> None:
    service = SignInService(clock=clock.now)
    params = approve_at_once(service.start("bob", urls(auto), CALLBACK))
    fails(ErrorCode.OAUTH_STATE_MISMATCH, service, "alice", params)
    previous.untouched()
    assert mcp_status(auto.url_for("food"), service.finish("bob", params).access_token).is_success


def test_a_replayed_callback_is_e5106(auto, clock, previous) -> None:
    service = SignInService(clock=clock.now)
    params = approve_at_once(service.start("alice", urls(auto), CALLBACK))
    first = service.finish("alice", params)
    message = fails(ErrorCode.OAUTH_PENDING_USED, service, "alice", params)
    assert "already" in message
    assert first.access_token != previous.token.access_token
    previous.untouched()


def test_a_pending_sign_in_expires_after_ten_minutes(auto, previous) -> None:
    own = Clock()
    service = SignInService(clock=own.now)
    params = approve_at_once(service.start("alice", urls(auto), CALLBACK))
    own.advance(601)
    fails(ErrorCode.OAUTH_PENDING_EXPIRED, service, "alice", params)
    fails(ErrorCode.OAUTH_PENDING_EXPIRED, service, "alice", params)  # still told apart
    previous.untouched()
    in_time = approve_at_once(service.start("alice", urls(auto), CALLBACK))
    own.advance(599)
    assert service.finish("alice", in_time).access_token


def test_denied_consent_is_e5107(manual, clock, previous) -> None:
    service = SignInService(clock=clock.now)
    params = sign_in_by_hand(service.start("alice", urls(manual), CALLBACK), step="deny")
    assert params["error"] == "access_denied" and "code" not in params
    message = fails(ErrorCode.OAUTH_DENIED, service, "alice", params)
    assert "consent" in message
    previous.untouched()


def test_three_wrong_otps_end_the_sign_in(manual, clock, previous) -> None:
    service = SignInService(clock=clock.now)
    page = SignInPage(service.start("alice", urls(manual), CALLBACK))
    try:
        assert page.post(step="phone", phone="12345").status_code == 400  # not a mobile number
        assert page.post(step="phone", phone="9812345678").status_code == 200
        assert page.post(step="approve").status_code == 400  # no skipping the OTP
        for _ in range(2):
            wrong = page.post(step="otp", otp="000000x")
            assert wrong.status_code == 400 and "not right" in wrong.text
        params = query_of(page.post(step="otp", otp="000000x").headers["location"])
    finally:
        page.close()
    assert params["error"] == "access_denied"
    fails(ErrorCode.OAUTH_DENIED, service, "alice", params)
    previous.untouched()


def test_an_app_swiggy_has_not_allow_listed_is_e5108_with_the_paste_fallback(
    auto, manual, clock, previous
) -> None:
    blocked = SignInService(client_name="Blocked App", clock=clock.now)
    params = approve_at_once(blocked.start("alice", urls(auto), BLOCKED_CALLBACK))
    assert params["error"] == "unauthorized_client"
    message = fails(ErrorCode.OAUTH_NOT_ALLOWLISTED, blocked, "alice", params)
    assert "not on Swiggy's allow-list" in message and "Paste a Swiggy token" in message
    # On the page: the refusal in Swiggy's words, and a way back to the app.
    page = SignInPage(blocked.start("alice", urls(manual), BLOCKED_CALLBACK))
    try:
        assert page.first.status_code == 403
        assert "Blocked App</strong> isn't whitelisted yet" in page.first.text
        back = page.first.text.split('id="back" href="', 1)[1].split('"', 1)[0]
    finally:
        page.close()
    back_params = query_of(back.replace("&amp;", "&"))
    fails(ErrorCode.OAUTH_NOT_ALLOWLISTED, blocked, "alice", back_params)
    # A client id of its own (no registration) refused the same way.
    unlisted = SignInService(client_id="unlisted-app", clock=clock.now)
    params = approve_at_once(unlisted.start("alice", urls(auto), CALLBACK))
    fails(ErrorCode.OAUTH_NOT_ALLOWLISTED, unlisted, "alice", params)
    previous.untouched()


def test_a_description_about_the_whitelist_is_e5108(auto, clock, previous) -> None:
    service = SignInService(clock=clock.now)
    state = query_of(service.start("alice", urls(auto), CALLBACK))["state"]
    params = {
        "state": state,
        "error": "access_denied",
        "error_description": "App isn't whitelisted",
    }
    fails(ErrorCode.OAUTH_NOT_ALLOWLISTED, service, "alice", params)
    previous.untouched()


class WrongVerifier(MemoryPendingStore):
    """Hands back every pending sign-in with a verifier that does not match its challenge."""

    def get(self, state: str) -> PendingAuthorization | None:
        found = super().get(state)
        return None if found is None else replace(found, code_verifier=new_verifier())


def test_a_token_endpoint_error_is_e5109_with_the_servers_reason(auto, clock, previous) -> None:
    service = SignInService(clock=clock.now, pending=WrongVerifier())
    params = approve_at_once(service.start("alice", urls(auto), CALLBACK))
    message = fails(ErrorCode.OAUTH_TOKEN_ENDPOINT, service, "alice", params)
    assert "invalid_grant" in message and "code_verifier does not match" in message
    assert params["code"] not in message
    previous.untouched()


def test_a_code_older_than_120_seconds_is_refused(auto, clock, previous) -> None:
    service = SignInService(clock=clock.now)
    params = approve_at_once(service.start("alice", urls(auto), CALLBACK))
    clock.advance(121)
    message = fails(ErrorCode.OAUTH_TOKEN_ENDPOINT, service, "alice", params)
    assert "expired" in message
    previous.untouched()


def test_an_unexpected_issuer_is_e5102(auto, clock, previous) -> None:
    pins = {auto.base_url: f"{auto.base_url}/somewhere-else"}
    with pytest.raises(OAuthError) as caught:
        SignInService(pinned_issuers=pins).start("alice", urls(auto), CALLBACK)
    assert caught.value.code == ErrorCode.OAUTH_ISSUER_MISMATCH
    # An answer that says it came from another issuer (RFC 9207 `iss`).
    service = SignInService(clock=clock.now)
    params = approve_at_once(service.start("alice", urls(auto), CALLBACK))
    fails(ErrorCode.OAUTH_ISSUER_MISMATCH, service, "alice", {**params, "iss": "https://evil"})
    previous.untouched()


def test_metadata_served_as_html_is_e5101(previous) -> None:
    with metadata_site() as site:
        for path in (
            "/.well-known/oauth-protected-resource",
            "/.well-known/oauth-authorization-server",
        ):
            site.html(path)
        with pytest.raises(OAuthError) as caught:
            SignInService().start("alice", {"food": f"{site.origin}/food"}, CALLBACK)
    assert caught.value.code == ErrorCode.OAUTH_DISCOVERY
    assert "an HTML page, not JSON" in caught.value.message
    previous.untouched()
