"""A sign-in started on one app replica is finished on another: the callback tab may land
on either, so what the app noted at the start lives in the shared Redis."""

from __future__ import annotations

from collections.abc import Callable

from swiggy_core.shared_state import MemoryState, RedisState
from swiggy_ui.signin_state import SignIns, StartedSignIn

STATE = "st-0123456789abcdef"


def test_the_other_replica_knows_the_world_urls_and_remember_me(
    open_redis_state: Callable[..., RedisState],
) -> None:
    first, second = SignIns(_state=open_redis_state()), SignIns(_state=open_redis_state())
    started = StartedSignIn("sandbox", {"food": "http://127.0.0.1:9/food"}, True, 1_800_000_000.0)
    first.note_started(STATE, started)
    assert second.started(STATE) == started
    assert second.started("some-other-state") is None
    assert all(STATE not in key for key in open_redis_state().keys(""))  # only its digest


def test_without_redis_each_replica_knows_only_its_own() -> None:
    first, second = SignIns(_state=MemoryState()), SignIns(_state=MemoryState())
    first.note_started(STATE, StartedSignIn("swiggy", {}, False, 1_800_000_000.0))
    assert first.started(STATE) is not None and second.started(STATE) is None
