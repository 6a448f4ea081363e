"""Two app processes sharing one real Redis agree: one rate budget, one health board (with
one probe per server per floor between them) and one set of pending sign-ins.

Each "process" has its own RedisState (its own connection pool) and its own budget, board
or sign-in service, as two Streamlit replicas behind one address would.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx2
import pytest
import redis

from swiggy_core.errors import ErrorCode
from swiggy_core.mcp import McpManager, ServerHealth
from swiggy_core.mcp.budget import RateBudget
from swiggy_core.mcp.config import ServerConfig
from swiggy_core.mcp.health import HealthBoard, ServerStatus
from swiggy_core.oauth import OAuthError, PendingAuthorization, SignInService
from swiggy_core.oauth.pending_redis import RedisPendingStore
from swiggy_core.shared_state import RedisState, person_key
from swiggy_sandbox.auth_server import AuthSettings
from swiggy_sandbox.servers import DEMO_TOKEN, SandboxHttpServer

WINDOW_START = 1_800_000_000.0
CALLBACK = "http://localhost:8501/callback"
WAIT_SECONDS = 60.0


@pytest.fixture(scope="module")
def sandbox() -> Iterator[SandboxHttpServer]:
    with SandboxHttpServer(auth=AuthSettings(auto_approve=True)) as server:
        yield server


@pytest.fixture
def raw(fresh_redis: str) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(fresh_redis, decode_responses=True)
    yield client
    client.close()


class CountingProbe:
    """The app's real health check (the manager listing a server's tools), counted."""

    def __init__(self, manager: McpManager) -> None:
        self.manager = manager
        self.probed: list[str] = []
        self.lock = threading.Lock()

    def __call__(self, config: ServerConfig) -> ServerHealth:
        with self.lock:
            self.probed.append(config.key)
        return self.manager.health(config.url, DEMO_TOKEN)


@pytest.fixture
def probe() -> Iterator[CountingProbe]:
    """The health check through the app's own MCP pool (closed at the end), counted."""
    pool = McpManager(call_timeout=20)
    yield CountingProbe(pool)
    pool.close()


@pytest.fixture
def food(sandbox: SandboxHttpServer) -> ServerConfig:
    """The sandbox's Food server, answering."""
    return ServerConfig("food", "http", url=sandbox.url_for("food"))


def pending(state: str) -> PendingAuthorization:
    return PendingAuthorization(
        state=state,
        user_id="alice@sandbox",
        redirect_uri=CALLBACK,
        code_verifier="verifier-" + "v" * 40,
        server_urls=(("food", "http://127.0.0.1:9/food"),),
        client_id="swiggy-mcp",
        issuer="http://127.0.0.1:9/auth",
        token_endpoint="http://127.0.0.1:9/auth/token",
        created_at=datetime.now(UTC),
    )


def dead_url() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}/food"


