"""A person's own MCP servers, kept with their preferences (SQLite on disk and PostgreSQL)."""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from swiggy_core.constants import ALLOW_PRIVATE_SERVERS_ENV, ALLOW_USER_STDIO_ENV, USER_SERVERS_MAX
from swiggy_core.errors import ErrorCode, SwiggyAssistantError
from swiggy_core.mcp.config import ServerConfig, parse_server_config
from swiggy_core.mcp.user_servers import (
    merged_servers,
    remove_user_server,
    save_user_server,
    set_user_server_enabled,
    user_servers,
    user_stdio_allowed,
)
from swiggy_core.store import ChatStore

ME = "u-me@sandbox"
PUBLIC = "93.184.216.34"
# What the test's resolver answers; any other name is not looked up at all.
ADDRESSES = {"private.example.com": "10.0.0.5", "rebound.example.com": "127.0.0.1"}


@pytest.fixture(autouse=True)
def offline_names(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Saving a server resolves its host: *.example.com answers from ADDRESSES (else a
    public address), IP literals and localhost as usual, and nothing goes to a DNS server."""
    real = socket.getaddrinfo

    def getaddrinfo(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        name = host.decode() if isinstance(host, bytes) else str(host)
        if name.endswith(".example.com"):
            address = ADDRESSES.get(name, PUBLIC)
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port or 0))]
        if name == "localhost" or name.replace(".", "").isdigit() or ":" in name:
            return real(host, port, *args, **kwargs)
        raise socket.gaierror(socket.EAI_NONAME, f"{name} is not looked up in tests")

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    yield


def weather(**changes: object) -> ServerConfig:
    values: dict[str, object] = {
        "key": "weather",
        "transport": "sse",
        "url": "https://weather.example.com/sse",
        "headers": {"Accept-Language": "en-IN"},
        "pages": ("dining", "food"),
    }
    values.update(changes)
    return ServerConfig(**values)  # type: ignore[arg-type]


def refused(action: Callable[[], object]) -> str:
    with pytest.raises(SwiggyAssistantError) as caught:
        action()
    assert caught.value.code == ErrorCode.SERVER_CONFIG
    return caught.value.message


def test_a_saved_server_comes_back_from_another_store_instance(
    store: ChatStore, open_store: Callable[..., ChatStore]
):
    save_user_server(store, ME, weather())
    # A key that the store would scrub as credential-like keeps its name.
    save_user_server(
        store, ME, weather(key="tokens", transport="http", url="https://t.example.com")
    )
    again = user_servers(open_store(), ME)
    assert list(again) == ["weather", "tokens"]
    assert again["weather"] == weather(origin="user")
    assert again["tokens"].url == "https://t.example.com"


def test_servers_are_per_person_and_world(store: ChatStore):
    save_user_server(store, ME, weather())
    assert user_servers(store, "u-me@swiggy") == {}
    assert user_servers(store, "u-someone-else@sandbox") == {}


def test_saving_the_same_key_replaces_it(store: ChatStore):
    save_user_server(store, ME, weather())
    save_user_server(store, ME, weather(url="https://other.example.com/sse"))
    assert [c.url for c in user_servers(store, ME).values()] == ["https://other.example.com/sse"]


def test_disable_enable_and_remove(store: ChatStore):
    save_user_server(store, ME, weather())
    set_user_server_enabled(store, ME, "weather", False)
    assert user_servers(store, ME)["weather"].enabled is False
    set_user_server_enabled(store, ME, "weather", True)
    assert user_servers(store, ME)["weather"].enabled is True
    remove_user_server(store, ME, "weather")
    assert user_servers(store, ME) == {}
    remove_user_server(store, ME, "weather")  # already gone: nothing happens
    message = refused(lambda: set_user_server_enabled(store, ME, "weather", False))
    assert "no server 'weather'" in message


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        (weather(key="food"), "one of the Swiggy servers"),
        (weather(key="Bad Key"), "a-z, 0-9"),
        (weather(headers={"Authorization": "Bearer abc123"}), 'credential = "secret:NAME"'),
        (weather(url="https://me:abc123@weather.example.com/sse"), "user or password"),
        (weather(url="http://weather.example.com/sse"), "must use https"),
        (weather(credential="secret:ANTHROPIC_API_KEY"), "cannot use a credential"),
        (weather(credential="swiggy"), "cannot use a credential"),
        (weather(pages=("groceries",)), "unknown page 'groceries'"),
        (weather(transport="pigeon"), "transport must be one of"),
    ],
)
def test_a_bad_server_is_refused_and_nothing_is_stored(
    store: ChatStore, config: ServerConfig, expected: str
):
    message = refused(lambda: save_user_server(store, ME, config))
    assert expected in message
    assert "abc123" not in message
    assert user_servers(store, ME) == {}


def test_stdio_servers_need_the_deployment_to_allow_them(
    store: ChatStore, monkeypatch: pytest.MonkeyPatch
):
    tool = ServerConfig(key="notes", transport="stdio", command="python", args=("-m", "notes"))
    monkeypatch.delenv(ALLOW_USER_STDIO_ENV, raising=False)
    assert not user_stdio_allowed()
    assert "stdio" in refused(lambda: save_user_server(store, ME, tool))
    monkeypatch.setenv(ALLOW_USER_STDIO_ENV, "true")
    assert user_stdio_allowed()
    save_user_server(store, ME, tool)
    assert user_servers(store, ME)["notes"].target == "python -m notes"
    # The deployment stops allowing it: the saved stdio server no longer loads (or runs).
    monkeypatch.delenv(ALLOW_USER_STDIO_ENV)
    assert "notes" not in user_servers(store, ME)
    monkeypatch.setenv(ALLOW_USER_STDIO_ENV, "true")
    secret_env = ServerConfig(key="gh", transport="stdio", command="gh", env={"GH_TOKEN": "x"})
    assert "GH_TOKEN" in refused(lambda: save_user_server(store, ME, secret_env))


def test_a_person_has_a_limited_number_of_servers(store: ChatStore):
    for number in range(USER_SERVERS_MAX):
        save_user_server(store, ME, weather(key=f"s{number}"))
    assert "at most" in refused(lambda: save_user_server(store, ME, weather(key="one-more")))
    save_user_server(store, ME, weather(key="s0", enabled=False))  # replacing is fine


def test_a_stored_entry_that_breaks_the_rules_is_left_out(store: ChatStore):
    save_user_server(store, ME, weather())
    stored = store.get_preference(ME, "mcp_servers")
    assert stored is not None
    stored["servers"].append({"name": "sneaky", "url": "http://remote.example.com/mcp"})
    store.set_preference(ME, "mcp_servers", stored)
    assert list(user_servers(store, ME)) == ["weather"]


def test_merged_servers_never_let_a_person_replace_a_configured_one(store: ChatStore):
    file_set = parse_server_config('[servers.weather]\nurl = "https://file.example.com/mcp"\n')
    save_user_server(store, ME, weather())
    save_user_server(store, ME, weather(key="mine", url="https://mine.example.com/sse"))
    merged = merged_servers(file_set, user_servers(store, ME))
    assert merged["weather"].url == "https://file.example.com/mcp"
    assert merged["weather"].origin == "file"
    assert merged["mine"].origin == "user"
    assert {"instamart", "food", "dineout"} <= set(merged)


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("https://10.0.0.5/mcp", "on a private network (10.0.0.5)"),
        ("https://169.254.169.254/latest", "metadata service (169.254.169.254)"),
        ("https://2130706433/mcp", "own machine (2130706433)"),
        ("https://[::ffff:127.0.0.1]/mcp", "own machine (::ffff:127.0.0.1)"),
        ("http://localhost:8080/mcp", "own machine (localhost)"),
        ("https://private.example.com/sse", "on a private network (private.example.com)"),
        ("https://rebound.example.com/sse", "own machine (rebound.example.com)"),
    ],
)
def test_a_server_on_a_non_public_address_is_refused_and_nothing_is_stored(
    store: ChatStore, url: str, shown: str
):
    with pytest.raises(SwiggyAssistantError) as caught:
        save_user_server(store, ME, weather(url=url))
    assert caught.value.code == ErrorCode.SERVER_HOST_REFUSED
    message = caught.value.message
    assert shown in message
    # Only the host as typed is named, never an address it resolved to.
    assert all(address in url or address not in message for address in ADDRESSES.values())
    assert user_servers(store, ME) == {}


def test_the_operator_switch_lets_people_add_private_servers(
    store: ChatStore, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv(ALLOW_PRIVATE_SERVERS_ENV, "true")
    save_user_server(store, ME, weather(key="lan", url="https://10.0.0.5/sse"))
    assert user_servers(store, ME)["lan"].url == "https://10.0.0.5/sse"
    # Switched off again: the stored server is left out (and never dialled).
    monkeypatch.delenv(ALLOW_PRIVATE_SERVERS_ENV)
    assert user_servers(store, ME) == {}
