"""Sign in with Swiggy through the app (AppTest) against the sandbox authorization server.

Connections starts the sign-in; Swiggy's page (driven over HTTP here: phone, the OTP shown
on the page, approve) redirects to the app's `/callback` page in a new session of the same
browser, which files the token under this person only. Bad callbacks give a coded message,
store nothing and leave the previous sign-in alone.
"""

from __future__ import annotations

import sys
import uuid
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from uihelpers import new_app, open_page, same_browser, texts, use_scripted_model

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "integration"))
from oauth_peers import CALLBACK, Clock, mcp_status, sign_in_by_hand

from swiggy_core.oauth import SignInService, SwiggyToken
from swiggy_core.settings import load_settings
from swiggy_sandbox.auth_server import AuthSettings
from swiggy_sandbox.emulator import text_turn
from swiggy_sandbox.servers import SandboxHttpServer, TokenStore
from swiggy_ui.credentials import KEY_USE_SANDBOX
from swiggy_ui.signin_state import current_token, sign_ins

START = "signin-start::sandbox"
DISCONNECT = "signin-disconnect::sandbox"


def _connections(at):
    return open_page(at, "app_pages/connections.py")


def _start(at) -> str:
    """Where the one-click "Sign in with Swiggy" link leads (AppTest cannot follow it)."""
    assert not at.exception, at.exception
    (link,) = [button for button in at.get("link_button") if button.key == START]
    url = link.proto.url
    assert "/auth/authorize?" in url and "code_challenge_method=S256" in url
    return str(url)


def test_sign_in_with_swiggy_is_one_link_to_swiggys_page():
    at = _connections(new_app())
    (link,) = at.get("link_button")
    assert link.proto.label == "Sign in with Swiggy (sandbox)"
    assert "/auth/authorize?" in link.proto.url  # the page itself: no second button
    assert not [button for button in at.button if "Sign in" in button.label]
    assert _start(at) == _start(at.run()), "a rerun keeps the prepared sign-in"


def _callback(browser, params: dict[str, str]):
    """The redirect lands on /callback in a new session of the same browser."""
    page = same_browser(browser)
    page.run()
    for key, value in params.items():
        page.query_params[key] = value
    page.switch_page("app_pages/callback.py")
    return page.run()


def _person(at) -> str:
    return f"b-{at.session_state['browser_id']}"


def test_sign_in_from_connections_files_the_token_for_this_browser_only():
    at = _connections(new_app())
    url = _start(at)
    assert "redirect_uri=http%3A%2F%2Flocalhost%3A8501%2Fcallback" in url
    back = _callback(at, sign_in_by_hand(url))
    assert not back.exception, back.exception
    assert "Signed in to the sandbox" in texts(back.success)
    assert "code" not in back.query_params  # a reload cannot replay the code

    token = sign_ins().token(_person(at), "sandbox")
    assert token is not None and token.expires_at is not None
    assert "expires in 4 days 23 h" in texts(_connections(same_browser(at)).success)
    # The token works on the sandbox's MCP servers; another browser has none.
    assert sign_ins().token(_person(new_app().run()), "sandbox") is None
    server = url.split("/auth/")[0]
    assert mcp_status(f"{server}/im", token.access_token).status_code == 200


def test_a_replayed_or_forged_callback_is_refused_and_keeps_the_sign_in():
    at = _connections(new_app())
    params = sign_in_by_hand(_start(at))
    assert "Signed in" in texts(_callback(at, params).success)
    before = sign_ins().token(_person(at), "sandbox")

    replay = _callback(at, params)
    assert "E-5106" in texts(replay.error)
    forged = _callback(at, {**params, "state": "forged-state"})
    assert "E-5104" in texts(forged.error)
    assert sign_ins().token(_person(at), "sandbox") is before


def test_another_browser_cannot_finish_my_sign_in():
    mine = _connections(new_app())
    params = sign_in_by_hand(_start(mine))
    thief = new_app().run()
    stolen = _callback(thief, params)
    assert "E-5104" in texts(stolen.error)
    assert sign_ins().token(_person(thief), "sandbox") is None
    assert sign_ins().token(_person(mine), "sandbox") is None  # nothing was stored


def test_denied_consent_is_a_coded_message():
    at = _connections(new_app())
    denied = _callback(at, sign_in_by_hand(_start(at), step="deny"))
    assert "E-5107" in texts(denied.error)
    assert sign_ins().token(_person(at), "sandbox") is None


def test_disconnect_forgets_and_revokes_the_token():
    at = _connections(new_app())
    _callback(at, sign_in_by_hand(_start(at)))
    token = sign_ins().token(_person(at), "sandbox")
    assert token is not None
    at = _connections(same_browser(at))
    at.button(key=DISCONNECT).click().run()
    assert not at.exception
    assert sign_ins().token(_person(at), "sandbox") is None
    server = str(_start(at)).split("/auth/")[0]
    status = mcp_status(f"{server}/im", token.access_token).status_code
    assert status == 419, status  # revoked at Swiggy's end too, not just forgotten here


