"""The app object: one front door the pages use (turn setup once per visit, chats service)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from swiggy_app import ShopApp, Visitor
from swiggy_app.servers import HealthService
from swiggy_core.actions import typed_message
from swiggy_core.constants import ALLOW_PRIVATE_SERVERS_ENV
from swiggy_core.mcp.config import ServerConfig, ServerConfigSet
from swiggy_core.parsers import AddressItem
from swiggy_core.settings import load_settings
from swiggy_core.store import ChatStore

ROOT = Path(__file__).resolve().parents[2]
HOME = AddressItem(address_id="a-1", label="Home", address="12 MG Road")
WEATHER = ServerConfig("weather", "http", url="http://127.0.0.1:9/mcp", pages=("food",))


@pytest.fixture
def app(tmp_path: Path) -> Iterator[ShopApp]:
    store = ChatStore(f"sqlite:///{tmp_path / 'chats.db'}")
    shop = ShopApp(
        settings=load_settings({}, {"ANTHROPIC_API_KEY": "sk-test", "SWIGGY_SANDBOX": "0"}),
        backend="swiggy",
        store=store,
        sandbox=None,
        server_file=ServerConfigSet(servers={"weather": WEATHER}, problems=[], source="test"),
        health=HealthService.start(poll=False),
    )
    yield shop
    store.close()


def visitor(**changes: str) -> Visitor:
    values = {"person_id": "b-1", "backend": "swiggy", "model": "claude-haiku-4-5"}
    return Visitor(**{**values, "api_key": "sk-test", "swiggy_token": "tok-1", **changes})


def test_the_turn_setup_is_built_once_per_visit_not_per_rerun(app: ShopApp) -> None:
    visit = app.visit(visitor())
    first = visit.session("food", None, HOME)
    again = visit.session("food", None, HOME)  # the next rerun
    assert again.setup is first.setup
    assert [s.config.key for s in first.setup.extra_servers] == ["weather"]
    assert first.setup.swiggy_token == "tok-1" and first.setup.address == HOME
    # A new address, or a change to the person's own servers, builds it again.
    elsewhere = AddressItem(address_id="a-2", label="Work", address="1 Residency Rd")
    assert visit.session("food", None, elsewhere).setup is not first.setup
    visit.forget_own_servers()
    assert visit.session("food", None, HOME).setup is not first.setup


def test_a_server_the_person_adds_or_removes_changes_the_next_turns_tools(
    app: ShopApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ALLOW_PRIVATE_SERVERS_ENV, "true")  # a loopback server of one's own
    visit = app.visit(visitor())
    visit.session("food", None, HOME)  # the setup is built and kept
    notes = ServerConfig("notes", "http", url="http://127.0.0.1:8/mcp", pages=("food",))
    visit.save_own_server(notes)
    offered = visit.session("food", None, HOME).setup.extra_servers
    assert [server.config.key for server in offered] == ["weather", "notes"]
    visit.set_own_server_enabled("notes", False)
    assert not visit.servers()["notes"].enabled
    visit.remove_own_server("notes")
    offered = visit.session("food", None, HOME).setup.extra_servers
    assert [server.config.key for server in offered] == ["weather"]


def test_building_the_setup_has_the_poller_watch_the_apps_servers(app: ShopApp) -> None:
    app.visit(visitor()).session("food", None, HOME)
    watched = [config.key for config in app.health.watched.configs()]
    assert "swiggy/weather" in watched


def chat_with_a_message(app: ShopApp, user_id: str, text: str = "milk") -> str:
    conversation_id = app.store.create_conversation(user_id, "food")
    app.store.append_messages(conversation_id, [typed_message(text)])
    return conversation_id


def test_a_session_opens_the_newest_chat_of_its_person_and_shop(app: ShopApp) -> None:
    person = visitor()
    chat_with_a_message(app, person.user_id)
    newer = chat_with_a_message(app, person.user_id, "eggs")
    chat_with_a_message(app, "someone-else@swiggy")
    session = app.visit(person).session("food", None, HOME)
    assert session.conversation_id == newer == app.chats.newest(person.user_id, "food")
    assert session.history()[0].text() == "eggs"


def test_deleting_chats_keeps_one_that_is_still_replying(app: ShopApp) -> None:
    user = visitor().user_id
    busy, idle = chat_with_a_message(app, user), chat_with_a_message(app, user)
    chats = type(app.chats)(app.store, replying=lambda chat_id: chat_id == busy)
    outcome = chats.delete(user, "food", None)
    assert outcome.deleted == (idle,)
    assert outcome.kept == outcome.replying == (busy,)
    assert [chat.id for chat in chats.listed(user, "food")] == [busy]


def test_the_visitors_secrets_never_show_in_a_repr(app: ShopApp) -> None:
    person = visitor(api_key="sk-secret-1", swiggy_token="tok-secret-2", sandbox_signin="s-3")
    shown = repr(app.visit(person)) + repr(person)
    assert not any(secret in shown for secret in ("sk-secret-1", "tok-secret-2", "s-3"))


def _imports(path: Path) -> Iterator[str]:
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module


def test_the_ui_imports_no_sandbox_module() -> None:
    ui_files = [*ROOT.joinpath("swiggy_ui").rglob("*.py"), ROOT / "app.py"]
    ui_files += ROOT.joinpath("app_pages").glob("*.py")
    found = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in ui_files
        for name in _imports(path)
        if name.split(".")[0] == "swiggy_sandbox"
    ]
    assert found == []
