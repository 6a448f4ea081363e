"""The health board on the in-memory state: one probe per server per 10 s whoever asks,
statuses shared between boards, coded errors kept, and the background poller."""

from __future__ import annotations

import logging
import threading
from types import SimpleNamespace
from typing import Any

import pytest
from closed_port import closed_port
from hand_clock import HandClock

from swiggy_core.mcp.config import ServerConfig
from swiggy_core.mcp.health import HealthBoard, ServerStatus
from swiggy_core.mcp.manager import ServerHealth
from swiggy_core.shared_state import MemoryState, RedisState

FOOD = ServerConfig("food", "http", url="http://127.0.0.1:9/food")
NOTES = ServerConfig("notes", "stdio", command="python", args=("-m", "notes_server"))
OFF = ServerConfig("old", "http", url="http://127.0.0.1:9/old", enabled=False)


class CountingProbe:
    """Answers healthy with 5 tools, unless told otherwise; counts who it probed."""

    def __init__(self, answer: Any = None) -> None:
        self.answer = answer or ServerHealth(ok=True, tool_count=5, latency_ms=12.5)
        self.probed: list[str] = []
        self._lock = threading.Lock()

    def __call__(self, config: ServerConfig) -> Any:
        with self._lock:
            self.probed.append(config.key)
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


def boards(probe: CountingProbe) -> tuple[HealthBoard, HealthBoard, HandClock]:
    """Two boards (two replicas) over one state, on one clock."""
    clock = HandClock(1_800_000_000.0)
    state = MemoryState(clock=clock)
    return HealthBoard(state, probe, clock=clock), HealthBoard(state, probe, clock=clock), clock


def test_a_check_probes_each_server_and_keeps_its_status() -> None:
    probe = CountingProbe()
    board, _other, clock = boards(probe)
    assert board.status("food") is None

    found = board.check([FOOD, NOTES])

    assert probe.probed == ["food", "notes"]
    expected = ServerStatus("food", True, 5, 12.5, None, None, clock())
    assert found["food"] == expected == board.status("food")
    assert board.statuses(["food", "notes", "nobody"]) == {
        "food": expected,
        "notes": ServerStatus("notes", True, 5, 12.5, None, None, clock()),
    }
    assert ServerStatus.from_json(expected.to_json()) == expected


def test_one_probe_per_server_per_interval_whoever_asks() -> None:
    probe = CountingProbe()
    here, there, clock = boards(probe)
    here.check([FOOD])
    clock.advance(9.9)
    there.check([FOOD])
    there.check([FOOD], force=True)  # Refresh: still not within the floor
    here.check([FOOD], force=True)
    assert probe.probed == ["food"]
    assert there.status("food") == here.status("food")

    clock.advance(0.1)
    status = there.check([FOOD])["food"]
    assert probe.probed == ["food", "food"]
    assert status.checked_at == clock() and here.status("food") == status


def test_refresh_probes_a_fresh_status_once_the_floor_has_passed() -> None:
    clock = HandClock(1_800_000_000.0)

    class SlowProbe(CountingProbe):
        def __call__(self, config: ServerConfig) -> Any:
            clock.advance(4)  # the probe itself takes 4 s: the status is written at +4
            return super().__call__(config)

    probe = SlowProbe()
    board = HealthBoard(MemoryState(clock=clock), probe, clock=clock)
    board.check([FOOD])
    clock.advance(7)  # 11 s since the probe began, 7 s since its status
    board.check([FOOD])
    assert probe.probed == ["food"]  # the status is fresh enough for a plain check
    board.check([FOOD], force=True)
    assert probe.probed == ["food", "food"]


def test_refresh_while_another_probes_waits_for_that_answer() -> None:
    """The poller (or another replica) is probing when the person presses Refresh: they get
    its answer, not "unknown", and the server is still probed once."""
    entered, release = threading.Event(), threading.Event()

    class HeldProbe(CountingProbe):
        def __call__(self, config: ServerConfig) -> Any:
            entered.set()
            assert release.wait(10)
            return super().__call__(config)

    probe = HeldProbe()
    state = MemoryState()
    poller, page = HealthBoard(state, probe), HealthBoard(state, probe, refresh_wait=10)
    background = threading.Thread(target=poller.check, args=([FOOD],))
    background.start()
    assert entered.wait(10)
    threading.Timer(0.5, release.set).start()  # the poller's probe answers half a second on
    refreshed = page.check([FOOD], force=True)["food"]
    background.join(10)
    assert refreshed.ok is True and refreshed.tool_count == 5
    assert refreshed == poller.status("food") and probe.probed == ["food"]


