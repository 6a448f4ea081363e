"""The tool bench's core: spending tools refused before any hook or server, a run through the
hooks, the owner's off switch, and copies of a call that never hold a credential."""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import pytest

from swiggy_core.errors import ErrorCode, SettingsError
from swiggy_core.hooks import CallScope, Denial, ToolCallInfo, ToolHooks, ToolOutcome
from swiggy_core.mcp.client import McpCallError, ToolOutput
from swiggy_core.mcp.records import ResolvedServer, ServerConfig
from swiggy_core.mcp.tool_bench import (
    TOOL_BENCH_ENV,
    BenchRefused,
    bench_enabled,
    curl_command,
    jsonrpc_body,
    refused_on_bench,
    run_on_bench,
)
from swiggy_core.shops import money_tools

TOKEN = "sk-swiggy-Zq81vJ3kLmP0aB7cD9eF2gH4iJ6kL8mN"
HEADER_SECRET = "hdr-9f8e7d6c5b4a39281706f5e4d3c2b1a0"
QUERY_SECRET = "qs-0a1b2c3d4e5f60718293a4b5c6d7e8f9"
AT = datetime(2026, 11, 27, 8, 0, tzinfo=UTC)
SHOP = ServerConfig(
    key="instamart", transport="http", url="http://127.0.0.1:8123/im", credential="swiggy"
)


class Caller:
    """Stands in for the manager: records each call and answers `output` (or raises)."""

    def __init__(self, output: ToolOutput | Exception) -> None:
        self.output = output
        self.calls: list[tuple[str, dict[str, Any], str | None, str]] = []

    def call_tool(
        self,
        server: ResolvedServer,
        token: str | None,
        name: str,
        arguments: Mapping[str, Any],
        *,
        user: str = "",
    ) -> ToolOutput:
        self.calls.append((name, dict(arguments), token, user))
        if isinstance(self.output, Exception):
            raise self.output
        return self.output


class Hooks:
    """Hooks that record what they saw; `refuse` makes the pre hook deny every call."""

    def __init__(self, refuse: Denial | None = None) -> None:
        self.before: list[ToolCallInfo] = []
        self.after: list[ToolOutcome] = []
        self.refuse = refuse

    def pre(self, info: ToolCallInfo) -> Denial | None:
        self.before.append(info)
        return self.refuse

    def post(self, outcome: ToolOutcome) -> None:
        self.after.append(outcome)

    def hooks(self) -> ToolHooks:
        return ToolHooks(pre=(self.pre,), post=(self.post,))


def _bench(tool: dict[str, Any], caller: Caller, hooks: Hooks, server: ServerConfig = SHOP):
    return run_on_bench(
        caller,
        ResolvedServer(server, TOKEN),
        tool,
        {"addressId": "a1"},
        scope=CallScope("user-1", "tool bench"),
        hooks=hooks.hooks(),
        clock=lambda: AT,
    )


@pytest.mark.parametrize("name", [*money_tools(), "place_order", "buyNow", "pay_invoice"])
def test_a_spending_tool_is_refused_before_any_hook_or_server(name: str) -> None:
    caller, hooks = Caller(ToolOutput("{}", False)), Hooks()
    tool = {"name": name, "annotations": {"readOnlyHint": True}}  # a hint never lets it run
    assert refused_on_bench(SHOP, tool)
    with pytest.raises(BenchRefused) as refused:
        _bench(tool, caller, hooks)
    assert refused.value.code == ErrorCode.BENCH_REFUSED == "E-3220"
    assert "only from a chat" in refused.value.message
    assert caller.calls == [] and hooks.before == [] and hooks.after == []


def test_every_shop_spender_is_among_the_refused() -> None:
    for name in ("checkout", "place_food_order", "book_table", "confirm_order"):
        assert name in money_tools() and refused_on_bench(SHOP, {"name": name})


def test_a_persons_tool_that_is_not_read_only_is_refused() -> None:
    own = ServerConfig(key="notes", transport="http", url="https://notes.example", origin="user")
    assert refused_on_bench(own, {"name": "add_note"})
    assert not refused_on_bench(own, {"name": "add_note", "annotations": {"readOnlyHint": True}})
    with pytest.raises(BenchRefused):
        _bench({"name": "add_note"}, Caller(ToolOutput("{}", False)), Hooks(), own)
    # The shops' own write tools (a cart, not money) run on a person's press, as in a chat.
    assert not refused_on_bench(SHOP, {"name": "update_cart"})


