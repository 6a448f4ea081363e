"""RedisState against a real redis-server: values with expiry, set-if-absent, windowed
counts, the `swiggy:` prefix, and choosing it (or not) from REDIS_URL."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from urllib.parse import urlsplit

import pytest
import redis

from swiggy_core.oauth.pending_redis import RedisPendingStore, pending_store
from swiggy_core.shared_state import (
    MemoryState,
    RedisState,
    reset_shared_state,
    shared_state,
    shared_state_problem,
)
from swiggy_ui.signin_state import SignIns

WINDOW_START = 1_800_000_000.0
PASSWORD = "not-the-redis-password-42"


@pytest.fixture
def raw(fresh_redis: str) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(fresh_redis, decode_responses=True)
    yield client
    client.close()


@pytest.fixture
def _fresh_choice(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    reset_shared_state()
    yield
    reset_shared_state()


def test_values_live_under_the_swiggy_prefix_with_their_ttl(
    open_redis_state: Callable[..., RedisState], raw: redis.Redis
) -> None:
    state = open_redis_state()
    state.set("health:food", '{"ok":true}', ttl=30)
    state.set("forever", "x")
    assert state.get("health:food") == '{"ok":true}'
    assert state.get("missing") is None
    assert sorted(raw.keys("*")) == ["swiggy:forever", "swiggy:health:food"]
    assert 0 < raw.pttl("swiggy:health:food") <= 30_000
    assert raw.pttl("swiggy:forever") == -1

    state.delete("forever")
    state.delete("never-there")
    assert state.get("forever") is None
    raw.set("someone-else", "1")  # keys outside the prefix are not ours
    assert state.keys("") == ["health:food"]
    assert state.keys("health:") == ["health:food"] and state.keys("budget:") == []


def test_keys_treats_glob_characters_in_the_prefix_literally(
    open_redis_state: Callable[..., RedisState],
) -> None:
    state = open_redis_state()
    state.set("a*b:1", "1")
    state.set("axb:1", "1")
    assert state.keys("a*b:") == ["a*b:1"]


def test_set_if_absent_has_exactly_one_winner_across_processes(
    open_redis_state: Callable[..., RedisState], raw: redis.Redis
) -> None:
    states = [open_redis_state(), open_redis_state()]
    go = threading.Barrier(8)
    wins: list[bool] = []
    lock = threading.Lock()

    def contend(index: int) -> None:
        go.wait()
        won = states[index % 2].set_if_absent("health-lock:food", str(index), ttl=10)
        with lock:
            wins.append(won)

    threads = [threading.Thread(target=contend, args=(index,)) for index in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert wins.count(True) == 1
    assert 0 < raw.pttl("swiggy:health-lock:food") <= 10_000


def test_hits_are_counted_together_and_expire_with_their_window(
    open_redis_state: Callable[..., RedisState], raw: redis.Redis
) -> None:
    now = [WINDOW_START + 45]
    here = open_redis_state(clock=lambda: now[0])
    there = open_redis_state(clock=lambda: now[0])
    counts = [here.hit("budget:x", 60), there.hit("budget:x", 60), here.hit("budget:x", 60)]
    assert counts == [1, 2, 3]
    [counter] = raw.keys("swiggy:budget:x:*")
    assert 0 < raw.pttl(counter) <= 15_000  # gone when its minute is over
    now[0] += 15
    assert there.hit("budget:x", 60) == 1


def test_a_working_redis_url_is_chosen_and_pending_sign_ins_go_there(
    monkeypatch: pytest.MonkeyPatch, fresh_redis: str, _fresh_choice: None
) -> None:
    monkeypatch.setenv("REDIS_URL", fresh_redis)
    state = shared_state()
    assert isinstance(state, RedisState) and shared_state() is state
    assert shared_state_problem() is None
    assert isinstance(pending_store(), RedisPendingStore)
    # The app's sign-in registry keeps its pending sign-ins there too.
    assert "pending=RedisPendingStore(state=RedisState(redis://127.0.0.1:" in repr(
        SignIns().service
    )


def test_a_wrong_password_falls_back_to_memory_and_is_never_logged(
    monkeypatch: pytest.MonkeyPatch,
    fresh_redis: str,
    caplog: pytest.LogCaptureFixture,
    _fresh_choice: None,
) -> None:
    # The test server has no password: AUTH with one is refused, as a wrong one would be.
    port = urlsplit(fresh_redis).port
    monkeypatch.setenv("REDIS_URL", f"redis://app:{PASSWORD}@127.0.0.1:{port}/0")
    with caplog.at_level(logging.DEBUG):
        state = shared_state()
        problem = shared_state_problem()
    assert isinstance(state, MemoryState)
    assert problem is not None and problem.startswith("[E-1001] REDIS_URL is set but cannot")
    assert f"redis://app:***@127.0.0.1:{port}/0" in problem
    assert PASSWORD not in problem and PASSWORD not in caplog.text
    assert [r.levelname for r in caplog.records if r.name == "swiggy_core.shared_state"] == [
        "WARNING"
    ]
