"""Shared fixtures: a real PostgreSQL server and a real Redis for the tests that need them,
and (for every test) no connection off this machine (`loopback_guard`). The Hypothesis
profile is chosen here, before any test module is imported (see `hypothesis_profiles`).

`postgres_url` starts a throw-away cluster once per test session (initdb in a temporary
directory, trust authentication, loopback only, a free port) and stops it at the end.
Set SWIGGY_TEST_POSTGRES_URL to use an existing server instead. When PostgreSQL cannot be
started the PostgreSQL tests are skipped with the reason, except on CI (CI=true), where
they fail: a CI run must never pass without them.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest
import redis
from apptest_speed import scan_manifests_once
from file_order import dealt_by_folder
from hypothesis import settings
from hypothesis_profiles import chosen_profile, register_profiles
from loopback_guard import only_loopback  # noqa: F401 - an autouse fixture for every test

register_profiles()
settings.load_profile(chosen_profile(os.environ))
scan_manifests_once()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items[:] = dealt_by_folder(items)  # scripts/test hands whole files out in this order


POSTGRES_URL_ENV = "SWIGGY_TEST_POSTGRES_URL"
POSTGRES_SYSTEM_USER = "postgres"
POSTGRES_DATABASE = "swiggy_test"
PG_COMMAND_TIMEOUT_SECONDS = 120
PG_START_ATTEMPTS = 3


class PostgresUnavailable(Exception):
    """PostgreSQL could not be started here; the message says why."""


@dataclass
class PostgresServer:
    """A cluster this test session owns; `stop` removes every trace of it."""

    bin_dir: Path
    root: Path
    port: int
    run_as: list[str]

    @property
    def data_dir(self) -> Path:
        return self.root / "data"

    def url(self, database: str = POSTGRES_DATABASE) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def stop(self) -> None:
        _run(self.run_as, self.bin_dir / "pg_ctl", "-D", self.data_dir, "-m", "fast", "stop")
        shutil.rmtree(self.root, ignore_errors=True)


def _postgres_bin_dir() -> Path:
    on_path = shutil.which("initdb")
    if on_path:
        found = Path(on_path).resolve().parent
        if (found / "pg_ctl").exists():
            return found
    # Debian keeps the server binaries off PATH, one directory per major version.
    candidates = glob.glob("/usr/lib/postgresql/*/bin/initdb")
    if not candidates:
        raise PostgresUnavailable(
            "initdb was not found (install Debian's 'postgresql' package; scripts/test does)"
        )
    newest = max(candidates, key=lambda path: int(Path(path).parts[-3]))
    return Path(newest).parent


def _run_as() -> list[str]:
    """Postgres refuses to run as root: as root, run its commands as the postgres user."""
    if os.geteuid() != 0:
        return []
    try:
        pwd.getpwnam(POSTGRES_SYSTEM_USER)
    except KeyError as error:
        raise PostgresUnavailable("running as root and there is no 'postgres' user") from error
    runuser = shutil.which("runuser")
    if runuser is None:
        raise PostgresUnavailable("running as root and 'runuser' is not installed")
    return [runuser, "-u", POSTGRES_SYSTEM_USER, "--"]


def _run(run_as: list[str], *command: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*run_as, *map(str, command)],
        capture_output=True,
        text=True,
        timeout=PG_COMMAND_TIMEOUT_SECONDS,
        check=False,
    )


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_postgres() -> PostgresServer:
    bin_dir = _postgres_bin_dir()
    run_as = _run_as()
    # The postgres user must reach the directory: as root, avoid a private TMPDIR.
    parent = "/tmp" if run_as and os.path.isdir("/tmp") else None
    root = Path(tempfile.mkdtemp(prefix="swiggy-pg-", dir=parent))
    try:
        if run_as:
            account = pwd.getpwnam(POSTGRES_SYSTEM_USER)
            os.chown(root, account.pw_uid, account.pw_gid)
        server = PostgresServer(bin_dir, root, 0, run_as)
        initdb = _run(
            run_as, bin_dir / "initdb", "-D", server.data_dir, "-A", "trust", "-U", "postgres",
            "-E", "UTF8", "--locale=C", "--no-sync",
        )  # fmt: skip
        if initdb.returncode != 0:
            raise PostgresUnavailable(f"initdb failed: {initdb.stderr.strip()[-500:]}")
        _start_on_a_free_port(server)
        with psycopg.connect(server.url("postgres").replace("+psycopg", ""), autocommit=True) as c:
            c.execute(f"CREATE DATABASE {POSTGRES_DATABASE}")
        return server
    except BaseException:
        shutil.rmtree(root, ignore_errors=True)
        raise


def _start_on_a_free_port(server: PostgresServer) -> None:
    # Durability is pointless for a throw-away cluster; skipping fsync keeps tests quick.
    reason = ""
    for _attempt in range(PG_START_ATTEMPTS):
        server.port = _free_port()
        options = (
            f"-h 127.0.0.1 -p {server.port} -k {server.root} "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        )
        started = _run(
            server.run_as, server.bin_dir / "pg_ctl", "-D", server.data_dir,
            "-l", server.root / "server.log", "-o", options, "-w", "-t", "60", "start",
        )  # fmt: skip
        if started.returncode == 0:
            return
        log = server.root / "server.log"
        tail = log.read_text(errors="replace")[-500:] if log.exists() else ""
        reason = f"pg_ctl start failed: {started.stderr.strip()[-300:]} {tail}".strip()
    raise PostgresUnavailable(reason)


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """The URL of a real, empty-at-start PostgreSQL database (psycopg 3 driver)."""
    override = os.environ.get(POSTGRES_URL_ENV)
    if override:
        yield override
        return
    try:
        server = start_postgres()
    except (PostgresUnavailable, OSError, subprocess.SubprocessError, psycopg.Error) as error:
        reason = f"PostgreSQL could not be started: {error}"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{reason} (CI=true: PostgreSQL tests must run)", pytrace=False)
        pytest.skip(
            f"SKIPPING ALL POSTGRESQL TESTS: {reason}. Install PostgreSQL or set "
            f"{POSTGRES_URL_ENV}."
        )
    try:
        yield server.url()
    finally:
        server.stop()


# -- a real redis-server ---------------------------------------------------------------
# One server per test session on a free loopback port, with nothing saved to disk; each test
# starts from an empty database. Without `redis-server` these tests fail (scripts/test
# installs Debian's package): several replicas agreeing through Redis is a feature, and a
# run that cannot check it must not pass.
REDIS_START_TIMEOUT_SECONDS = 60.0
REDIS_STOP_TIMEOUT_SECONDS = 30.0


def _free_redis_port() -> int:
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
    port = _free_redis_port()
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