def test_refresh_gives_up_waiting_with_what_it_knows() -> None:
    entered, release = threading.Event(), threading.Event()

    class StuckProbe(CountingProbe):
        def __call__(self, config: ServerConfig) -> Any:
            entered.set()
            release.wait(10)
            return super().__call__(config)

    state = MemoryState()
    poller = HealthBoard(state, StuckProbe())
    page = HealthBoard(state, StuckProbe(), refresh_wait=0.5)
    background = threading.Thread(target=poller.check, args=([FOOD],))
    background.start()
    try:
        assert entered.wait(10)
        assert page.check([FOOD], force=True) == {"food": ServerStatus("food", None)}
    finally:
        release.set()
        background.join(10)


def test_a_failing_server_keeps_its_coded_error_without_secrets() -> None:
    down = SimpleNamespace(
        ok=False,
        tool_count=0,
        latency_ms=0.0,
        error="[E-3202] Could not reach food: Authorization: Bearer abcdefghijklmnop",
        code="E-3202",
    )
    board, _other, _clock = boards(CountingProbe(down))
    status = board.check([FOOD])["food"]
    assert status.ok is False and status.error_code == "E-3202"
    assert status.error is not None and status.error.startswith("[E-3202] Could not reach food")
    assert "abcdefghijklmnop" not in status.error
    assert "abcdefghijklmnop" not in (board.status("food") or status).to_json()


def test_a_probe_that_raises_is_reported_as_a_failed_check(
    caplog: pytest.LogCaptureFixture,
) -> None:
    board, _other, _clock = boards(CountingProbe(RuntimeError("token=abcdefghijklmnop broke")))
    with caplog.at_level(logging.WARNING):
        status = board.check([FOOD])["food"]
    assert status.ok is False and status.error_code == "E-4001"
    assert "Health probe of food raised" in caplog.text
    assert "abcdefghijklmnop" not in caplog.text


def test_a_disabled_server_is_never_probed() -> None:
    probe = CountingProbe()
    board, _other, _clock = boards(probe)
    status = board.check([OFF, FOOD])["old"]
    assert probe.probed == ["food"]
    assert status.ok is None and status.error_code == "E-3206"


def test_a_status_that_is_not_one_reads_as_unknown_and_is_probed_again() -> None:
    probe = CountingProbe()
    state = MemoryState()
    state.set("health:food", "<html>")
    board = HealthBoard(state, probe)
    assert board.status("food") is None
    assert board.check([FOOD])["food"].ok is True
    with pytest.raises(ValueError):
        ServerStatus.from_json('["food"]')


def test_the_poller_checks_in_the_background_until_stopped() -> None:
    probed_twice = threading.Event()

    class SignallingProbe(CountingProbe):
        def __call__(self, config: ServerConfig) -> Any:
            answer = super().__call__(config)
            if len(self.probed) >= 2:
                probed_twice.set()
            return answer

    probe = SignallingProbe()
    board = HealthBoard(MemoryState(), probe, min_interval=0.05)
    board.start(lambda: [FOOD])
    board.start(lambda: [FOOD])  # already running: no second poller
    try:
        assert probed_twice.wait(60), "the poller did not probe twice"
        assert "polling=True" in repr(board)
    finally:
        board.stop(timeout=60)
    assert "polling=False" in repr(board)
    assert [t for t in threading.enumerate() if t.name == "mcp-health"] == []
    assert set(probe.probed) == {"food"}


def test_an_unreachable_shared_state_is_reported_not_raised(
    caplog: pytest.LogCaptureFixture,
) -> None:
    state = RedisState(f"redis://:health-secret-pw@127.0.0.1:{closed_port()}/0")
    probe = CountingProbe()
    board = HealthBoard(state, probe)
    with caplog.at_level(logging.WARNING):
        assert board.status("food") is None
        status = board.check([FOOD])["food"]
    assert status.ok is None and status.error_code == "E-4101" and probe.probed == []
    assert "Health status of food not read" in caplog.text
    assert "health-secret-pw" not in caplog.text and "health-secret-pw" not in str(status)
    state.close()
