"""Connections → Servers: health of every server in use, Refresh, and a person's own servers."""

from __future__ import annotations

import os
import shlex
import socket
import sys
import time
from collections.abc import Iterator

import pytest
from uihelpers import buttons, new_app, open_page, store_user, texts, use_scripted_model

from swiggy_app import servers as server_rules
from swiggy_core.constants import ALLOW_PRIVATE_SERVERS_ENV
from swiggy_core.mcp.config import ServerConfig, ServerConfigSet
from swiggy_core.mcp.user_servers import user_servers
from swiggy_core.shared_state import reset_shared_state
from swiggy_core.store import ChatStore
from swiggy_sandbox.emulator import ScriptedTurn, text_turn, tool_use_block
from swiggy_ui import runtime, servers_panel
from swiggy_ui.credentials import KEY_API_KEY, KEY_BASE_URL, KEY_SWIGGY_TOKEN, KEY_USE_SANDBOX

PAGE = "app_pages/connections.py"
# A real MCP server over stdio: the sandbox's food server (its own demo sign-in inside).
STDIO_SERVER = shlex.join([sys.executable, "-m", "swiggy_sandbox.servers", "food", "--stdio"])


@pytest.fixture(autouse=True)
def _fresh_health() -> Iterator[None]:
    """Each test starts with no known status and reads the config file again."""
    _stop_poller()
    yield
    _stop_poller()


def _stop_poller() -> None:
    runtime.health_service().board.stop()
    runtime.health_service.clear()
    runtime.server_config.clear()
    reset_shared_state()


def _rows(at) -> str:
    return texts(at.markdown)


def _details(at) -> str:
    return texts(at.caption)


def _row_of(at, key: str) -> str:
    lines = [line for line in _rows(at).splitlines() if f"**{key}**" in line]
    assert len(lines) == 1, f"{key}: {lines}"
    return lines[0]


def _store() -> ChatStore:
    return ChatStore(os.environ["SWIGGY_DATABASE_URL"])


def _add(at, key: str, transport: str, *, url: str = "", command: str = "", pages=("food",)):
    at.text_input(key="srv-add-key").set_value(key)
    at.selectbox(key="srv-add-transport").set_value(transport)
    at.text_input(key="srv-add-url").set_value(url)
    if command:  # the field is there only where people may add stdio servers
        at.text_input(key="srv-add-command").set_value(command)
    at.multiselect(key="srv-add-pages").set_value(list(pages))
    buttons(at, "Add server")[0].click().run()
    assert not at.exception
    return at


def test_every_sandbox_server_shows_its_health_after_refresh(app):
    at = open_page(app, PAGE)
    assert "Servers" in texts(at.subheader)
    for key in ("instamart", "food", "dineout"):
        assert "http · `127.0.0.1`" in _row_of(at, key)
    buttons(at, "Refresh")[0].click().run()
    assert not at.exception
    for key in ("instamart", "food", "dineout"):
        assert "· up ·" in _row_of(at, key)
    details = _details(at)
    assert "tools ·" in details and " ms · checked" in details
    # The token the probes used is nowhere on the page.
    token = at.session_state.to_dict()
    assert all("Bearer" not in line for line in details.splitlines()), token.keys()


def test_refresh_within_ten_seconds_says_checked_just_now_and_probes_nothing(app, monkeypatch):
    at = open_page(app, PAGE)
    buttons(at, "Refresh")[0].click().run()
    board = runtime.health_service().board
    keys = [f"sandbox/{key}" for key in ("instamart", "food", "dineout")]
    first = board.statuses(keys)
    assert len(first) == 3
    # The page's clock stands 2 s after the newest probe: inside the 10 s floor.
    newest = max(status.checked_at for status in first.values())
    monkeypatch.setattr(servers_panel, "_now", lambda: newest + 2)
    buttons(at, "Refresh")[0].click().run()
    assert "Checked just now" in _details(at)
    assert board.statuses(keys) == first  # nothing was probed again


