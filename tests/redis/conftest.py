"""RedisStates for the shared-state tests, on the real redis-server that tests/conftest.py
starts for the whole run (`redis_url`, `fresh_redis`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from swiggy_core.shared_state import RedisState


@pytest.fixture
def open_redis_state(fresh_redis: str) -> Iterator[Callable[..., RedisState]]:
    """Opens RedisStates on the test's Redis (each its own connection pool, like another
    app process) and closes them all at the end."""
    opened: list[RedisState] = []

    def _open(**options: Any) -> RedisState:
        state = RedisState(fresh_redis, **options)
        opened.append(state)
        return state

    yield _open
    for state in opened:
        state.close()
