"""The sandbox starts on its own thread: once, waited for only by what needs it.

A page draws while it starts (`ready` is False, nothing blocks); `services()` waits for it;
a start that fails says why to whoever waits and is tried again on the next call.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from swiggy_app import ShopApp, Visitor
from swiggy_app import sandbox as sandbox_module
from swiggy_app.sandbox import SandboxStart
from swiggy_app.servers import HealthService
from swiggy_core.mcp.config import ServerConfigSet
from swiggy_core.settings import load_settings
from swiggy_core.store import ChatStore

WAIT = 60.0  # generous: a loaded machine may take seconds to run a thread


class FakeServices:
    """Stands in for SandboxServices: counts stops."""

    def __init__(self) -> None:
        self.stops = 0

    def stop(self) -> None:
        self.stops += 1


class HeldStart:
    """`start_sandbox` that waits to be let go, then succeeds or fails as told."""

    def __init__(self) -> None:
        self.calls = 0
        self.entered = threading.Event()
        self.go = threading.Event()
        self.failures: list[Exception] = []
        self.started: list[FakeServices] = []

    def __call__(self, result_form: str, database_url: str) -> FakeServices:
        self.calls += 1
        self.entered.set()
        assert self.go.wait(WAIT), "the test never let the start go"
        if self.failures:
            raise self.failures.pop(0)
        self.started.append(FakeServices())
        return self.started[-1]


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> HeldStart:
    start = HeldStart()
    monkeypatch.setattr(sandbox_module, "start_sandbox", start)
    return start


def test_it_starts_once_on_its_own_thread_and_waiters_get_it(held: HeldStart) -> None:
    start = SandboxStart("envelope", "sqlite://")
    assert not start.ready and not start.failed
    start.begin()
    start.begin()  # a second page asking meanwhile starts nothing more
    assert held.entered.wait(WAIT)
    assert not start.ready  # begun, not running: a page does not wait for it
    assert not start.wait(0.05)
    got: list[object] = []
    waiter = threading.Thread(target=lambda: got.append(start.services()))
    waiter.start()
    held.go.set()
    waiter.join(WAIT)
    assert got == [held.started[0]] and held.calls == 1
    assert start.ready and start.wait(0) and start.services() is held.started[0]


def test_asking_for_it_before_anyone_began_starts_it(held: HeldStart) -> None:
    start = SandboxStart("envelope", "sqlite://")
    held.go.set()
    assert start.services() is held.started[0]


def test_a_failed_start_tells_the_waiter_and_the_next_call_tries_again(held: HeldStart) -> None:
    start = SandboxStart("envelope", "sqlite://")
    held.failures.append(OSError("no free port"))
    held.go.set()
    with pytest.raises(OSError, match="no free port"):
        start.services()
    assert start.failed and not start.ready
    assert start.services() is held.started[0]  # tried again
    assert held.calls == 2 and not start.failed


def test_stopping_while_it_starts_stops_what_it_started(held: HeldStart) -> None:
    start = SandboxStart("envelope", "sqlite://")
    start.begin()
    assert held.entered.wait(WAIT)
    stopper = threading.Thread(target=start.stop)
    stopper.start()
    held.go.set()
    stopper.join(WAIT)
    assert not stopper.is_alive()
    assert held.started[0].stops == 1 and not start.ready
    with pytest.raises(RuntimeError, match="stopped"):
        start.services()


@pytest.fixture
def sandbox_app(tmp_path: Path, held: HeldStart) -> Iterator[ShopApp]:
    store = ChatStore(f"sqlite:///{tmp_path / 'chats.db'}")
    app = ShopApp(
        settings=load_settings({}, {}),
        backend="sandbox",
        store=store,
        sandbox=SandboxStart("envelope", "sqlite://"),
        server_file=ServerConfigSet(servers={}, problems=[], source="test"),
        health=HealthService.start(poll=False),
    )
    yield app
    held.go.set()
    store.close()


def test_the_app_says_what_it_can_without_waiting_for_the_sandbox(
    sandbox_app: ShopApp, held: HeldStart
) -> None:
    visitor = Visitor(person_id="b-1", backend="sandbox", model="claude-haiku-4-5")
    assert sandbox_app.in_sandbox and sandbox_app.sandbox_starting
    assert not sandbox_app.sandbox_ready
    assert sandbox_app.mode(visitor) == "offline_demo"  # no key: known without the sandbox
    assert held.calls == 0  # nothing above began it
    sandbox_app.start_sandbox()
    assert held.entered.wait(WAIT)
    assert sandbox_app.sandbox_starting and not sandbox_app.sandbox_ready
    held.go.set()
    assert sandbox_app.running_sandbox() is held.started[0]  # what needs it waits for it
    assert sandbox_app.sandbox_ready and not sandbox_app.sandbox_starting