def test_a_person_adds_disables_and_removes_a_server_of_their_own(app, monkeypatch):
    monkeypatch.setenv("SWIGGY_ALLOW_USER_STDIO", "1")
    at = open_page(app, PAGE)
    assert "You have not added a server" in _details(at)
    _add(at, "recipes", "stdio", command=STDIO_SERVER, pages=("food", "foodorder"))
    assert "Added “recipes”" in texts(at.success)
    user = store_user(at)
    stored = user_servers(_store(), user)
    assert list(stored) == ["recipes"]
    assert stored["recipes"].command == sys.executable
    assert stored["recipes"].pages == ("food", "foodorder")
    assert "yours" in _row_of(at, "recipes")
    assert "Not checked yet: press Refresh." in _details(at)
    # The process's poller watches the app's servers, never a person's own.
    watched = [config.key for config in runtime.health_service().watched.configs()]
    assert sorted(watched) == ["sandbox/dineout", "sandbox/food", "sandbox/instamart"]
    # A real stdio server answers the probe.
    buttons(at, "Refresh")[0].click().run()
    assert "· up ·" in _row_of(at, "recipes")
    assert "python … (4 arguments)" in _row_of(at, "recipes")

    at.toggle(key="srv-enabled-recipes").set_value(False).run()
    assert not at.exception
    assert "· off ·" in _row_of(at, "recipes")
    assert user_servers(_store(), user)["recipes"].enabled is False

    buttons(at, "Remove")[0].click().run()
    assert "Remove “recipes”?" in texts(at.warning)
    assert user_servers(_store(), user)  # nothing removed before the confirmation
    buttons(at, "Remove server")[0].click().run()
    assert not at.exception
    assert "Removed “recipes”" in texts(at.success)
    assert user_servers(_store(), user) == {}
    assert "**recipes**" not in _rows(at)
    # Another person never saw it.
    stranger = open_page(new_app(), PAGE)
    assert "**recipes**" not in _rows(stranger)


def test_keep_leaves_the_server_in_place(app, monkeypatch):
    monkeypatch.setenv(ALLOW_PRIVATE_SERVERS_ENV, "true")  # a loopback server of one's own
    at = open_page(app, PAGE)
    _add(at, "notes", "http", url="http://127.0.0.1:9/mcp")
    buttons(at, "Remove")[0].click().run()
    buttons(at, "Keep")[0].click().run()
    assert not at.exception
    assert "notes" in user_servers(_store(), store_user(at))
    assert "**notes**" in _rows(at)


def test_a_server_that_is_down_shows_down_with_its_code(app, monkeypatch):
    monkeypatch.setenv(ALLOW_PRIVATE_SERVERS_ENV, "true")  # a loopback server of one's own
    at = open_page(app, PAGE)
    _add(at, "offline", "http", url="http://127.0.0.1:9/mcp")
    buttons(at, "Refresh")[0].click().run()
    assert "· down ·" in _row_of(at, "offline")
    assert "E-32" in _details(at)
    for key in ("instamart", "food", "dineout"):  # the others keep working
        assert "· up ·" in _row_of(at, key)


@pytest.mark.parametrize(
    ("key", "transport", "url", "command", "expected"),
    [
        ("instamart", "http", "http://127.0.0.1:9/mcp", "", "already in use"),
        ("nourl", "http", "", "", "E-3201"),
        ("Bad Key!", "http", "http://127.0.0.1:9/mcp", "", "E-3201"),
        ("plain", "http", "http://example.com/mcp", "", "E-3201"),
        ("quote", "stdio", "", 'python "unclosed', "E-3201"),
    ],
)
def test_a_bad_server_is_refused_with_its_code(
    app, monkeypatch, key, transport, url, command, expected
):
    monkeypatch.setenv("SWIGGY_ALLOW_USER_STDIO", "1")
    at = open_page(app, PAGE)
    _add(at, key, transport, url=url, command=command)
    message = texts(at.error) + texts(at.caption)  # the words, and the code under them
    assert "E-3201" in message and expected in message
    assert user_servers(_store(), store_user(at)) == {}
    # What was typed stays in the form to be corrected.
    assert at.text_input(key="srv-add-key").value == key


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:9/mcp",
        "https://10.0.0.5/mcp",
        "https://169.254.169.254/latest/meta-data",
        "https://[::ffff:127.0.0.1]/mcp",
    ],
)
def test_a_server_on_a_private_address_is_refused_with_its_code(app, url):
    at = open_page(app, PAGE)
    _add(at, "inside", "http", url=url)
    message = texts(at.error)
    assert "only connects your servers to public addresses" in message
    assert "E-3209" in texts(at.caption) and "E-3209" not in message
    assert user_servers(_store(), store_user(at)) == {}
    assert at.text_input(key="srv-add-url").value == url  # kept, to be corrected


