"""Shared state in memory: expiry, set-if-absent, windowed counts, thread safety; choosing
Redis or memory from REDIS_URL; pending sign-ins kept in a shared state."""

from __future__ import annotations

import logging
import threading
import traceback
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from closed_port import closed_port
from hand_clock import HandClock

from swiggy_core.errors import ErrorCode
from swiggy_core.oauth import MemoryPendingStore, PendingAuthorization
from swiggy_core.oauth.pending_redis import RedisPendingStore, pending_store
from swiggy_core.shared_state import (
    MemoryState,
    RedisState,
    SharedStateError,
    reset_shared_state,
    shared_state,
    shared_state_problem,
    window_left,
)

PASSWORD = "hunter2-redis-password"
WINDOW_START = 1_800_000_000.0  # a multiple of 60: a minute begins here


def pending(state: str = "state-abc", *, user: str = "alice@sandbox") -> PendingAuthorization:
    return PendingAuthorization(
        state=state,
        user_id=user,
        redirect_uri="http://localhost:8501/callback",
        code_verifier="verifier-" + "v" * 40,
        server_urls=(("food", "http://127.0.0.1:9/food"), ("im", "http://127.0.0.1:9/im")),
        client_id="swiggy-mcp",
        issuer="http://127.0.0.1:9/auth",
        token_endpoint="http://127.0.0.1:9/auth/token",
        created_at=datetime(2026, 11, 22, 10, 0, tzinfo=UTC),
    )


@pytest.fixture(autouse=True)
def _fresh_choice(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv("REDIS_URL", raising=False)
    reset_shared_state()
    yield
    reset_shared_state()


def test_values_expire_after_their_ttl_and_set_if_absent_wins_once() -> None:
    clock = HandClock(WINDOW_START + 30)
    state = MemoryState(clock=clock)
    state.set("a", "1", ttl=10)
    state.set("forever", "x")
    assert state.set_if_absent("a", "2", ttl=10) is False
    assert state.get("a") == "1"

    clock.advance(10)
    assert state.get("a") is None
    assert state.set_if_absent("a", "2", ttl=5) is True
    assert state.get("a") == "2"
    state.delete("a")
    state.delete("never-there")
    assert state.get("a") is None
    clock.advance(10**9)
    assert state.get("forever") == "x"


def test_keys_lists_live_keys_by_prefix() -> None:
    clock = HandClock(WINDOW_START + 30)
    state = MemoryState(clock=clock)
    state.set("health:food", "{}")
    state.set("health:im", "{}", ttl=1)
    state.set("budget:x", "1")
    assert state.keys("health:") == ["health:food", "health:im"]
    clock.advance(1)
    assert state.keys("health:") == ["health:food"]
    assert state.keys("") == ["budget:x", "health:food"]


def test_hit_counts_within_a_window_and_starts_over_in_the_next() -> None:
    clock = HandClock(WINDOW_START + 30)
    state = MemoryState(clock=clock)
    assert [state.hit("k", 60) for _ in range(3)] == [1, 2, 3]
    assert state.hit("other", 60) == 1
    assert window_left(clock(), 60) == 30
    clock.advance(29.5)
    assert state.hit("k", 60) == 4
    clock.advance(0.5)  # the next minute
    assert state.hit("k", 60) == 1


def test_memory_state_is_safe_across_threads() -> None:
    state = MemoryState()
    counts: list[int] = []
    winners: list[bool] = []
    lock = threading.Lock()
    go = threading.Barrier(8)

    def work() -> None:
        go.wait()
        won = state.set_if_absent("lock", "me", ttl=60)
        mine = [state.hit("hits", 3600) for _ in range(200)]
        with lock:
            winners.append(won)
            counts.extend(mine)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert winners.count(True) == 1
    # Every count handed out once: the hits were never lost or double counted.
    assert sorted(counts)[-1] == 1600 and len(set(counts)) == 1600


def test_without_redis_url_the_state_is_memory() -> None:
    state = shared_state()
    assert isinstance(state, MemoryState)
    assert shared_state() is state
    assert shared_state_problem() is None
    assert isinstance(pending_store(), MemoryPendingStore)


def _fallen_back_to_memory(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, url: str, calls: int
) -> str:
    """`calls` calls of shared_state() with REDIS_URL set to `url` (warnings captured): each
    gave a MemoryState and nothing shows the password; the problem reported."""
    monkeypatch.setenv("REDIS_URL", url)
    with caplog.at_level(logging.WARNING):
        states = [shared_state() for _ in range(calls)]
        problem = shared_state_problem()
    assert all(isinstance(state, MemoryState) for state in states)
    assert problem is not None
    assert PASSWORD not in caplog.text and PASSWORD not in problem
    return problem


def test_a_malformed_redis_url_falls_back_to_memory_with_a_coded_message(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    url = f"mysql://app:{PASSWORD}@db.example/0"
    problem = _fallen_back_to_memory(monkeypatch, caplog, url, calls=2)
    assert problem.startswith("[E-1001] REDIS_URL is set but cannot")
    assert "is not a Redis URL" in problem and "this process only" in problem
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1  # once per process, not per call


def test_an_unreachable_redis_falls_back_and_never_shows_its_password(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    url = f"redis://:{PASSWORD}@127.0.0.1:{closed_port()}/0"
    problem = _fallen_back_to_memory(monkeypatch, caplog, url, calls=1)
    assert "[E-1001]" in problem and "ConnectionError" in problem
    assert "redis://:***@127.0.0.1" in problem
    assert isinstance(pending_store(), MemoryPendingStore)


def test_a_redis_that_fails_later_raises_a_coded_error_without_the_password() -> None:
    state = RedisState(f"redis://user:{PASSWORD}@127.0.0.1:{closed_port()}/0")
    with pytest.raises(SharedStateError) as caught:
        state.get("anything")
    assert caught.value.code is ErrorCode.STORE_FAILED
    shown = "".join(traceback.format_exception(caught.value))
    assert "ConnectionError" in shown and PASSWORD not in shown and PASSWORD not in repr(state)
    state.close()


def test_pending_sign_ins_in_a_shared_state_are_claimed_once() -> None:
    clock = HandClock(WINDOW_START + 30)
    shared = MemoryState(clock=clock)
    here, there = RedisPendingStore(shared), RedisPendingStore(shared)
    started = pending()
    here.add(started)

    assert there.get("state-abc") == started
    assert there.get("unknown") is None and there.claim("unknown") is False
    assert there.claim("state-abc") is True
    assert here.claim("state-abc") is False
    found = here.get("state-abc")
    assert found is not None and found.used is True
    assert found.code_verifier == started.code_verifier

    # The key names hold a digest, never the state or the verifier; reprs show neither.
    assert all("state-abc" not in key and "verifier" not in key for key in shared.keys(""))
    assert started.code_verifier not in repr(here) and started.code_verifier not in repr(found)

    clock.advance(timedelta(days=1).total_seconds())
    assert here.get("state-abc") is None


def test_a_pending_entry_that_is_not_ours_reads_as_unknown() -> None:
    shared = MemoryState()
    store = RedisPendingStore(shared)
    store.add(pending())
    [key] = shared.keys("oauth-pending:")
    shared.set(key, "{not json")
    assert store.get("state-abc") is None