def test_the_chats_use_the_signed_in_token(scripted):
    at = _connections(new_app())
    _callback(at, sign_in_by_hand(_start(at)))
    token = sign_ins().token(_person(at), "sandbox")
    assert token is not None
    chat = same_browser(at)
    use_scripted_model(chat, scripted)
    chat = open_page(chat, "feedme")
    scripted.brain.enqueue(text_turn("Sure."))
    chat.chat_input[0].set_value("I'm hungry").run()
    servers = scripted.requests[-1].body["mcp_servers"]
    assert [s["authorization_token"] for s in servers] == [token.access_token]


def test_a_callback_refused_as_not_allow_listed_says_so():
    at = _connections(new_app())
    state = _start(at).split("state=")[1].split("&")[0]
    refused = _callback(
        at,
        {
            "error": "unauthorized_client",
            "error_description": "Swiggy MCP Assistant isn't whitelisted yet",
            "state": state,
        },
    )
    message = texts(refused.error)
    assert "E-5108" in message and "allow-list" in message and "Paste" in message
    assert sign_ins().token(_person(at), "sandbox") is None


def test_remember_me_keeps_an_encrypted_copy_that_a_new_process_can_read(monkeypatch, tmp_path):
    monkeypatch.setenv("SWIGGY_TOKEN_KEY", "a-long-app-secret-for-tests")
    at = _connections(new_app())
    at.checkbox(key="signin_remember::sandbox").check().run()
    _callback(at, sign_in_by_hand(_start(at)))
    token = sign_ins().token(_person(at), "sandbox")
    assert token is not None
    database = Path(str(tmp_path / "chats.db"))
    assert token.access_token.encode() not in database.read_bytes()  # encrypted at rest
    sign_ins().drop(_person(at), "sandbox")  # as after a restart: memory is empty
    again = _connections(same_browser(at))
    assert "Signed in to the Swiggy sandbox" in texts(again.success)
    assert sign_ins().token(_person(at), "sandbox").access_token == token.access_token


def test_without_remember_nothing_reaches_the_database(monkeypatch, tmp_path):
    monkeypatch.setenv("SWIGGY_TOKEN_KEY", "a-long-app-secret-for-tests")
    at = _connections(new_app())
    _callback(at, sign_in_by_hand(_start(at)))
    sign_ins().drop(_person(at), "sandbox")
    assert "Signed in to the Swiggy sandbox" not in texts(_connections(same_browser(at)).success)


def test_a_real_sign_in_about_to_expire_is_announced_on_the_shop_pages(scripted):
    at = new_app().run()
    person = _person(at)
    now = datetime.now(UTC)
    token = SwiggyToken(
        access_token="real-swiggy-access-token",
        token_type="Bearer",
        scope="mcp:tools",
        issuer="https://mcp.swiggy.com/auth",
        obtained_at=now - timedelta(days=4, hours=10),
        expires_at=now + timedelta(hours=14),
    )
    sign_ins().keep(person, "swiggy", token)
    try:
        shop = same_browser(at)
        use_scripted_model(shop, scripted)
        shop.session_state[KEY_USE_SANDBOX] = False
        shop = open_page(shop, "feedme")
        assert "expires within a day" in texts(shop.warning)
        scripted.brain.enqueue(text_turn("Sure."))
        shop.chat_input[0].set_value("I'm hungry").run()
        servers = scripted.requests[-1].body["mcp_servers"]
        assert servers[0]["url"] == "https://mcp.swiggy.com/food"
        assert servers[0]["authorization_token"] == "real-swiggy-access-token"
    finally:
        sign_ins().drop(person, "swiggy")


def test_a_sign_in_with_a_refresh_token_is_renewed_a_day_before_it_expires():
    """Swiggy v1 issues no refresh tokens; when a server does, the app renews silently."""
    clock = Clock()
    store = TokenStore(clock=clock.epoch)
    with SandboxHttpServer(store=store, auth=AuthSettings(issue_refresh_tokens=True)) as server:
        servers = {key: server.url_for(key) for key in ("instamart", "food", "dineout")}
        service = SignInService(clock=clock.now)
        authorize = service.start("renew@sandbox", servers, CALLBACK)
        token = service.finish("renew@sandbox", sign_in_by_hand(authorize))
        assert token.refresh_token
        person, settings = f"renew-{uuid.uuid4().hex}", load_settings({}, {})
        sign_ins().keep(person, "sandbox", token)
        try:
            assert current_token(person, "sandbox", settings) is token  # not due yet
            # Four days on, it expires within a day (the app reads the wall clock).
            token_now = replace(token, expires_at=datetime.now(UTC) + timedelta(hours=20))
            sign_ins().keep(person, "sandbox", token_now)
            fresh = current_token(person, "sandbox", settings)
            assert fresh is not None and fresh.access_token != token.access_token
            assert sign_ins().token(person, "sandbox") is fresh
            assert mcp_status(servers["instamart"], fresh.access_token).status_code == 200
        finally:
            sign_ins().drop(person, "sandbox")