def test_a_name_that_turns_private_after_it_was_added_is_refused_on_refresh(app, monkeypatch):
    # Nothing listens where the name now points; anything that connected would show there.
    trap = socket.create_server(("127.0.0.1", 0))
    trap.setblocking(False)
    port = trap.getsockname()[1]
    answers = {"rebind.example.com": "93.184.216.34"}
    real = socket.getaddrinfo

    def getaddrinfo(host, service, *args, **kwargs):
        name = host.decode() if isinstance(host, bytes) else str(host)
        if name in answers:
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (answers[name], service or 0))]
        if name.replace(".", "").isdigit() or name == "localhost":
            return real(host, service, *args, **kwargs)
        raise socket.gaierror(socket.EAI_NONAME, f"{name} is not looked up in tests")

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    at = open_page(app, PAGE)
    _add(at, "rebound", "http", url=f"https://rebind.example.com:{port}/mcp")
    assert "Added “rebound”" in texts(at.success)
    answers["rebind.example.com"] = "127.0.0.1"
    with trap:
        buttons(at, "Refresh")[0].click().run()
        with pytest.raises(BlockingIOError):
            trap.accept()  # no connection ever arrived
    assert "· down ·" in _row_of(at, "rebound")
    (refusal,) = [line for line in _details(at).splitlines() if "E-3209" in line]
    assert "(rebind.example.com)" in refusal and "127.0.0.1" not in refusal
    assert " ms" not in refusal  # no latency, no verdict on what is behind the name
    for key in ("instamart", "food", "dineout"):  # the app's own loopback servers still work
        assert "· up ·" in _row_of(at, key)


def test_a_malformed_config_file_is_reported_by_line_and_the_rest_still_runs(
    app, tmp_path, monkeypatch
):
    config = tmp_path / "mcp_servers.toml"
    config.write_text(
        "[servers.weather]\n"
        'url = "http://127.0.0.1:9/mcp"\n'
        'pages = ["dining"]\n'
        "\n"
        "[servers.broken]\n"
        'transport = "carrier-pigeon"\n'
        'url = "http://127.0.0.1:9/mcp"\n'
    )
    monkeypatch.setenv("SWIGGY_MCP_CONFIG", str(config))
    at = open_page(app, PAGE)
    warning = texts(at.warning)
    assert "line 6" in warning and "broken" in warning
    assert "E-3201" in texts(at.caption) and "E-3201" not in warning  # the code under the words
    assert "sse · `127.0.0.1`" in _row_of(at, "weather")  # the valid one (a url alone: SSE)
    assert "**broken**" not in _rows(at)


def test_the_page_gets_the_extra_servers_named_for_it():
    sandbox_like = None
    file_set = ServerConfigSet(
        servers={
            "weather": ServerConfig(
                "weather", "http", url="http://127.0.0.1:9/mcp", pages=("dining",)
            ),
            "off": ServerConfig(
                "off", "http", url="http://127.0.0.1:9/mcp", pages=("dining",), enabled=False
            ),
        },
        problems=[],
        source="test",
    )
    own = {
        "notes": ServerConfig(
            "notes", "http", url="http://127.0.0.1:8/mcp", pages=("dining", "food"), origin="user"
        )
    }
    servers = server_rules.in_use(file_set, sandbox_like, own)
    dining = server_rules.extra_servers(servers, "dining", swiggy_token="t", secrets={})
    assert [server.config.key for server in dining] == ["weather", "notes"]
    food = server_rules.extra_servers(servers, "food", swiggy_token="t", secrets={})
    assert [server.config.key for server in food] == ["notes"]
    assert all(server.token is None for server in (*dining, *food))


def test_targets_never_show_secrets():
    http = ServerConfig("a", "http", url="https://user:pw@mcp.example.com/path?key=abc")
    assert servers_panel.safe_target(http) == "mcp.example.com"
    stdio = ServerConfig(
        "b", "stdio", command="tool", args=("--token", "abc123", "API_KEY=xyz", "run")
    )
    assert servers_panel.safe_target(stdio) == "tool … (4 arguments)"
    # A token with no telling name next to it (mcp-remote's --header form, a bare key).
    remote = ServerConfig(
        "c", "stdio", command="/usr/bin/npx",
        args=("mcp-remote", "https://h/mcp", "--header", "Authorization: Bearer sk-live-123"),
    )  # fmt: skip
    assert servers_panel.safe_target(remote) == "npx … (4 arguments)"


