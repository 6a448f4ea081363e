"""Replicas of the app on one database: the app starts its sandbox on the app's database,
and two real `python -m swiggy_sandbox serve --db URL` processes serve one shop."""

from __future__ import annotations

import json
import logging
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from session_peers import ADDRESS, NOW
from test_sandbox_shared_shop import run_at_once

from swiggy_app import sandbox as app_sandbox
from swiggy_core.mcp import McpManager
from swiggy_sandbox.runtime import SandboxServices
from swiggy_sandbox.servers import DEMO_TOKEN

ROOT = Path(__file__).resolve().parents[2]
MCP_LINE = re.compile(r"^MCP .*: (http://127\.0\.0\.1:\d+/(\w+))$")
READY_SECONDS = 60.0
ROUNDS = 3  # carts checked out, each by both processes at once
CONTENDERS = 4

Urls = dict[str, str]  # URL path ("im", "food", "dineout") → the server's URL


def envelope(mcp: McpManager, url: str, token: str, tool: str, **arguments: Any) -> Any:
    return json.loads(mcp.call_tool(url, token, tool, arguments).envelope_text())


def data(mcp: McpManager, url: str, token: str, tool: str, **arguments: Any) -> Any:
    answer = envelope(mcp, url, token, tool, **arguments)
    assert answer["success"] is True, (tool, answer)
    return answer["data"]


def fill_cart(mcp: McpManager, url: str, token: str) -> None:
    found = data(mcp, url, token, "search_products", addressId=ADDRESS, query="milk")
    items = [{"spinId": found["products"][0]["variations"][0]["spinId"], "quantity": 1}]
    data(mcp, url, token, "update_cart", selectedAddressId=ADDRESS, items=items)


@pytest.fixture
def frozen_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Shops open at any hour the tests run (the app's sandbox reads its clock from here)."""
    monkeypatch.setenv("SWIGGY_SANDBOX_NOW", NOW.isoformat())


@pytest.fixture
def app_sandboxes() -> Iterator[Callable[[str], SandboxServices]]:
    """The app's own `_sandbox`, each call as in a fresh process (nothing cached)."""
    started: list[SandboxServices] = []

    def start(database_url: str) -> SandboxServices:
        # Not the UI's cache: clearing the cache would stop the earlier replica.
        sandbox = app_sandbox.start_sandbox("envelope", database_url)
        started.append(sandbox)
        return sandbox

    yield start
    for sandbox in started:
        sandbox.stop()


def test_each_app_replica_keeps_its_sandbox_shop_in_the_app_database(
    shared_db_url: str, frozen_clock: None, app_sandboxes: Callable[[str], SandboxServices]
) -> None:
    first, second = app_sandboxes(shared_db_url), app_sandboxes(shared_db_url)
    assert first is not second
    person = "browser-1234@sandbox"  # the app's user id, the same on every replica
    mcp = McpManager(call_timeout=60)
    try:
        fill_cart(mcp, first.server_urls["instamart"], first.token_for(person))
        cart = data(mcp, second.server_urls["instamart"], second.token_for(person), "get_cart")
        assert len(cart["items"]) == 1
    finally:
        mcp.close()


def test_a_database_that_refuses_the_shop_still_gives_a_working_demo(
    tmp_path: Path,
    frozen_clock: None,
    app_sandboxes: Callable[[str], SandboxServices],
    caplog: pytest.LogCaptureFixture,
) -> None:
    unreachable = f"sqlite:///{tmp_path / 'no-such-folder' / 'app.db'}"
    with caplog.at_level(logging.WARNING, logger=app_sandbox.__name__):
        sandbox = app_sandboxes(unreachable)
    assert "in this process only" in caplog.text
    mcp = McpManager(call_timeout=60)
    try:
        fill_cart(mcp, sandbox.server_urls["instamart"], sandbox.token_for("someone@sandbox"))
    finally:
        mcp.close()


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[[str], list[Urls]]]:
    """Starts `serve --db URL` processes side by side; stops them with SIGTERM."""
    processes: list[subprocess.Popen[bytes]] = []

    def start_together(database_url: str, count: int = 2) -> list[Urls]:
        logs = [tmp_path / f"serve-{len(processes) + n}.log" for n in range(count)]
        env = {**os.environ, "SWIGGY_SANDBOX_NOW": NOW.isoformat()}
        for log in logs:  # all started before any is ready: they create the tables at once
            with log.open("wb") as out:
                command = [sys.executable, "-m", "swiggy_sandbox", "serve", "--db", database_url]
                processes.append(
                    subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=out)
                )
        started = zip(logs, processes[-count:], strict=True)
        return [_urls_when_ready(log, process) for log, process in started]

    yield start_together
    for process in processes:
        process.send_signal(signal.SIGTERM)
    for process in processes:
        try:
            assert process.wait(timeout=20) == 0
        finally:
            if process.poll() is None:
                process.kill()


def _urls_when_ready(log: Path, process: subprocess.Popen[bytes]) -> Urls:
    deadline = time.monotonic() + READY_SECONDS
    while time.monotonic() < deadline:
        lines = log.read_text(errors="replace").splitlines()
        if "Ready. Press Ctrl-C to stop." in lines:
            found = (MCP_LINE.match(line) for line in lines)
            return {match.group(2): match.group(1) for match in found if match}
        assert process.poll() is None, "\n".join(lines)
        time.sleep(0.1)
    raise AssertionError(f"serve was not ready in {READY_SECONDS}s: {log.read_text()}")


def test_two_serve_processes_on_one_database_place_one_order_per_cart(
    shared_db_url: str, serve: Callable[[str], list[Urls]]
) -> None:
    first, second = serve(shared_db_url)
    # The demo token is valid in both processes and names the same person in each.
    mcp = McpManager(call_timeout=60)
    try:
        for _ in range(ROUNDS):
            fill_cart(mcp, first["im"], DEMO_TOKEN)
            seen = data(mcp, second["im"], DEMO_TOKEN, "get_cart")
            assert len(seen["items"]) == 1

            def checkout(index: int) -> Any:
                url = (first, second)[index % 2]["im"]
                return envelope(mcp, url, DEMO_TOKEN, "checkout", addressId=ADDRESS)

            results = run_at_once(CONTENDERS, checkout)
            assert sum(result["success"] is True for result in results) == 1, results
        orders = data(mcp, second["im"], DEMO_TOKEN, "get_orders")["orders"]
        assert len({order["orderId"] for order in orders}) == ROUNDS
    finally:
        mcp.close()
