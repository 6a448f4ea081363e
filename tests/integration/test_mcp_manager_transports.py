"""McpManager over every transport against real peers: the sandbox over Streamable HTTP, SSE
and stdio, tiny local servers that sleep or print junk, and servers that are not there."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp import types
from mcp.server.mcpserver import MCPServer
from mcp.shared.exceptions import MCPError

from swiggy_core.errors import ErrorCode
from swiggy_core.mcp import McpCallError, McpManager
from swiggy_core.mcp.config import ResolvedServer, ServerConfig
from swiggy_core.mcp.transports import MemoryServer
from swiggy_sandbox.servers import DEMO_TOKEN, SandboxHttpServer

ALICE, BOB = "alice-token-0123456789", "bob-token-9876543210"
HOME = "addr_home_indiranagar"
SLOW_SERVER = """
import anyio
from mcp import types
from mcp.server.mcpserver import MCPServer
from mcp.shared.exceptions import MCPError

server = MCPServer("slow")


@server.tool()
async def nap(seconds: float) -> str:
    await anyio.sleep(seconds)
    return "rested"


@server.tool()
def ping() -> str:
    return "pong"


server.run()
"""
# Its one tool records that it ran, then the process dies before answering.
DYING_SERVER = """
import os
import sys
from mcp.server.mcpserver import MCPServer

server = MCPServer("dying")


@server.tool()
def place_order() -> str:
    with open(sys.argv[1], "a") as log:
        log.write("ran\\n")
    os._exit(1)


server.run()
"""
# Lingers after its client goes away: only a client that stops it (SIGTERM) ends it early.
LINGERING_SERVER = """
import time
from mcp.server.mcpserver import MCPServer

server = MCPServer("lingering")


@server.tool()
def ping() -> str:
    return "pong"


server.run()
time.sleep(120)
"""
EXITING_APP = """
import sys
from swiggy_core.mcp import shared_manager
from swiggy_core.mcp.config import ServerConfig

args = (sys.argv[1],)
config = ServerConfig(key="lingering", transport="stdio", command=sys.executable, args=args)
print(shared_manager().call_tool(config, None, "ping", {}).text, flush=True)
"""
JUNK_SERVER = """
import sys

print("Starting the best server v1.0 ...", flush=True)
for line in sys.stdin:  # never answers in JSON-RPC
    print("<html><body>hello</body></html>", flush=True)
