"""RedisStates for the shared-state tests, on the real redis-server that tests/conftest.py
starts for the whole run (`redis_url`, `fresh_redis`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial

import pytest
from closing_factory import closing_factory

from swiggy_core.shared_state import RedisState


@pytest.fixture
def open_redis_state(fresh_redis: str) -> Iterator[Callable[..., RedisState]]:
    """Opens RedisStates on the test's Redis (each its own connection pool, like another
    app process) and closes them all at the end."""
    with closing_factory(partial(RedisState, fresh_redis)) as open_state:
        yield open_state
