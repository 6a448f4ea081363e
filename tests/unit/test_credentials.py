"""Whose key and token a session may use, and where they may go."""

from __future__ import annotations

import pytest

from swiggy_core.settings import load_settings
from swiggy_ui.credentials import (
    KEY_API_KEY,
    KEY_BASE_URL,
    KEY_SWIGGY_TOKEN,
    KEY_USE_SANDBOX,
    resolve_credentials,
)
from swiggy_ui.identity import Identity, may_use_owner_credentials

OWNER_KEY = "sk-ant-owner-key-0001"
OWNER_TOKEN = "owner-swiggy-token-0001"
OWNER_URL = "https://gateway.owner.example"
VISITOR_URL = "http://127.0.0.1:9/visitor"

LOCAL = Identity(user_id="b-" + "1" * 32, kind="browser", is_owner_here=True)
BROWSER = Identity(user_id="b-" + "0" * 32, kind="browser")
ANN = Identity(user_id="u-ann", kind="signed_in", email="ann@example.com")
BOB = Identity(user_id="u-bob", kind="signed_in", email="bob@example.com")


def owner_settings(**extra: str):
    env = {
        "ANTHROPIC_API_KEY": OWNER_KEY,
        "ANTHROPIC_BASE_URL": OWNER_URL,
        "SWIGGY_TOKEN": OWNER_TOKEN,
        **extra,
    }
    return load_settings({}, env)


def test_a_visitor_base_url_never_gets_the_owners_key_or_token():
    settings = owner_settings()
    chosen = resolve_credentials(settings, BROWSER, {KEY_BASE_URL: VISITOR_URL})
    assert chosen.api_key is None and chosen.swiggy_token is None
    assert chosen.base_url is None and chosen.backend == "sandbox"
    # Even the owner at this machine: the typed URL goes only with a typed key.
    here = resolve_credentials(settings, LOCAL, {KEY_BASE_URL: VISITOR_URL})
    assert (here.api_key, here.base_url) == (OWNER_KEY, OWNER_URL)


def test_a_visitors_own_key_goes_to_their_url_with_their_token_only():
    chosen = resolve_credentials(
        owner_settings(), LOCAL, {KEY_API_KEY: "sk-ant-visitor", KEY_BASE_URL: VISITOR_URL}
    )
    assert (chosen.api_key, chosen.base_url, chosen.key_source) == (
        "sk-ant-visitor",
        VISITOR_URL,
        "visitor",
    )
    assert chosen.swiggy_token is None, "the owner's token never rides with a visitor's key"
    assert chosen.backend == "sandbox"
    with_token = resolve_credentials(
        owner_settings(),
        BROWSER,
        {KEY_API_KEY: "sk-ant-visitor", KEY_SWIGGY_TOKEN: "visitor-token", KEY_USE_SANDBOX: False},
    )
    assert (with_token.swiggy_token, with_token.backend) == ("visitor-token", "swiggy")


def test_owner_credentials_serve_visitors_only_when_shared_with_them():
    assert may_use_owner_credentials(LOCAL, owner_settings())
    assert not may_use_owner_credentials(BROWSER, owner_settings())
    assert not may_use_owner_credentials(ANN, owner_settings())  # not shared
    shared = owner_settings(
        SWIGGY_SHARE_OWNER_CREDENTIALS="true", SWIGGY_ALLOWED_EMAILS="Ann@Example.com"
    )
    assert may_use_owner_credentials(ANN, shared)
    assert not may_use_owner_credentials(BOB, shared)
    assert not may_use_owner_credentials(BROWSER, shared)  # signed in or nothing
    chosen = resolve_credentials(shared, ANN, {KEY_USE_SANDBOX: False})
    assert (chosen.api_key, chosen.base_url, chosen.swiggy_token) == (
        OWNER_KEY,
        OWNER_URL,
        OWNER_TOKEN,
    )
    assert chosen.backend == "swiggy"
    assert resolve_credentials(shared, BOB, {}).api_key is None


def test_secrets_stay_out_of_the_repr():
    chosen = resolve_credentials(owner_settings(), LOCAL, {})
    assert OWNER_KEY not in repr(chosen) and OWNER_TOKEN not in repr(chosen)


@pytest.mark.parametrize("emails", ["ann", "ann@example.com, not an email"])
def test_a_malformed_allow_list_is_refused_by_name(emails):
    from swiggy_core.errors import SettingsError

    with pytest.raises(SettingsError, match="SWIGGY_ALLOWED_EMAILS"):
        load_settings({}, {"SWIGGY_ALLOWED_EMAILS": emails})


def test_the_runtime_repr_shows_no_secret(tmp_path):
    from swiggy_app import ShopApp, Visitor
    from swiggy_app.servers import HealthService
    from swiggy_core.mcp.config import ServerConfigSet
    from swiggy_core.store import ChatStore
    from swiggy_ui.runtime import Runtime

    settings = owner_settings()
    store = ChatStore(f"sqlite:///{tmp_path / 'chats.db'}")
    credentials = resolve_credentials(settings, LOCAL, {KEY_USE_SANDBOX: False})
    app = ShopApp(
        settings=settings,
        backend="swiggy",
        store=store,
        sandbox=None,
        server_file=ServerConfigSet(servers={}, problems=[], source="test"),
        health=HealthService.start(poll=False),
    )
    visitor = Visitor(
        person_id="b-1",
        backend="swiggy",
        model="claude-haiku-4-5",
        api_key=credentials.api_key,
        swiggy_token=credentials.swiggy_token,
        token_source=credentials.token_source,
    )
    runtime = Runtime(
        settings=settings,
        identity=LOCAL,
        credentials=credentials,
        app=app,
        visit=app.visit(visitor),
    )
    assert runtime.api_key == OWNER_KEY and runtime.swiggy_token == OWNER_TOKEN
    shown = repr(runtime) + str(runtime)
    assert OWNER_KEY not in shown and OWNER_TOKEN not in shown
    store.close()
