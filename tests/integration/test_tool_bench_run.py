"""The tool bench against real peers: the sandbox's servers over Streamable HTTP (the app's
transport), the app's manager, the session's default hooks and a SQLite audit on disk."""

from __future__ import annotations

import json
import os
import subprocess

import httpx2
import pytest
from session_peers import ADDRESS, Shop

from swiggy_app.servers import resolved, turn_hooks
from swiggy_core.hooks import CallScope
from swiggy_core.mcp.config import sandbox_servers
from swiggy_core.mcp.tool_bench import (
    PROTOCOL_VERSION,
    TOOL_BENCH_AUDIT_PAGE,
    BenchRefused,
    curl_command,
    run_on_bench,
)
from swiggy_core.mcp.tool_form import arguments_of, tool_form
from swiggy_core.store import ChatStore


def _bench(shop: Shop, store: ChatStore, server_key: str, tool_name: str, values: dict):
    servers = sandbox_servers(shop.sandbox.base_url)
    server = resolved(servers[server_key], swiggy_token=shop.token, secrets={})
    listing = {t["name"]: t for t in shop.manager.list_tools(server, user=shop.user)}
    tool = listing[tool_name]
    arguments = arguments_of(tool_form(tool_name, tool["input_schema"]), values)
    scope = CallScope(shop.user, TOOL_BENCH_AUDIT_PAGE)
    hooks = turn_hooks(store, servers)
    return run_on_bench(shop.manager, server, tool, arguments, scope=scope, hooks=hooks)


def test_a_read_only_tool_runs_from_the_form_and_is_audited(shop: Shop, store: ChatStore):
    run = _bench(shop, store, "instamart", "search_products",
                 {"addressId": ADDRESS, "query": "milk", "offset": "0"})  # fmt: skip
    assert run.ok and run.output is not None and run.duration_ms > 0
    products = json.loads(run.output.envelope_text())["data"]["products"]
    assert products and "milk" in products[0]["displayName"].lower()
    [entry] = store.tool_calls(shop.user)
    assert (entry.server, entry.tool, entry.outcome) == ("instamart", "search_products", "ok")
    assert entry.vertical_id == TOOL_BENCH_AUDIT_PAGE
    assert entry.arguments == {"addressId": ADDRESS, "query": "milk", "offset": 0}


def test_a_spending_tool_never_reaches_the_server_nor_the_audit(shop: Shop, store: ChatStore):
    orders = shop.orders()
    with pytest.raises(BenchRefused):
        _bench(shop, store, "instamart", "checkout", {"addressId": ADDRESS})
    assert shop.orders() == orders
    assert store.tool_calls(shop.user) == []


def _open_session(url: str, token: str) -> str:
    """A session opened as the copy's comment says (initialize, then initialized): its id."""
    headers = {
        "Accept": "application/json, text/event-stream",
        "Authorization": f"Bearer {token}",
        "MCP-Protocol-Version": PROTOCOL_VERSION,
    }
    hello = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": PROTOCOL_VERSION,
            "capabilities": {},
            "clientInfo": {"name": "bench-test", "version": "1"},
        },
    }
    with httpx2.Client(timeout=30) as http:
        opened = http.post(url, json=hello, headers=headers)
        opened.raise_for_status()
        session = opened.headers["mcp-session-id"]
        done = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        http.post(url, json=done, headers={**headers, "Mcp-Session-Id": session})
    return session


def _answer(text: str) -> dict:
    """The JSON-RPC answer, sent as JSON or as one server-sent event."""
    if text.lstrip().startswith("{"):
        return json.loads(text)
    data = [line.removeprefix("data:").strip() for line in text.splitlines()]
    return json.loads(next(line for line in data if line.startswith("{")))


def test_the_copied_curl_command_runs_as_written(shop: Shop) -> None:
    server = resolved(
        sandbox_servers(shop.sandbox.base_url)["instamart"], swiggy_token=shop.token, secrets={}
    )
    command = curl_command(server, "get_cart", {})
    assert command is not None and shop.token not in command
    environ = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "SWIGGY_TOKEN": shop.token,
        "MCP_SESSION_ID": _open_session(server.config.url, shop.token),
    }
    done = subprocess.run(
        ["bash", "-c", command], env=environ, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    answer = _answer(done.stdout)
    assert answer["id"] == 1 and not answer["result"].get("isError")
    envelope = json.loads(answer["result"]["content"][0]["text"])
    assert envelope["success"] and envelope["data"]["items"]  # the milk the fixture put in
