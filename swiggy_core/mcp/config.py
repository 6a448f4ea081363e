"""The MCP servers the app may use: their transports, credentials and pages, from a file.

`mcp_servers.toml` (JSON accepted) lists each server under a key. Secrets are never written
in the file: a server names a credential (`"swiggy"` for the person's Swiggy sign-in,
`"secret:NAME"` for a deployment secret), resolved only when a session is opened.
A malformed entry is reported with its line and skipped; the others and the three Swiggy
defaults are still used, so the app always starts.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from swiggy_core.constants import MCP_CONFIG_ENV, MCP_CONFIG_FILENAME, MCP_SERVERS
from swiggy_core.logsafe import register_secret
from swiggy_core.mcp.config_rules import EntryError, build_server
from swiggy_core.mcp.config_text import TextError, decode, is_json_source, line_of
from swiggy_core.mcp.records import (
    SECRET_PREFIX,
    SWIGGY_CREDENTIAL,
    ConfigProblem,
    Origin,
    ResolvedServer,
    ServerConfig,
    ServerConfigSet,
    Transport,
)
from swiggy_core.verticals.catalog import VERTICALS

__all__ = [
    "SECRET_PREFIX",
    "SWIGGY_CREDENTIAL",
    "ConfigProblem",
    "Origin",
    "ResolvedServer",
    "ServerConfig",
    "ServerConfigSet",
    "Transport",
    "default_servers",
    "load_server_config",
    "parse_server_config",
    "resolve_credential",
    "sandbox_servers",
    "servers_for_page",
]

# Where servers are listed: `[servers.KEY]` tables, or the common `mcpServers` object.
_CONTAINERS = ("servers", "mcpServers")
# The directory of app.py, where a deployment keeps its mcp_servers.toml.
_APP_DIR = Path(__file__).resolve().parents[2]


def default_servers() -> dict[str, ServerConfig]:
    """The three Swiggy servers, signed in with the person's Swiggy credential."""
    return {key: _swiggy_server(key, spec.url) for key, spec in MCP_SERVERS.items()}


def sandbox_servers(base_url: str) -> dict[str, ServerConfig]:
    """The same three servers on the sandbox's loopback address."""
    base = base_url.rstrip("/")
    return {key: _swiggy_server(key, f"{base}{spec.path}") for key, spec in MCP_SERVERS.items()}


def servers_for_page(servers: Mapping[str, ServerConfig], vertical_id: str) -> list[ServerConfig]:
    """The enabled extra (non-Swiggy) servers whose tools this page offers."""
    return [
        config
        for key, config in servers.items()
        if key not in MCP_SERVERS and config.enabled and vertical_id in config.pages
    ]


def resolve_credential(
    config: ServerConfig, *, swiggy_token: str | None, secrets: Mapping[str, Any]
) -> str | None:
    """The bearer token for `config`: the Swiggy sign-in, or a named deployment secret
    (the secrets mapping first, then the environment); None when there is none."""
    credential = config.credential
    # A person's own server never receives a credential: it could carry it anywhere.
    if credential is None or config.origin == "user":
        return None
    if credential == SWIGGY_CREDENTIAL:
        value = swiggy_token
    elif credential.startswith(SECRET_PREFIX):
        name = credential.removeprefix(SECRET_PREFIX)
        value = _secret(secrets, name) or os.environ.get(name)
    else:
        return None
    value = value.strip() if isinstance(value, str) else None
    if not value:
        return None
    register_secret(value)
    return value


def parse_server_config(text: str, *, source: str = MCP_CONFIG_FILENAME) -> ServerConfigSet:
    """Every valid server in `text` over the defaults, and a problem per invalid one.

    The format follows the suffix of `source` (.json is JSON, anything else TOML). Never
    raises: a file that does not parse gives the defaults and one problem with the line.
    """
    json_format = is_json_source(source)
    servers = default_servers()
    try:
        data = decode(text, json_format=json_format)
    except TextError as error:
        failed = ConfigProblem(error.line, None, error.message, source)
        return ServerConfigSet(servers, [failed], source)
    problems: list[ConfigProblem] = []

    def problem(key: str | None, field: str | None, message: str) -> None:
        line = line_of(text, json_format=json_format, key=key, field=field)
        problems.append(ConfigProblem(line, key, message, source))

    entries: dict[str, Any] = {}
    for name, value in data.items():
        if name not in _CONTAINERS:
            problem(None, name, f"unknown section '{name}'; servers go under [servers.KEY]")
        elif not isinstance(value, dict):
            problem(None, name, f"'{name}' must be a table of servers")
        else:
            for key, entry in value.items():
                if key in entries:
                    problem(key, None, "the server is listed twice; the first entry is used")
                else:
                    entries[key] = entry
    for key, entry in entries.items():
        # An entry naming a default server with only a url keeps that server's transport.
        known = servers.get(key)
        url_transport = known.transport if known and known.transport != "stdio" else "sse"
        try:
            servers[key] = build_server(
                key, entry, origin="file", default_pages=_pages_of(key), url_transport=url_transport
            )
        except EntryError as error:
            problem(key, error.field, error.message)
    return ServerConfigSet(servers, problems, source)


def load_server_config(path: str | Path | None = None) -> ServerConfigSet:
    """The servers from `path`, else `$SWIGGY_MCP_CONFIG`, else `mcp_servers.toml` in the
    working directory or next to app.py; only the defaults when there is no file."""
    chosen = Path(path) if path is not None else _default_path()
    if chosen is None:
        return ServerConfigSet(default_servers(), [], "defaults")
    try:
        text = chosen.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else "unreadable"
        problem = ConfigProblem(None, None, f"cannot read {chosen}: {reason}", chosen.name)
        return ServerConfigSet(default_servers(), [problem], chosen.name)
    return parse_server_config(text, source=chosen.name)


def _default_path() -> Path | None:
    named = os.environ.get(MCP_CONFIG_ENV, "").strip()
    if named:
        return Path(named)
    for folder in (Path.cwd(), _APP_DIR):
        candidate = folder / MCP_CONFIG_FILENAME
        if candidate.is_file():
            return candidate
    return None


def _swiggy_server(key: str, url: str) -> ServerConfig:
    return ServerConfig(
        key=key,
        transport="http",
        url=url,
        credential=SWIGGY_CREDENTIAL,
        pages=_pages_of(key),
        origin="default",
    )


def _pages_of(server_key: str) -> tuple[str, ...]:
    """The pages a Swiggy server serves by default; every page for any other server."""
    if server_key not in MCP_SERVERS:
        return tuple(VERTICALS)
    return tuple(v.id for v in VERTICALS.values() if v.server_key == server_key)


def _secret(secrets: Mapping[str, Any], name: str) -> str | None:
    try:
        value = secrets.get(name)
    except Exception:  # Streamlit's secrets raise when there is no secrets.toml
        return None
    return value if isinstance(value, str) else None