def test_a_run_goes_through_the_hooks_and_the_manager_and_is_timed() -> None:
    output = ToolOutput('{"success": true, "data": {"items": []}}', False)
    caller, hooks = Caller(output), Hooks()
    run = _bench({"name": "get_cart"}, caller, hooks)
    assert caller.calls == [("get_cart", {"addressId": "a1"}, TOKEN, "user-1")]
    assert [info.tool for info in hooks.before] == ["get_cart"]
    assert hooks.before[0].vertical_id == "tool bench" and hooks.before[0].server == "instamart"
    assert [o.outcome for o in hooks.after] == ["ok"]  # the audit hook sees it
    assert run.ok and run.output == output and run.at == AT
    assert run.duration_ms == hooks.after[0].duration_ms >= 0


def test_a_refusing_hook_stops_the_call_and_says_why() -> None:
    caller = Caller(ToolOutput("{}", False))
    hooks = Hooks(Denial("for the model", ErrorCode.RATE_BUDGET, shown="Too many calls."))
    run = _bench({"name": "get_cart"}, caller, hooks)
    assert caller.calls == [] and [o.outcome for o in hooks.after] == ["denied"]
    assert (run.ok, run.output, run.error, run.error_code) == (False, None, "Too many calls.",
                                                               "E-3208")  # fmt: skip


def test_a_failed_call_is_coded_and_audited() -> None:
    failure = McpCallError("The server did not answer.", code=ErrorCode.SERVER_TIMEOUT)
    hooks = Hooks()
    run = _bench({"name": "get_cart"}, Caller(failure), hooks)
    assert (run.error, run.error_code) == ("The server did not answer.", "E-3203")
    assert [(o.outcome, o.error_code) for o in hooks.after] == [("error", "E-3203")]


@pytest.mark.parametrize(
    ("secrets", "environ", "on"),
    [({}, {}, True), ({}, {TOOL_BENCH_ENV: "off"}, False), ({TOOL_BENCH_ENV: "OFF"}, {}, False),
     ({TOOL_BENCH_ENV: "on"}, {TOOL_BENCH_ENV: "off"}, True), ({}, {TOOL_BENCH_ENV: "yes"}, True)],
)  # fmt: skip
def test_the_owner_switches_the_bench_off(secrets, environ, on) -> None:
    assert bench_enabled(secrets, environ) is on


def test_a_bad_switch_value_names_the_setting() -> None:
    with pytest.raises(SettingsError, match=TOOL_BENCH_ENV):
        bench_enabled({}, {TOOL_BENCH_ENV: "sometimes"})


def test_the_curl_copy_holds_no_credential_and_runs_as_written() -> None:
    config = ServerConfig(
        key="instamart",
        transport="http",
        url=f"http://127.0.0.1:8123/im?api_key={QUERY_SECRET}&v=2",
        headers={"X-Api-Key": HEADER_SECRET, "X-Client": "bench"},
        credential="swiggy",
    )
    arguments = {"addressId": "a1", "query": "Amul's milk"}
    text = curl_command(ResolvedServer(config, TOKEN), "search_products", arguments)
    assert text is not None
    for secret in (TOKEN, HEADER_SECRET, QUERY_SECRET):
        assert secret not in text
    assert '"Authorization: Bearer $SWIGGY_TOKEN"' in text
    assert '"X-Api-Key: $X_API_KEY"' in text and "'X-Client: bench'" in text
    assert '"http://127.0.0.1:8123/im?api_key=$API_KEY&v=2"' in text
    assert '"Mcp-Session-Id: $MCP_SESSION_ID"' in text and "MCP-Protocol-Version" in text
    words = shlex.split(text.split("\n", 1)[1].replace("\\\n", " "))
    assert words[:4] == ["curl", "-sS", "-X", "POST"]
    body = json.loads(words[words.index("--data-raw") + 1])
    assert body == json.loads(jsonrpc_body("search_products", arguments))
    assert body["method"] == "tools/call" and body["params"]["arguments"] == arguments


def test_a_secret_credential_is_named_and_a_persons_server_gets_none() -> None:
    named = ServerConfig(key="crm", transport="http", url="https://crm.example/mcp",
                         credential="secret:CRM_TOKEN")  # fmt: skip
    text = curl_command(ResolvedServer(named, TOKEN), "lookup", {})
    assert text is not None and TOKEN not in text and "Bearer $CRM_TOKEN" in text
    own = ServerConfig(key="notes", transport="http", url="https://notes.example/mcp",
                       credential="swiggy", origin="user")  # fmt: skip
    text = curl_command(ResolvedServer(own, TOKEN), "list_notes", {})
    assert text is not None and "Authorization" not in text and TOKEN not in text


def test_only_http_servers_get_a_curl_copy_and_every_one_a_body() -> None:
    stdio = ServerConfig(key="local", transport="stdio", command="python", args=("-m", "srv"))
    assert curl_command(ResolvedServer(stdio, TOKEN), "ping", {}) is None
    body = json.loads(jsonrpc_body("ping", {"n": 1}, request_id=7))
    assert body == {"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                    "params": {"name": "ping", "arguments": {"n": 1}}}  # fmt: skip
