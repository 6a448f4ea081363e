"""A hosted copy with the owner's secrets: visitors never get them, signed-in allow-listed
users may, and the sandbox and real Swiggy never mix."""

from __future__ import annotations

import json

import pytest
from uihelpers import buttons, open_page, texts

from swiggy_core.parsers import AddressItem
from swiggy_sandbox.emulator import text_turn
from swiggy_ui.credentials import KEY_API_KEY, KEY_BASE_URL, KEY_SWIGGY_TOKEN, KEY_USE_SANDBOX

OWNER_KEY = "sk-ant-owner-secret-key-7788"
OWNER_TOKEN = "owner-swiggy-token-7788"
SANDBOX_ADDRESS = "addr_home_indiranagar"


def _leaks(requests) -> list[str]:
    found = []
    for request in requests:
        wire = json.dumps({"headers": request.headers, "body": request.body})
        found += [secret for secret in (OWNER_KEY, OWNER_TOKEN) if secret in wire]
    return found


@pytest.fixture
def owner_secrets(monkeypatch, scripted):
    """The owner set a key, a token and their own endpoint (here: a loopback listener)."""
    monkeypatch.setenv("ANTHROPIC_API_KEY", OWNER_KEY)
    monkeypatch.setenv("SWIGGY_TOKEN", OWNER_TOKEN)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", scripted.base_url)
    return scripted


def test_a_visitor_base_url_gets_no_owner_credential(app, owner_secrets):
    visitor_listener = owner_secrets
    at = open_page(app, "app_pages/connections.py")
    at.text_input(key="form_base_url").set_value(visitor_listener.base_url + "/v")
    buttons(at, "Check and use")[0].click().run()
    assert "E-1005" in texts(at.caption)
    assert KEY_BASE_URL not in at.session_state
    at.switch_page("feedme").run()
    at.chat_input[0].set_value("I'm hungry").run()
    assert not at.exception
    assert "Offline demo" in texts(at.markdown)  # the badge: the planner answered, not Claude
    assert [m.name for m in at.chat_message] == ["user", "assistant"]
    assert not visitor_listener.requests, "nothing may reach any endpoint with owner secrets"


def test_a_visitor_key_goes_to_the_visitor_url_without_the_owners_token(app, owner_secrets):
    listener = owner_secrets
    at = open_page(app, "feedme")
    at.session_state[KEY_API_KEY] = "sk-ant-visitor-key-1"
    at.session_state[KEY_BASE_URL] = listener.base_url
    at.run()
    listener.brain.enqueue(text_turn("Hello."))
    at.chat_input[0].set_value("I'm hungry").run()
    assert not at.exception
    (request,) = listener.requests
    assert "sk-ant-visitor-key-1" in json.dumps(request.headers)
    assert not _leaks(listener.requests)
    assert all(
        "mcp.swiggy.com" not in server["url"] for server in request.body.get("mcp_servers", [])
    )


def _signed_in(app, email: str) -> None:
    app.user = {"is_logged_in": True, "email": email, "sub": f"sub-{email}", "iss": "https://id"}


def test_shared_owner_credentials_serve_only_signed_in_allow_listed_users(
    app, owner_secrets, monkeypatch
):
    monkeypatch.setenv("SWIGGY_SHARE_OWNER_CREDENTIALS", "true")
    monkeypatch.setenv("SWIGGY_ALLOWED_EMAILS", "ann@example.com")
    owner_endpoint = owner_secrets
    _signed_in(app, "ann@example.com")
    at = open_page(app, "feedme")
    owner_endpoint.brain.enqueue(text_turn("Hi Ann."))
    at.chat_input[0].set_value("I'm hungry").run()
    assert not at.exception
    (request,) = owner_endpoint.requests
    assert OWNER_KEY in json.dumps(request.headers)  # the owner's own endpoint only
    assert request.body["mcp_servers"][0]["authorization_token"] == OWNER_TOKEN

    owner_endpoint.requests.clear()
    from uihelpers import new_app

    bob = new_app()
    _signed_in(bob, "bob@example.com")
    bob = open_page(bob, "feedme")
    bob.chat_input[0].set_value("I'm hungry").run()
    assert not bob.exception
    assert not owner_endpoint.requests, "bob is not on the allow-list: offline demo"


def test_chats_belong_to_the_signed_in_user(app):
    _signed_in(app, "ann@example.com")
    at = open_page(app, "nutricart")
    at.chat_input[0].set_value("show my cart").run()
    from uihelpers import new_app

    again = new_app()
    _signed_in(again, "ann@example.com")
    again = open_page(again, "nutricart")
    assert [m.name for m in again.chat_message] == ["user", "assistant"]
    other = new_app()
    _signed_in(other, "bob@example.com")
    other = open_page(other, "nutricart")
    assert not other.chat_message


def test_switching_to_real_swiggy_sends_no_sandbox_chat_or_address(app, scripted):
    at = open_page(app, "nutricart")
    at.session_state[KEY_API_KEY] = "sk-ant-visitor-key-2"
    at.session_state[KEY_BASE_URL] = scripted.base_url
    at.session_state["active_address::sandbox"] = AddressItem(
        address_id=SANDBOX_ADDRESS, label="Home", address="12th Main"
    )
    at.run()
    scripted.brain.enqueue(text_turn("Sandbox reply."))
    at.chat_input[0].set_value("sandbox question about oats").run()
    assert SANDBOX_ADDRESS in json.dumps(scripted.requests[-1].body)  # it was in use there

    at.session_state[KEY_SWIGGY_TOKEN] = "visitor-real-token"
    at.session_state[KEY_USE_SANDBOX] = False
    at.run()
    assert not at.chat_message, "the real world starts with its own (empty) chats"
    scripted.brain.enqueue(text_turn("Real reply."))
    at.chat_input[0].set_value("real question").run()
    real = json.dumps(scripted.requests[-1].body)
    assert SANDBOX_ADDRESS not in real
    assert "sandbox question about oats" not in real
    assert "https://mcp.swiggy.com/im" in real
    # Back to the sandbox: its chat is still there, untouched by the real one.
    at.session_state[KEY_USE_SANDBOX] = True
    at.run()
    shown = texts(at.chat_message[0].markdown)
    assert "sandbox question about oats" in shown and len(at.chat_message) == 2


def test_sign_in_and_out_are_offered_only_when_login_is_configured(app):
    at = open_page(app, "app_pages/home.py")  # default AppTest user: no [auth] configured
    assert not buttons(at, "Sign in") and not buttons(at, "Sign out")
    from uihelpers import new_app

    visitor = new_app()
    visitor.user = {"is_logged_in": False}  # [auth] configured, not signed in yet
    visitor.run()
    assert buttons(visitor, "Sign in")
    _signed_in(visitor, "ann@example.com")
    visitor.run()
    assert buttons(visitor, "Sign out")
    assert "ann@example.com" in texts(visitor.sidebar.caption)
