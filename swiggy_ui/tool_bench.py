"""Settings → Tool bench: call any tool of your servers from a form, for people who build them.

Pick a server (the shops' servers and your own) and one of its tools; the form comes from
the tool's input schema. A run goes through the same manager and hooks as a chat's call (the
audit records it, on Activity), and shows its card, raw result and time, and copies of the
call as `curl` and as a JSON-RPC body. Tools that spend money never run here (E-3220). The
owner can switch the page off (SWIGGY_TOOL_BENCH=off).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import streamlit as st

from swiggy_core.errors import ErrorCode, SettingsError
from swiggy_core.mcp.config import ResolvedServer, ServerConfig
from swiggy_core.mcp.tool_bench import (
    REFUSED_MESSAGE,
    TOOL_BENCH_AUDIT_PAGE,
    TOOL_BENCH_ENV,
    BenchRefused,
    bench_enabled,
    curl_command,
    jsonrpc_body,
    refused_on_bench,
)
from swiggy_core.mcp.tool_form import tool_form
from swiggy_core.store import StoreError
from swiggy_core.verticals import VERTICALS, Vertical
from swiggy_ui import state
from swiggy_ui.banners import coded_error, support_code
from swiggy_ui.first_paint import deployment_secrets
from swiggy_ui.runtime import Runtime, get_runtime
from swiggy_ui.safe_text import plain
from swiggy_ui.servers_panel import safe_target
from swiggy_ui.tool_bench_form import fill_form, render_form
from swiggy_ui.tool_bench_runs import ShownRun, next_number, remember, render_history

KEY_SERVER = "bench-server"
KEY_AGAIN = "bench-run-again"  # a run to repeat on this page run (set by its button)


def render_tool_bench() -> None:
    st.title("Tool bench")
    st.caption(
        "For people who build MCP servers: call a tool of your servers from a form, see what "
        "it answers and how long it took, and copy the call."
    )
    try:
        allowed = bench_enabled(_switch_in_secrets(), os.environ)
    except SettingsError as error:
        coded_error(error.message, error.code, icon=":material/settings_alert:")
        return
    if not allowed:
        st.info("The tool bench is switched off on this copy of the app.", icon=":material/block:")
        return
    if state.pop_action() is not None:  # a card's button here must not act in a chat later
        st.info(
            "A card here only shows what a chat would draw: add to your cart from a shop.",
            icon=":material/info:",
        )
    runtime = get_runtime()
    try:
        servers = {key: c for key, c in runtime.visit.servers().items() if c.enabled}
    except StoreError as error:
        coded_error(error.message, error.code, icon=":material/database:")
        return
    _repeat_asked(runtime, servers)
    _bench(runtime, servers)
    render_history(image_origin=runtime.app.image_origin, again=_ask_again, edit=_put_in_form)


def _switch_in_secrets() -> dict[str, Any]:
    """The owner's switch as the secrets file holds it (a string, or a TOML true / false)."""
    value = deployment_secrets().get(TOOL_BENCH_ENV)
    return {} if value is None else {TOOL_BENCH_ENV: value}


def _bench(runtime: Runtime, servers: dict[str, ServerConfig]) -> None:
    if not servers:
        st.info("No server is switched on: add or switch one on under Connections → Servers.")
        return
    key = st.selectbox("Server", list(servers), key=KEY_SERVER,
                       format_func=lambda k: _server_label(servers[k]))  # fmt: skip
    server = _resolved(runtime, servers[key])
    tools = _listing(runtime, server)
    if not tools:
        return
    by_name = {str(tool["name"]): tool for tool in tools}
    name = st.selectbox("Tool", list(by_name), key=f"bench-tool-{key}")
    tool = by_name[name]
    if tool.get("description"):
        st.caption(plain(str(tool["description"])[:600]))
    refused = refused_on_bench(server.config, tool)
    if refused:
        st.warning(REFUSED_MESSAGE, icon=":material/lock:")
        support_code(ErrorCode.BENCH_REFUSED)
    form = tool_form(name, tool.get("input_schema") or {})
    arguments = render_form(form, _form_key(key, name), disabled=refused)
    if arguments is not None:
        _run(runtime, server, servers, tool, arguments)