"""


@pytest.fixture(scope="module")
def sandbox() -> Iterator[SandboxHttpServer]:
    with SandboxHttpServer() as server:
        server.store.issue("alice", ALICE)
        server.store.issue("bob", BOB)
        yield server


@pytest.fixture
def manager() -> Iterator[McpManager]:
    pool = McpManager(call_timeout=20)
    yield pool
    pool.close()


def sandbox_stdio(key: str = "instamart") -> ServerConfig:
    args = ("-m", "swiggy_sandbox.servers", key, "--stdio")
    return ServerConfig(key=f"{key}-stdio", transport="stdio", command=sys.executable, args=args)


def script(tmp_path: Path, name: str, text: str) -> ServerConfig:
    path = tmp_path / f"{name}.py"
    path.write_text(text)
    return ServerConfig(key=name, transport="stdio", command=sys.executable, args=(str(path),))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def children() -> set[int]:
    """Our child processes (from /proc: the parent pid is the 4th field of stat)."""
    found: set[int] = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == os.getpid():
            found.add(int(entry))
    return found


def exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def wait_until_gone(pid: int) -> None:
    deadline = time.monotonic() + 30
    while exists(pid):
        assert time.monotonic() < deadline, f"process {pid} is still there"
        time.sleep(0.05)


def coded(error: pytest.ExceptionInfo[McpCallError], code: ErrorCode) -> str:
    assert error.value.code is code, str(error.value)
    return str(error.value)


@pytest.mark.parametrize("transport", ["http", "sse", "stdio"])
def test_list_and_call_the_sandbox_over_each_transport(
    sandbox: SandboxHttpServer, manager: McpManager, transport: str
) -> None:
    if transport == "stdio":
        target: ServerConfig | ResolvedServer = sandbox_stdio()
    else:
        path = "/im" if transport == "http" else "/sse/im"
        url = f"{sandbox.base_url}{path}"
        config = ServerConfig(key=f"im-{transport}", transport=transport, url=url)  # type: ignore[arg-type]
        target = ResolvedServer(config, DEMO_TOKEN)

    tools = manager.list_tools(target)
    addresses = manager.call_tool(target, None, "get_addresses", {})

    assert {"search_products", "update_cart", "get_cart"} <= {tool["name"] for tool in tools}
    assert not addresses.is_error
    assert json.loads(addresses.text)["data"]["addresses"][0]["id"] == HOME
    assert manager.health(target).ok


def test_the_sse_endpoints_sit_behind_the_token_gate(
    sandbox: SandboxHttpServer, manager: McpManager
) -> None:
    config = ServerConfig(key="im-sse", transport="sse", url=f"{sandbox.base_url}/sse/im")
    with pytest.raises(McpCallError) as refused:
        manager.list_tools(config, "not-a-token")
    message = coded(refused, ErrorCode.TOOL_AUTH)
    assert "'im-sse'" in message and "401" in message and "not-a-token" not in message


def test_an_in_memory_server_is_listed_and_called(manager: McpManager) -> None:
    server = MCPServer("echo")

    @server.tool()
    def echo(text: str) -> str:
        return text.upper()

    target = MemoryServer("echo", server)
    assert [tool["name"] for tool in manager.list_tools(target)] == ["echo"]
    assert manager.call_tool(target, None, "echo", {"text": "hi"}).text == "HI"


def test_a_raw_request_returns_the_result_and_raises_the_servers_error_on_one_session(
    manager: McpManager,
) -> None:
    server = MCPServer("echo")

    @server.tool()
    def echo(text: str) -> dict[str, str]:
        return {"said": text}

    target = MemoryServer("echo", server)
    params = types.CallToolRequestParams(name="echo", arguments={"text": "hi"})
    result = manager.send_request(
        target, None, types.CallToolRequest(params=params), types.CallToolResult
    )
    connections = manager._pool.connections
    session = next(iter(connections.values()))
    unknown = types.GetPromptRequest(params=types.GetPromptRequestParams(name="nope"))
    with pytest.raises(MCPError, match="Unknown prompt"):
        manager.send_request(target, None, unknown, types.GetPromptResult)

    assert result.structured_content == {"said": "hi"}
    assert list(connections.values()) == [session], "an answered error keeps the session"


def test_two_people_get_separate_sessions_and_only_their_own_token(
    sandbox: SandboxHttpServer, manager: McpManager
) -> None:
    url = sandbox.url_for("instamart")
    found = manager.call_tool(
        url, ALICE, "search_products", {"addressId": HOME, "query": "milk"}, user="alice"
    )
    spin = json.loads(found.text)["data"]["products"][0]["variations"][0]["spinId"]
    items = [{"spinId": spin, "quantity": 1}]
    manager.call_tool(
        url, ALICE, "update_cart", {"selectedAddressId": HOME, "items": items}, user="alice"
    )
    alice_cart = manager.call_tool(url, ALICE, "get_cart", {}, user="alice")
    bob_cart = manager.call_tool(url, BOB, "get_cart", {}, user="bob")
    manager.list_tools(url, ALICE, user="bob")  # the same token under another person

    assert [i["spinId"] for i in json.loads(alice_cart.text)["data"]["items"]] == [spin]
    assert json.loads(bob_cart.text)["data"]["items"] == []
    sessions = manager._pool.connections
    assert len(sessions) == 3 and len({id(c) for c in sessions.values()}) == 3
    tokens = {(key.user, connection.endpoint.token) for key, connection in sessions.items()}
    assert tokens == {("alice", ALICE), ("bob", BOB), ("bob", ALICE)}
    assert ALICE not in repr(manager) and ALICE not in repr(sessions)


def _kill_its_process(manager: McpManager, target: ServerConfig) -> int:
    """Start `target`'s stdio process (by listing its tools), SIGKILL it and wait until it
    is gone; its pid."""
    before = children()
    manager.list_tools(target)
    (pid,) = children() - before
    os.kill(pid, signal.SIGKILL)
    wait_until_gone(pid)
    return pid


def test_a_killed_stdio_server_shows_down_then_the_next_call_reconnects(
    manager: McpManager,
) -> None:
    target = sandbox_stdio("food")
    before = children()
    pid = _kill_its_process(manager, target)
    down = manager.health(target)
    answer = manager.call_tool(target, None, "get_addresses", {})

    assert not down.ok and down.code == "E-3205"
    assert down.error is not None and "'food-stdio'" in down.error
    assert not answer.is_error and json.loads(answer.text)["success"] is True
    assert len(children() - before) == 1 and pid not in children()


def test_a_call_on_a_stdio_server_found_dead_is_sent_to_a_fresh_one(manager: McpManager) -> None:
    target = sandbox_stdio("dineout")
    _kill_its_process(manager, target)

    # Nothing was sent to the dead process, so the call is safe to make on a new one.
    deadline = time.monotonic() + 30
    connections = manager._pool.connections
    while connections and next(iter(connections.values())).alive:
        assert time.monotonic() < deadline, "the ended transport was never noticed"
        time.sleep(0.05)
    answer = manager.call_tool(target, None, "get_saved_locations", {})
    assert not answer.is_error


def test_a_slow_tool_times_out_with_its_code_and_the_server_stays_usable(
    manager: McpManager, tmp_path: Path
) -> None:
    target = script(tmp_path, "slow", SLOW_SERVER)
    with pytest.raises(McpCallError) as slow:
        manager.call_tool(target, None, "nap", {"seconds": 60}, timeout=2)
    message = coded(slow, ErrorCode.SERVER_TIMEOUT)
    assert "'slow'" in message and "calling nap" in message
    assert manager.call_tool(target, None, "ping", {}).text == "pong"


def test_a_server_dying_mid_call_is_e3205_and_the_call_is_not_sent_again(
    manager: McpManager, tmp_path: Path
) -> None:
    runs = tmp_path / "runs.txt"
    path = script(tmp_path, "dying", DYING_SERVER).args
    target = ServerConfig(
        key="dying", transport="stdio", command=sys.executable, args=(*path, str(runs))
    )
    with pytest.raises(McpCallError) as died:
        manager.call_tool(target, None, "place_order", {})

    assert "'dying'" in coded(died, ErrorCode.SERVER_DIED)
    assert runs.read_text() == "ran\n", "a call that may have run was sent again"
    assert [tool["name"] for tool in manager.list_tools(target)] == ["place_order"]


def test_a_stdio_server_printing_junk_is_a_garbage_error_not_a_hang(tmp_path: Path) -> None:
    pool = McpManager(call_timeout=5)
    try:
        with pytest.raises(McpCallError) as junk:
            pool.list_tools(script(tmp_path, "junk", JUNK_SERVER))
        health = pool.health(script(tmp_path, "junk", JUNK_SERVER))
    finally:
        pool.close()
    assert "'junk'" in coded(junk, ErrorCode.SERVER_GARBAGE)
    assert not health.ok and health.code == "E-3204"


def test_a_missing_command_and_unreachable_urls_are_unreachable(manager: McpManager) -> None:
    missing = ServerConfig(key="ghost", transport="stdio", command="/nonexistent/mcp-server")
    dead = f"http://127.0.0.1:{free_port()}"
    http = ServerConfig(key="gone-http", transport="http", url=f"{dead}/mcp")
    sse = ServerConfig(key="gone-sse", transport="sse", url=f"{dead}/sse")

    for target, name in [(missing, "'ghost'"), (http, "'gone-http'"), (sse, "'gone-sse'")]:
        with pytest.raises(McpCallError) as failed:
            manager.call_tool(target, "a-token", "anything", {})
        message = coded(failed, ErrorCode.SERVER_UNREACHABLE)
        assert name in message and "a-token" not in message
        health = manager.health(target)
        assert not health.ok and health.code == "E-3202"


def test_close_stops_every_stdio_server(tmp_path: Path) -> None:
    pool = McpManager(call_timeout=20)
    before = children()
    pool.list_tools(sandbox_stdio("instamart"))
    pool.list_tools(script(tmp_path, "slow", SLOW_SERVER))
    started = children() - before
    assert len(started) == 2

    pool.close()

    assert not any(exists(pid) for pid in started), "a stdio server outlived close()"
    assert children() - before == set()


def test_the_shared_manager_stops_its_stdio_servers_when_the_app_exits(tmp_path: Path) -> None:
    server = tmp_path / "lingering.py"
    server.write_text(LINGERING_SERVER)
    app = tmp_path / "app.py"
    app.write_text(EXITING_APP)
    before = {pid for pid in map(int, filter(str.isdigit, os.listdir("/proc")))}

    done = subprocess.run(
        [sys.executable, str(app), str(server)], capture_output=True, text=True, timeout=120
    )

    assert done.returncode == 0 and done.stdout.strip() == "pong", done.stderr
    lingering = [
        pid
        for pid in map(int, filter(str.isdigit, os.listdir("/proc")))
        if pid not in before and str(server) in _cmdline(pid)
    ]
    assert lingering == [], "a stdio server outlived the app"


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return ""
