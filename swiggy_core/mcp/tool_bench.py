"""The tool bench: one tool call from a form, through the chat's manager and hooks, timed.

A run goes the way a chat's call goes (the pre hooks may refuse it, the post hooks audit
it), but a tool that spends money, or that a chat runs only once confirmed, is refused here
before anything else (E-3220): those run only from a chat's confirmation. A run can be
copied as a JSON-RPC body or a `curl` command; neither ever holds a credential (each
becomes a `$NAME` placeholder).
"""

from __future__ import annotations

import json
import re
import shlex
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, Final, Protocol

from swiggy_core.errors import ErrorCode, McpServerError, SettingsError
from swiggy_core.hooks import CallScope, ToolHooks, denied_outcome, outcome_of
from swiggy_core.logsafe import redact
from swiggy_core.mcp.client import McpCallError, ToolOutput, read_only
from swiggy_core.mcp.records import SECRET_PREFIX, SWIGGY_CREDENTIAL, ResolvedServer, ServerConfig
from swiggy_core.verticals.policy import ToolPolicy

# The owner's switch: `off` hides the bench on a hosted copy (secrets first, then the env).
TOOL_BENCH_ENV: Final = "SWIGGY_TOOL_BENCH"
_ON: Final = frozenset({"1", "true", "yes", "on"})
_OFF: Final = frozenset({"0", "false", "no", "off"})
# Where the audit says a bench call came from (shown on Activity in place of a shop).
TOOL_BENCH_AUDIT_PAGE: Final = "tool bench"
SWIGGY_TOKEN_PLACEHOLDER: Final = "$SWIGGY_TOKEN"
SESSION_PLACEHOLDER: Final = "$MCP_SESSION_ID"
# The protocol revision the copied request names: one every current server accepts.
PROTOCOL_VERSION: Final = "2025-06-18"
REFUSED_MESSAGE: Final = (
    "This tool spends money or changes something only you should confirm, so it never runs "
    "here: it runs only from a chat, after you confirm it."
)
# A header or query name that may carry a credential: its value becomes a placeholder.
_SECRET_NAME_RE: Final = re.compile(r"(?i)auth|token|key|secret|password|cookie|sig")
_SECRET_QUERY_RE: Final = re.compile(
    r"(?i)([?&]([^=&#]*(?:auth|token|key|secret|password|sig)[^=&#]*)=)[^&#]*"
)


class BenchRefused(McpServerError):
    """A tool the bench never runs (it spends money, or a chat runs it only once confirmed)."""

    code = ErrorCode.BENCH_REFUSED


class ToolCaller(Protocol):
    """`McpManager.call_tool`, as the bench uses it."""

    def call_tool(
        self,
        server: ResolvedServer,
        token: str | None,
        name: str,
        arguments: Mapping[str, Any],
        *,
        user: str = "",
    ) -> ToolOutput: ...


@dataclass(frozen=True, slots=True)
class BenchRun:
    """One run: what was called with what, what came back, how long it took, when."""

    server: str
    tool: str
    arguments: Mapping[str, Any]
    at: datetime
    output: ToolOutput | None = None  # None when it never reached the server
    duration_ms: float = 0.0
    error_code: str | None = None
    error: str | None = None  # why it failed or was refused, for you

    @property
    def ok(self) -> bool:
        return self.error_code is None and self.output is not None and not self.output.is_error


def bench_enabled(secrets: Mapping[str, Any], environ: Mapping[str, str]) -> bool:
    """Whether the owner lets the bench run here (on unless set to off)."""
    raw = secrets.get(TOOL_BENCH_ENV, environ.get(TOOL_BENCH_ENV, ""))
    word = str(raw if raw is not None else "").strip().lower()
    if not word or word in _ON:
        return True
    if word in _OFF:
        return False
    raise SettingsError(f"{TOOL_BENCH_ENV} must be on or off; got {raw!r}.")


def refused_on_bench(server: ServerConfig, tool: Mapping[str, Any]) -> bool:
    """A spender (by the chat's own policy), or a tool of a person's own server that a chat
    runs only once confirmed (not annotated read-only)."""
    name = str(tool.get("name", ""))
    if ToolPolicy().is_money_spending(name):
        return True
    return server.origin == "user" and not read_only(dict(tool))


