"""A real redis-server for the shared-state tests, started here and stopped at the end.

One server per test session on a free loopback port, with nothing saved to disk; each test
starts from an empty database. Without `redis-server` these tests fail (scripts/test
installs Debian's package): several replicas agreeing through Redis is a feature, and a run
that cannot check it must not pass.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from swiggy_core.shared_state import RedisState

REDIS_START_TIMEOUT_SECONDS = 60.0
REDIS_STOP_TIMEOUT_SECONDS = 30.0


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _wait_for_ping(server: subprocess.Popen[bytes], url: str, log: Path) -> None:
    client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
    deadline = time.monotonic() + REDIS_START_TIMEOUT_SECONDS
    try:
        while True:
            if server.poll() is not None:
                pytest.fail(f"redis-server exited at start: {log.read_text(errors='replace')}")
            try:
                if client.ping():
                    return
            except redis.ConnectionError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(
                    f"redis-server did not answer PING within {REDIS_START_TIMEOUT_SECONDS} s"
                )
            time.sleep(0.05)
    finally:
        client.close()


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """The URL of a real Redis (database 0) that this test session owns."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.fail(
            "redis-server is not installed: install Debian's redis-server package "
            "(scripts/test does) to run the shared-state tests.",
            pytrace=False,
        )
    port = _free_port()
    workdir = Path(tempfile.mkdtemp(prefix="swiggy-redis-"))
    log = workdir / "redis.log"
    command = [binary, "--save", "", "--appendonly", "no", "--port", str(port),
               "--bind", "127.0.0.1", "--dir", str(workdir), "--logfile", str(log)]  # fmt: skip
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    try:
        _wait_for_ping(server, url, log)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(REDIS_STOP_TIMEOUT_SECONDS)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture
def fresh_redis(redis_url: str) -> str:
    """`redis_url`, emptied before the test."""
    client = redis.Redis.from_url(redis_url)
    try:
        client.flushall()
    finally:
        client.close()
    return redis_url


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
