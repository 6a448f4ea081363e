"""Connections → Servers: every MCP server in use with its health, and the person's own.

Statuses come from the shared health board (the process-wide poller keeps them fresh);
Refresh probes again only what was not probed in the last 10 s. Nothing shown here is a
secret: a server appears by its host or its command, never its headers, token or a
secret-looking argument. The person's own servers follow (`own_servers`).
"""

from __future__ import annotations

import time
from pathlib import PurePath
from urllib.parse import urlsplit

import streamlit as st

from swiggy_core.constants import HEALTH_MIN_INTERVAL_SECONDS
from swiggy_core.errors import ErrorCode
from swiggy_core.mcp.config import ServerConfig
from swiggy_core.mcp.health import ServerStatus
from swiggy_core.store import StoreError
from swiggy_ui.banners import coded_error, support_code
from swiggy_ui.own_servers import render_own_servers
from swiggy_ui.runtime import Runtime
from swiggy_ui.safe_text import inline_code, plain


def render_servers(runtime: Runtime) -> None:
    """The Servers section of the Connections page."""
    with st.container(border=True, key="servers-section"):
        st.subheader("Servers")
        for problem in runtime.app.server_file.problems:
            st.warning(plain(str(problem)), icon=":material/settings_alert:")
            support_code(ErrorCode.SERVER_CONFIG)
        try:
            servers = runtime.visit.servers()
        except StoreError as error:
            coded_error(error.message, error.code, icon=":material/database:")
            return
        runtime.visit.watch(servers)
        _health_list(runtime, servers)
        render_own_servers(runtime, servers)
        st.page_link(
            "app_pages/activity.py", label="Every tool call: Activity", icon=":material/history:"
        )


# -- health ------------------------------------------------------------------------------
def _health_list(runtime: Runtime, servers: dict[str, ServerConfig]) -> None:
    targets = runtime.visit.health_targets(servers)
    keys = [target.key for target in targets.values()]
    board = runtime.app.health.board
    if st.button("Refresh", key="srv-refresh", icon=":material/refresh:"):
        enabled = [target for target in targets.values() if target.server.config.enabled]
        if _all_recent(board.statuses(keys), [target.key for target in enabled]):
            st.caption(":material/schedule: Checked just now (each server at most every 10 s).")
        else:
            with st.spinner("Checking the servers…"):
                runtime.visit.refresh(enabled)
    statuses = board.statuses(keys)
    for key, config in servers.items():
        _server_row(config, statuses.get(targets[key].key))


def _now() -> float:
    return time.time()  # the board's clock: epoch seconds, shared by every replica


def _all_recent(statuses: dict[str, ServerStatus], keys: list[str]) -> bool:
    now = _now()
    return all(
        key in statuses and now - statuses[key].checked_at < HEALTH_MIN_INTERVAL_SECONDS
        for key in keys
    )


def _server_row(config: ServerConfig, status: ServerStatus | None) -> None:
    dot, word = _dot(config, status)
    mine = " · yours" if config.origin == "user" else ""
    st.markdown(
        f"{dot} **{plain(config.key)}** · {word} · {config.transport} · "
        f"{inline_code(safe_target(config))}{mine}"
    )
    st.caption(_details(config, status))


def _dot(config: ServerConfig, status: ServerStatus | None) -> tuple[str, str]:
    if not config.enabled:
        return ":gray[○]", "off"
    if status is None or status.ok is None:
        return ":gray[●]", "unknown"
    return (":green[●]", "up") if status.ok else (":red[●]", "down")


def _details(config: ServerConfig, status: ServerStatus | None) -> str:
    if not config.enabled:
        return "Switched off: its tools are not offered."
    if status is None:
        return "Not checked yet: press Refresh."
    parts = []
    if status.ok:
        noun = "tool" if status.tool_count == 1 else "tools"
        parts += [f"{status.tool_count} {noun}", f"{status.latency_ms:,.0f} ms"]
    parts.append(f"checked {checked_ago(status.checked_at)}")
    if status.error_code or status.error:
        parts.append(f"**{status.error_code or ''}** {plain(_message(status))}".strip())
    return " · ".join(parts)


def _message(status: ServerStatus) -> str:
    """The error without its code in front (the code is shown on its own)."""
    error = status.error or ""
    code = f"[{status.error_code}]"
    return error.removeprefix(code).strip() if status.error_code else error


def checked_ago(checked_at: float, now: float | None = None) -> str:
    """ "just now", "7 s ago", "3 min ago", "2 h ago"."""
    seconds = max(0.0, (now if now is not None else _now()) - checked_at)
    if seconds < 1:
        return "just now"
    if seconds < 60:
        return f"{seconds:.0f} s ago"
    if seconds < 3600:
        return f"{seconds // 60:.0f} min ago"
    return f"{seconds // 3600:.0f} h ago"


def safe_target(config: ServerConfig) -> str:
    """Where a server runs, for people: the URL's host, or the program's name and how many
    arguments it takes. Arguments are never shown: a token can sit in any of them
    (`--header "Authorization: Bearer …"`, a bare key), and every visitor sees this list."""
    if config.transport != "stdio":
        try:
            return urlsplit(config.url).hostname or "(no URL)"
        except ValueError:
            return "(bad URL)"
    program = PurePath(config.command).name or "(no command)"
    count = len(config.args)
    if not count:
        return program
    return f"{program} … ({count} argument{'s' if count != 1 else ''})"