def test_checked_ago_reads_naturally():
    assert servers_panel.checked_ago(100.0, now=100.4) == "just now"
    assert servers_panel.checked_ago(100.0, now=107.0) == "7 s ago"
    assert servers_panel.checked_ago(100.0, now=100.0 + 190) == "3 min ago"


def test_a_persons_server_offers_its_tools_only_on_the_pages_they_chose(app, scripted, monkeypatch):
    monkeypatch.setenv("SWIGGY_ALLOW_USER_STDIO", "1")
    monkeypatch.setenv("SWIGGY_ENGINE", "local")  # extra servers' tools go through the app
    at = open_page(app, PAGE)
    _add(at, "recipes", "stdio", command=STDIO_SERVER, pages=("food",))
    use_scripted_model(at, scripted)

    def offered_on(page: str) -> set[str]:
        scripted.brain.enqueue(text_turn("Hello."))
        at.switch_page(page).run()
        at.chat_input[0].set_value("hello").run()
        assert not at.exception
        return {tool["name"] for tool in scripted.requests[-1].body["tools"]}

    nutricart = offered_on("nutricart")
    assert "recipes__search_restaurants" in nutricart  # the food server's tools, prefixed
    assert "search_products" in nutricart  # beside the page's own
    assert not any(name.startswith("recipes__") for name in offered_on("tablescout"))


def test_a_server_switched_off_in_the_file_refuses_its_calls_with_a_code(
    app, scripted, tmp_path, monkeypatch
):
    config = tmp_path / "mcp_servers.toml"
    config.write_text('[servers.instamart]\nurl = "https://mcp.swiggy.com/im"\nenabled = false\n')
    monkeypatch.setenv("SWIGGY_MCP_CONFIG", str(config))
    monkeypatch.setenv("SWIGGY_ENGINE", "local")
    at = open_page(app, PAGE)
    assert "· off ·" in _row_of(at, "instamart")  # the sandbox's endpoint, switched off
    assert "http · `127.0.0.1`" in _row_of(at, "instamart")
    use_scripted_model(at, scripted)
    call = ScriptedTurn([tool_use_block("toolu_1", "get_cart", {})], stop_reason="tool_use")
    scripted.brain.enqueue(call)
    scripted.brain.enqueue(text_turn("The shop is switched off."))
    at.switch_page("nutricart").run()
    at.chat_input[0].set_value("show my cart").run()
    assert not at.exception
    answer = next(
        block
        for message in scripted.requests[-1].body["messages"]
        if isinstance(message["content"], list)
        for block in message["content"]
        if block.get("type") == "tool_result"
    )
    assert answer.get("is_error") is True
    assert "switched off" in str(answer["content"])
    # The header's own read of the saved addresses is audited too; the refused call is one.
    (entry,) = [e for e in _store().tool_calls(store_user(at)) if e.tool == "get_cart"]
    assert (entry.tool, entry.outcome, entry.error_code) == ("get_cart", "denied", "E-3206")


def test_the_poller_keeps_the_app_servers_fresh_without_a_refresh(app, monkeypatch):
    monkeypatch.setenv("SWIGGY_HEALTH_POLL", "on")
    _stop_poller()  # started again below, now with polling on
    at = open_page(app, PAGE)
    board = runtime.health_service().board
    keys = [f"sandbox/{key}" for key in ("instamart", "food", "dineout")]
    for _ in range(1200):  # the first round runs in the background as soon as it starts
        if len(board.statuses(keys)) == 3:
            break
        time.sleep(0.1)
    at.run()
    for key in ("instamart", "food", "dineout"):
        assert "· up ·" in _row_of(at, key)
    assert not buttons(at, "Refresh")[0].value  # nobody pressed it


def test_real_swiggy_is_shown_but_never_polled_with_a_visitors_token(app, scripted):
    app.session_state[KEY_API_KEY] = "sk-ant-ui-test"
    app.session_state[KEY_BASE_URL] = scripted.base_url
    app.session_state[KEY_USE_SANDBOX] = False
    app.session_state[KEY_SWIGGY_TOKEN] = "swiggy-visitor-token"
    at = open_page(app, PAGE)
    for key in ("instamart", "food", "dineout"):
        assert "http · `mcp.swiggy.com`" in _row_of(at, key)
    assert "Not checked yet: press Refresh." in _details(at)
    # The process holds no Swiggy token of its own: the poller leaves Swiggy alone.
    assert runtime.health_service().watched.configs() == []
