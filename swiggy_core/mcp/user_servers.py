"""A person's own MCP servers, added from the UI and kept with their preferences.

`user_id` is the store's user id, which already names the world (`identity@backend`), so a
server added in the sandbox is not offered against the real Swiggy and the other way round.
The same rules as the file apply, and more: no credential at all (a person's server could
carry a deployment secret anywhere), and a stdio server (a command run on the host) only when
the deployment allows it with `SWIGGY_ALLOW_USER_STDIO=true`. A server's host must be a
public address (`swiggy_core.mcp.egress`, E-3209) unless the deployment allows private ones
with `SWIGGY_ALLOW_PRIVATE_SERVERS=true`; every connection checks the address it dials again.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, NoReturn, Protocol
from urllib.parse import urlsplit

from swiggy_core.constants import (
    ALLOW_USER_STDIO_ENV,
    MCP_SERVERS,
    USER_SERVERS_MAX,
    USER_SERVERS_PREFERENCE,
)
from swiggy_core.errors import ErrorCode, McpServerError, SwiggyAssistantError
from swiggy_core.mcp.config_rules import EntryError, build_server, server_entry
from swiggy_core.mcp.egress import Resolver, check_host, system_resolver
from swiggy_core.mcp.records import ServerConfig, ServerConfigSet

__all__ = [
    "PreferenceStore",
    "check_user_server",
    "merged_servers",
    "remove_user_server",
    "save_user_server",
    "set_user_server_enabled",
    "user_servers",
    "user_stdio_allowed",
]

_TRUE = frozenset({"1", "true", "yes", "on"})
# Stored as a list of entries with the key under "name": the store scrubs any mapping key
# that looks like a credential name ("key", "token"), which a server key might.
_NAME = "name"


class PreferenceStore(Protocol):
    """What is needed of the store (`ChatStore` fits)."""

    def get_preference(self, user_id: str, name: str) -> dict[str, Any] | None: ...

    def set_preference(self, user_id: str, name: str, value: dict[str, Any]) -> None: ...


def user_stdio_allowed() -> bool:
    """Whether people may add stdio servers here (`SWIGGY_ALLOW_USER_STDIO`)."""
    return os.environ.get(ALLOW_USER_STDIO_ENV, "").strip().lower() in _TRUE


def user_servers(store_db: PreferenceStore, user_id: str) -> dict[str, ServerConfig]:
    """The person's servers by key (origin "user"); a stored entry that no longer passes
    the rules (including stdio once the deployment no longer allows it) is left out.

    Hosts are judged without a lookup here (a page render must not wait on DNS); each
    connection checks the addresses its host resolves to.
    """
    servers: dict[str, ServerConfig] = {}
    for key, entry in _stored(store_db, user_id).items():
        try:
            config = build_server(key, entry, origin="user")
            servers[key] = check_user_server(config, resolver=None)
        except (EntryError, SwiggyAssistantError):
            continue
    return servers


def save_user_server(
    db: PreferenceStore,
    user_id: str,
    config: ServerConfig,
    *,
    allow_stdio: bool | None = None,
    resolver: Resolver = system_resolver,
) -> None:
    """Add or replace one of the person's servers; raises SwiggyAssistantError (E-3201, or
    E-3209 for a host that is not public) with a message for the person."""
    checked = check_user_server(config, allow_stdio=allow_stdio, resolver=resolver)
    stored = _stored(db, user_id)
    if checked.key not in stored and len(stored) >= USER_SERVERS_MAX:
        _refuse(f"you can add at most {USER_SERVERS_MAX} servers; remove one first")
    stored[checked.key] = server_entry(checked)
    _store(db, user_id, stored)


def set_user_server_enabled(db: PreferenceStore, user_id: str, key: str, enabled: bool) -> None:
    """Switch one of the person's servers on or off."""
    stored = _stored(db, user_id)
    if key not in stored:
        _refuse(f"you have no server '{key}'")
    stored[key]["enabled"] = enabled
    _store(db, user_id, stored)


def remove_user_server(db: PreferenceStore, user_id: str, key: str) -> None:
    """Forget one of the person's servers (nothing happens when it is already gone)."""
    stored = _stored(db, user_id)
    if stored.pop(key, None) is not None:
        _store(db, user_id, stored)


def merged_servers(
    file_set: ServerConfigSet, user: Mapping[str, ServerConfig]
) -> dict[str, ServerConfig]:
    """The configured servers plus the person's; a person's server never replaces one."""
    merged = dict(file_set.servers)
    for key, config in user.items():
        merged.setdefault(key, config)
    return merged


def check_user_server(
    config: ServerConfig,
    *,
    allow_stdio: bool | None = None,
    resolver: Resolver | None = system_resolver,
) -> ServerConfig:
    """`config` as a person's server, or SwiggyAssistantError saying what is wrong: E-3201
    for a broken rule, E-3209 for a host that is (or resolves to) a non-public address.
    With `resolver` None a host name is judged by itself, without a lookup."""
    if config.key in MCP_SERVERS:
        _refuse(f"'{config.key}' is one of the Swiggy servers; choose another key")
    if config.credential is not None:
        _refuse("a server you add cannot use a credential; only the app's own servers can")
    allowed = user_stdio_allowed() if allow_stdio is None else allow_stdio
    if config.transport == "stdio" and not allowed:
        _refuse(
            "this app does not let people add stdio servers (a command run on its host); "
            "add an http or sse server by its URL instead"
        )
    try:
        built = build_server(config.key, server_entry(config), origin="user")
    except EntryError as error:
        _refuse(error.message, key=config.key)
    if built.transport != "stdio":
        check_host(urlsplit(built.url).hostname or "", resolver)
    return built


def _refuse(message: str, *, key: str | None = None) -> NoReturn:
    where = f"server '{key}': " if key else ""
    raise McpServerError(f"{where}{message}", code=ErrorCode.SERVER_CONFIG)


def _stored(db: PreferenceStore, user_id: str) -> dict[str, dict[str, Any]]:
    value = db.get_preference(user_id, USER_SERVERS_PREFERENCE) or {}
    entries = value.get("servers")
    stored: dict[str, dict[str, Any]] = {}
    for entry in entries if isinstance(entries, list) else []:
        if isinstance(entry, dict) and isinstance(entry.get(_NAME), str):
            stored[entry[_NAME]] = {k: v for k, v in entry.items() if k != _NAME}
    return stored


def _store(db: PreferenceStore, user_id: str, stored: Mapping[str, Mapping[str, Any]]) -> None:
    entries = [{_NAME: key, **entry} for key, entry in stored.items()]
    db.set_preference(user_id, USER_SERVERS_PREFERENCE, {"servers": entries})