def _server_label(config: ServerConfig) -> str:
    mine = " · yours" if config.origin == "user" else ""
    return f"{config.key} · {config.transport} · {safe_target(config)}{mine}"


def _form_key(server_key: str, tool: str) -> str:
    return f"bench-form-{server_key}-{tool}"


def _resolved(runtime: Runtime, config: ServerConfig) -> ResolvedServer:
    from swiggy_app.servers import resolved

    return resolved(config, swiggy_token=runtime.mcp_token(), secrets=runtime.visitor.secrets)


def _listing(runtime: Runtime, server: ResolvedServer) -> list[dict[str, Any]]:
    """The server's tools (listed once, then cached for a while); [] with a coded error."""
    from swiggy_core.mcp import McpCallError
    from swiggy_core.mcp.manager import shared_manager

    try:
        with st.spinner("Listing its tools…"):
            return shared_manager().list_tools(server, user=runtime.user_id)
    except McpCallError as error:
        coded_error(error.message, error.code, icon=":material/cloud_off:")
        return []


def _run(
    runtime: Runtime,
    server: ResolvedServer,
    servers: Mapping[str, ServerConfig],
    tool: Mapping[str, Any],
    arguments: Mapping[str, Any],
) -> None:
    """Run one call through the chat's manager and hooks, and keep it in the history."""
    from swiggy_app.servers import turn_hooks
    from swiggy_core.hooks import CallScope
    from swiggy_core.mcp.manager import shared_manager
    from swiggy_core.mcp.tool_bench import run_on_bench

    scope = CallScope(runtime.user_id, TOOL_BENCH_AUDIT_PAGE)
    try:
        with st.spinner("Running…"):
            run = run_on_bench(shared_manager(), server, tool, arguments, scope=scope,
                               hooks=turn_hooks(runtime.store, servers))  # fmt: skip
    except BenchRefused as error:
        coded_error(error.message, error.code, icon=":material/lock:")
        return
    shown = ShownRun(
        number=next_number(),
        run=run,
        listing=dict(tool),
        curl=curl_command(server, run.tool, run.arguments),
        body=jsonrpc_body(run.tool, run.arguments),
        vertical=_vertical_of(server.config),
    )
    remember(shown)


def _vertical_of(config: ServerConfig) -> Vertical:
    """The shop whose cards fit this server's results (a person's server: its first page)."""
    for vertical in VERTICALS.values():
        if vertical.server_key == config.key:
            return vertical
    page = next((p for p in config.pages if p in VERTICALS), None)
    return VERTICALS[page] if page is not None else next(iter(VERTICALS.values()))


# -- the history's buttons (callbacks: they run before the page is drawn again) -----------
def _ask_again(shown: ShownRun) -> None:
    st.session_state[KEY_AGAIN] = shown


def _put_in_form(shown: ShownRun) -> None:
    run = shown.run
    st.session_state[KEY_SERVER] = run.server
    st.session_state[f"bench-tool-{run.server}"] = run.tool
    form = tool_form(run.tool, shown.listing.get("input_schema") or {})
    fill_form(form, _form_key(run.server, run.tool), run.arguments)


def _repeat_asked(runtime: Runtime, servers: dict[str, ServerConfig]) -> None:
    """Run again the run whose button was pressed (if its server is still on)."""
    shown: ShownRun | None = st.session_state.pop(KEY_AGAIN, None)
    if shown is None:
        return
    config = servers.get(shown.run.server)
    if config is None:
        st.warning("That server is no longer switched on, so the run was not repeated.")
        support_code(ErrorCode.SERVER_DISABLED)
        return
    _run(runtime, _resolved(runtime, config), servers, shown.listing, shown.run.arguments)
