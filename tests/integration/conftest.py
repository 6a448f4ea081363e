"""Peers shared by the ChatSession tests: the sandbox shop, the app's MCP pool, a store."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import anthropic
import pytest
from pg_databases import new_database
from session_peers import NOW, Shop, new_shop

from swiggy_core.mcp import McpManager
from swiggy_core.store import ChatStore
from swiggy_sandbox.connector import ScriptedAgentBrain
from swiggy_sandbox.emulator import EmulatorServer, ScriptedBrain
from swiggy_sandbox.servers import RateLimits, SandboxHttpServer


@pytest.fixture(scope="module")
def result_form(request: pytest.FixtureRequest) -> str:
    """How the module's sandbox answers: the envelope, unless a test runs in each form with
    `@pytest.mark.parametrize("result_form", RESULT_FORMS, indirect=True)`."""
    return str(getattr(request, "param", "envelope"))


@pytest.fixture(scope="module")
def shop_server(result_form: str) -> Iterator[SandboxHttpServer]:
    """The sandbox Swiggy over HTTP, with its clock frozen and no rate limit in the way."""
    limits = RateLimits(requests=100_000, writes=100_000)
    with SandboxHttpServer(clock=lambda: NOW, limits=limits, result_form=result_form) as server:
        yield server


@pytest.fixture(scope="module")
def app_mcp(shop_server: SandboxHttpServer) -> Iterator[McpManager]:
    """The app's own MCP client pool (closed before the sandbox stops)."""
    pool = McpManager(call_timeout=20)
    yield pool
    pool.close()


@pytest.fixture
def db_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'chats.db'}"


@pytest.fixture
def store(db_url: str) -> Iterator[ChatStore]:
    chats = ChatStore(db_url)
    yield chats
    chats.close()


@pytest.fixture
def shop(shop_server: SandboxHttpServer, app_mcp: McpManager) -> Shop:
    """A fresh sandbox account with one pack of milk in its cart."""
    account = new_shop(shop_server, app_mcp)
    account.set_cart(account.milk_line())
    return account


@pytest.fixture(scope="module")
def agent_emulator() -> Iterator[EmulatorServer[ScriptedAgentBrain]]:
    """The Messages emulator whose model is a queue of agent steps (connector emulated)."""
    with EmulatorServer(ScriptedAgentBrain()) as server:
        yield server


@pytest.fixture
def emu(agent_emulator: EmulatorServer[ScriptedAgentBrain]) -> Iterator[EmulatorServer[Any]]:
    """The agent emulator, emptied before each test; every queued step must be used."""
    yield _emptied(agent_emulator)
    assert agent_emulator.brain.pending() == 0, "a scripted step was never asked for"


@pytest.fixture(scope="module")
def client(agent_emulator: EmulatorServer[ScriptedAgentBrain]) -> Iterator[anthropic.Anthropic]:
    """The real SDK on the agent emulator, never retrying (a test sees each answer as sent).
    A module whose model is another emulator, or the planner, defines its own `client`."""
    base_url = agent_emulator.base_url
    with anthropic.Anthropic(api_key="sk-test", base_url=base_url, max_retries=0) as sdk:
        yield sdk


@pytest.fixture
def wire_emu(wire_emulator: EmulatorServer[ScriptedBrain]) -> EmulatorServer[ScriptedBrain]:
    """The wire emulator, emptied before each test."""
    return _emptied(wire_emulator)


@pytest.fixture(scope="module")
def wire_emulator() -> Iterator[EmulatorServer[ScriptedBrain]]:
    """The Messages emulator whose model is a queue of whole scripted responses."""
    with EmulatorServer(ScriptedBrain()) as server:
        yield server


@pytest.fixture(scope="module")
def wire_client(wire_emulator: EmulatorServer[ScriptedBrain]) -> Iterator[anthropic.Anthropic]:
    """The real SDK pointed at the wire emulator, without retries."""
    base_url = wire_emulator.base_url
    with anthropic.Anthropic(api_key="sk-test", base_url=base_url, max_retries=0) as sdk:
        yield sdk


def _emptied(emulator: EmulatorServer[Any]) -> EmulatorServer[Any]:
    """The emulator with no scripted answer left and no request remembered."""
    emulator.brain.clear()
    emulator.requests.clear()
    return emulator


@pytest.fixture(params=["sqlite", "postgres"])
def shared_db_url(request: pytest.FixtureRequest, tmp_path) -> Iterator[str]:
    """The session tests that matter most for money, on SQLite and on a real PostgreSQL."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'shared.db'}"
        return
    with new_database(request.getfixturevalue("postgres_url"), "session") as url:
        yield url