# -- rate budget -------------------------------------------------------------------------
def test_two_processes_spend_one_rate_budget(
    open_redis_state: Callable[..., RedisState], raw: redis.Redis
) -> None:
    def clock() -> float:
        return WINDOW_START + 25

    here = RateBudget(open_redis_state(clock=clock), clock=clock)
    there = RateBudget(open_redis_state(clock=clock), clock=clock)
    for index in range(30):
        assert (here if index % 2 else there).take("alice", "food", "update_food_cart") is None
    refusal = "Slow down: 30 changes a minute to swiggy-food is the limit; try again in 35 s."
    assert here.take("alice", "food", "place_food_order") == refusal
    assert there.take("alice", "food", "update_food_cart") == refusal

    for index in range(90):  # reads go on until 120 calls in all
        assert (here if index % 2 else there).take("alice", "food", "search_menu") is None
    assert there.take("alice", "food", "get_food_cart") == (
        "Slow down: 120 calls a minute to swiggy-food is the limit; try again in 35 s."
    )
    assert here.take("bob", "food", "update_food_cart") is None
    assert there.take("alice", "instamart", "update_cart") is None

    bucket = int((WINDOW_START + 25) // 60)
    alice = person_key("alice")
    assert raw.get(f"swiggy:budget:writes:food:{alice}:{bucket}") == "32"  # 30 + 2 refused
    assert raw.get(f"swiggy:budget:calls:food:{alice}:{bucket}") == "121"
    assert 0 < raw.pttl(f"swiggy:budget:calls:food:{alice}:{bucket}") <= 35_000


def test_no_redis_key_names_a_person(
    open_redis_state: Callable[..., RedisState], raw: redis.Redis
) -> None:
    person = "asha.rao@example.com@swiggy"
    state = open_redis_state()
    budget = RateBudget(state)
    assert budget.take(person, "food", "update_food_cart") is None
    RedisPendingStore(state).add(replace(pending("state-of-asha"), user_id=person))
    keys = raw.keys("*")
    assert any(key.startswith("swiggy:budget:") for key in keys)
    assert any(key.startswith("swiggy:oauth-pending:") for key in keys)
    for part in (person, "asha.rao", "example.com"):
        assert all(part not in key for key in keys), (part, keys)


# -- health ------------------------------------------------------------------------------
def test_one_process_probes_and_the_other_reads_its_status(
    open_redis_state: Callable[..., RedisState], probe: CountingProbe, food: ServerConfig
) -> None:
    gone = ServerConfig("gone", "http", url=dead_url())
    here = HealthBoard(open_redis_state(), probe)
    there = HealthBoard(open_redis_state(), probe)

    seen = here.check([food, gone])

    assert probe.probed == ["food", "gone"]
    assert seen["food"].ok is True and seen["food"].tool_count > 3
    assert seen["food"].latency_ms > 0 and seen["food"].error is None
    assert seen["gone"].ok is False and seen["gone"].error
    assert there.statuses(["food", "gone"]) == seen

    # Within the 10 s floor neither process probes again, not even on Refresh.
    assert there.check([food, gone]) == seen
    assert there.check([food, gone], force=True) == seen
    assert here.check([food], force=True) == {"food": seen["food"]}
    assert probe.probed == ["food", "gone"]


def test_while_one_process_probes_the_other_waits_for_its_answer(
    open_redis_state: Callable[..., RedisState],
) -> None:
    entered, release = threading.Event(), threading.Event()
    probed: list[str] = []

    def slow_probe(config: ServerConfig) -> ServerHealth:
        probed.append(config.key)
        entered.set()
        assert release.wait(WAIT_SECONDS)
        return ServerHealth(ok=True, tool_count=7, latency_ms=3.0)

    food = ServerConfig("food", "http", url="http://127.0.0.1:9/food")
    here = HealthBoard(open_redis_state(), slow_probe)
    there = HealthBoard(open_redis_state(), slow_probe)
    answers: dict[str, ServerStatus] = {}
    worker = threading.Thread(target=lambda: answers.update(here.check([food])))
    worker.start()
    try:
        assert entered.wait(WAIT_SECONDS)
        assert there.check([food]) == {"food": ServerStatus("food", None)}  # not known yet
    finally:
        release.set()
        worker.join(WAIT_SECONDS)
    assert probed == ["food"]
    assert answers["food"].tool_count == 7 and there.status("food") == answers["food"]


def test_after_the_floor_either_process_probes_again(
    open_redis_state: Callable[..., RedisState], probe: CountingProbe, food: ServerConfig
) -> None:
    here = HealthBoard(open_redis_state(), probe, min_interval=0.3)
    there = HealthBoard(open_redis_state(), probe, min_interval=0.3)
    first = here.check([food])["food"]

    deadline = time.monotonic() + WAIT_SECONDS
    while len(probe.probed) < 2 and time.monotonic() < deadline:
        latest = there.check([food])["food"]
        time.sleep(0.05)
    assert probe.probed == ["food", "food"]
    assert latest.checked_at > first.checked_at and here.status("food") == latest


def test_the_pollers_of_two_processes_take_turns(
    open_redis_state: Callable[..., RedisState], raw: redis.Redis
) -> None:
    inside, most_inside, probes = [0], [0], [0]
    held: list[int] = []
    lock = threading.Lock()
    done = threading.Event()

    def probe(config: ServerConfig) -> ServerHealth:
        with lock:
            inside[0] += 1
            most_inside[0] = max(most_inside[0], inside[0])
        held.append(raw.pttl("swiggy:health-lock:food"))  # this probe's turn is taken
        with lock:
            inside[0] -= 1
            probes[0] += 1
            if probes[0] >= 3:
                done.set()
        return ServerHealth(ok=True, tool_count=1, latency_ms=1.0)

    food = [ServerConfig("food", "http", url="http://127.0.0.1:9/food")]
    boards = [HealthBoard(open_redis_state(), probe, min_interval=2.0) for _ in range(2)]
    for board in boards:
        board.start(lambda: food)
    try:
        assert done.wait(WAIT_SECONDS)
    finally:
        for board in boards:
            board.stop(WAIT_SECONDS)
    assert most_inside[0] == 1  # never two probes of one server at once
    assert all(0 < left <= 2_000 for left in held), held
    assert ServerStatus.from_json(raw.get("swiggy:health:food") or "").tool_count == 1


# -- pending sign-ins --------------------------------------------------------------------
def test_a_sign_in_started_on_one_process_finishes_once_on_the_other(
    open_redis_state: Callable[..., RedisState],
    raw: redis.Redis,
    sandbox: SandboxHttpServer,
) -> None:
    here = SignInService(pending=RedisPendingStore(open_redis_state()))
    there = SignInService(pending=RedisPendingStore(open_redis_state()))
    servers = {key: sandbox.url_for(key) for key in ("instamart", "food", "dineout")}

    authorize = here.start("alice@sandbox", servers, CALLBACK)
    answer = httpx2.get(authorize)
    assert answer.status_code in (302, 303), answer.text
    params = {k: v[0] for k, v in parse_qs(urlsplit(answer.headers["location"]).query).items()}

    token = there.finish("alice@sandbox", params)
    assert token.access_token and set(token.resources) == set(servers.values())
    with pytest.raises(OAuthError) as replayed:
        here.finish("alice@sandbox", params)
    assert replayed.value.code is ErrorCode.OAUTH_PENDING_USED

    # The OAuth state and the code never name a key; the verifier is not in any key either.
    keys = raw.keys("*")
    assert keys and all(key.startswith("swiggy:oauth-") for key in keys)
    assert all(params["state"] not in key and params["code"] not in key for key in keys)


def test_pending_sign_ins_claimed_once_across_processes(
    open_redis_state: Callable[..., RedisState], raw: redis.Redis
) -> None:
    here, there = RedisPendingStore(open_redis_state()), RedisPendingStore(open_redis_state())
    started = pending("state-xyz")
    here.add(started)
    assert there.get("state-xyz") == started
    [key] = raw.keys("swiggy:oauth-pending:*")
    assert 0 < raw.pttl(key) <= 86_400_000

    go = threading.Barrier(6)
    wins: list[bool] = []

    def claim(store: Any) -> None:
        go.wait()
        wins.append(store.claim("state-xyz"))

    threads = [threading.Thread(target=claim, args=(s,)) for s in (here, there) * 3]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert wins.count(True) == 1
    found = here.get("state-xyz")
    assert found is not None and found.used and found.code_verifier == started.code_verifier
    assert there.claim("nobody-started-this") is False