def run_on_bench(
    caller: ToolCaller,
    server: ResolvedServer,
    tool: Mapping[str, Any],
    arguments: Mapping[str, Any],
    *,
    scope: CallScope,
    hooks: ToolHooks,
    clock: Callable[[], datetime] = lambda: datetime.now(UTC),
) -> BenchRun:
    """Run one listed tool through `hooks` and the manager; a refused tool raises
    BenchRefused before any hook or server sees it."""
    if refused_on_bench(server.config, tool):
        raise BenchRefused(REFUSED_MESSAGE)
    name = str(tool["name"])
    info = scope.info(server.config.key, name, arguments)
    run = BenchRun(server=server.config.key, tool=name, arguments=dict(arguments), at=clock())
    denial = hooks.before(info)
    if denial is not None:
        hooks.observe(denied_outcome(info, denial))
        return replace(run, error_code=str(denial.code), error=denial.shown)
    started = time.perf_counter()
    try:
        output = caller.call_tool(server, server.token, name, info.arguments, user=scope.user_id)
    except McpCallError as failure:
        outcome = outcome_of(info, ToolOutput(str(failure), True), started, str(failure.code))
        hooks.observe(outcome)
        run = replace(run, error_code=str(failure.code), error=failure.message)
        return replace(run, duration_ms=outcome.duration_ms)
    outcome = outcome_of(info, output, started)
    hooks.observe(outcome)  # the audit; what a model would get is not the bench's concern
    taken = outcome.duration_ms
    return replace(run, output=output, duration_ms=taken, error_code=outcome.error_code)


# -- copying a run -------------------------------------------------------------------------
def jsonrpc_body(tool: str, arguments: Mapping[str, Any], request_id: int = 1) -> str:
    """The `tools/call` request as JSON-RPC 2.0 (what any transport carries)."""
    return json.dumps(_request(tool, arguments, request_id), ensure_ascii=False, indent=2)


def _request(tool: str, arguments: Mapping[str, Any], request_id: int) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": tool, "arguments": dict(arguments)},
    }


def curl_command(server: ResolvedServer, tool: str, arguments: Mapping[str, Any]) -> str | None:
    """The call as a `curl` POST to a Streamable HTTP server (None for other transports).

    Every credential is a `$NAME` placeholder the shell fills in (`$SWIGGY_TOKEN`, a secret's
    own name, a secret-looking header's or query parameter's name), as is the session id; the
    rest is masked for known secrets and the token the app holds, should either appear.
    """
    config = server.config
    if config.transport != "http":
        return None

    def masked(text: str) -> str:
        return _without_token(text, server.token, _credential_placeholder(config))

    body = json.dumps(_request(tool, arguments, 1), ensure_ascii=False, separators=(",", ":"))
    headers = [
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
        ("MCP-Protocol-Version", PROTOCOL_VERSION),
        *((name, masked(value)) for name, value in config.headers.items()),
    ]
    headers = [(name, _header_value(name, value)) for name, value in headers]
    headers.append(("Mcp-Session-Id", SESSION_PLACEHOLDER))
    placeholder = _credential_placeholder(config)
    if placeholder is not None:
        headers.append(("Authorization", f"Bearer {placeholder}"))
    lines = [
        f"curl -sS -X POST {_shell_word(_safe_url(masked(config.url)))}",
        *(f"  -H {_shell_word(f'{name}: {value}')}" for name, value in headers),
        f"  --data-raw {shlex.quote(masked(body))}",
    ]
    opening = "# Open a session first (initialize); put its Mcp-Session-Id in $MCP_SESSION_ID."
    return opening + "\n" + " \\\n".join(lines)


def _credential_placeholder(config: ServerConfig) -> str | None:
    credential = config.credential
    if credential is None or config.origin == "user":
        return None  # a person's own server gets no credential from the app
    if credential.startswith(SECRET_PREFIX):
        return _placeholder(credential.removeprefix(SECRET_PREFIX))
    return SWIGGY_TOKEN_PLACEHOLDER if credential == SWIGGY_CREDENTIAL else None


def _placeholder(name: str) -> str:
    return "$" + re.sub(r"\W", "_", name).upper()


def _header_value(name: str, value: str) -> str:
    return _placeholder(name) if _SECRET_NAME_RE.search(name) else value


def _shell_word(text: str) -> str:
    """One shell word; `$NAME` placeholders are left for the shell to fill in."""
    if "$" not in text:
        return shlex.quote(text)
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("`", "\\`")
    return f'"{escaped}"'


def _safe_url(url: str) -> str:
    return _SECRET_QUERY_RE.sub(lambda m: m.group(1) + _placeholder(m.group(2)), url)


def _without_token(text: str, token: str | None, placeholder: str | None) -> str:
    """The text with the held token (should it appear) and every known secret masked."""
    if token:
        text = text.replace(token, placeholder or SWIGGY_TOKEN_PLACEHOLDER)
    return redact(text)
