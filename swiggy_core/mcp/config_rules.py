"""The rules one server entry must pass, the same for the file and for a person's own servers.

An entry is the table under `[servers.KEY]` (or a JSON object). The legacy form
`{"url": ..., "disabled": false}` (an SSE server, as the manager design it comes from defines
it), a nested `"transport": {"type": "sse", ...}` object and the common `mcpServers` entry
(`command`/`args`/`env`, or `type`/`url`) are all accepted.
Secrets are never accepted inline: the entry names a credential instead.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Final
from urllib.parse import parse_qsl, urlsplit

from swiggy_core.constants import LOOPBACK_HOSTS
from swiggy_core.mcp.records import (
    SECRET_PREFIX,
    SWIGGY_CREDENTIAL,
    TRANSPORTS,
    Origin,
    ServerConfig,
    Transport,
)
from swiggy_core.verticals.catalog import VERTICALS

SERVER_KEY_RE: Final = re.compile(r"[a-z0-9_-]{1,32}")
_SECRET_NAME_RE: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")
_NAME_RE: Final = re.compile(r"[A-Za-z0-9_.-]{1,64}")
# A header, env var or query parameter whose name holds one of these carries a credential.
_SECRET_WORDS: Final = ("token", "secret", "key", "password", "auth", "cookie")
_SECRET_VALUE_RE: Final = re.compile(r"^\s*(bearer|basic)\s|sk-ant-", re.I)
_TRANSPORT_ALIASES: Final[dict[str, Transport]] = {
    "stdio": "stdio",
    "http": "http",
    "streamable-http": "http",
    "streamable_http": "http",
    "streamablehttp": "http",
    "sse": "sse",
}
_FIELDS: Final = frozenset(
    {"transport", "type", "url", "headers", "command", "args", "env", "cwd"}
    | {"credential", "pages", "enabled", "disabled"}
)
_REMOTE_ONLY: Final = ("url", "headers")
_STDIO_ONLY: Final = ("command", "args", "env", "cwd")
_USE_CREDENTIAL: Final = (
    'never write secrets in the server configuration: set credential = "secret:NAME" '
    "and put the value in the app's secrets or environment"
)


class EntryError(ValueError):
    """One entry broke a rule; `field` is the offending setting (for finding its line)."""

    def __init__(self, field: str | None, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def build_server(
    key: str,
    raw: object,
    *,
    origin: Origin,
    default_pages: Sequence[str] | None = None,
    url_transport: Transport = "sse",
) -> ServerConfig:
    """The ServerConfig an entry describes; raises EntryError naming the first broken rule.

    `url_transport` is what an entry with a url and no transport speaks: SSE for the legacy
    form, unless the caller knows the server (Swiggy's own serve Streamable HTTP only).
    """
    if not SERVER_KEY_RE.fullmatch(key):
        raise EntryError(None, "a server key is 1 to 32 of the characters a-z, 0-9, _ and -")
    entry = _flatten(raw)
    unknown = sorted(set(entry) - _FIELDS)
    if unknown:
        known = ", ".join(sorted(_FIELDS))
        raise EntryError(unknown[0], f"unknown setting '{unknown[0]}' (known: {known})")
    transport = _transport(entry, url_transport)
    credential = _credential(entry.get("credential"))
    defaults = VERTICALS if default_pages is None else default_pages  # None: every page
    pages = _pages(entry.get("pages", list(defaults)))
    enabled = _enabled(entry)
    if transport == "stdio":
        _refuse_fields(entry, _REMOTE_ONLY, "stdio")
        return ServerConfig(
            key=key,
            transport=transport,
            command=_text(entry, "command", required="a stdio server needs a command"),
            args=_args(entry.get("args", [])),
            env=_names_and_values(entry.get("env", {}), "env", "environment variable"),
            cwd=_text(entry, "cwd") or None,
            credential=credential,
            pages=pages,
            enabled=enabled,
            origin=origin,
        )
    _refuse_fields(entry, _STDIO_ONLY, transport)
    url = _text(entry, "url", required=f"an {transport} server needs a url")
    problem = url_problem(url)
    if problem:
        raise EntryError("url", problem)
    return ServerConfig(
        key=key,
        transport=transport,
        url=url,
        headers=_names_and_values(entry.get("headers", {}), "headers", "header"),
        credential=credential,
        pages=pages,
        enabled=enabled,
        origin=origin,
    )


def server_entry(config: ServerConfig) -> dict[str, object]:
    """The entry that `build_server` turns back into `config` (for storing it)."""
    entry: dict[str, object] = {
        "transport": config.transport,
        "pages": list(config.pages),
        "enabled": config.enabled,
    }
    if config.credential is not None:
        entry["credential"] = config.credential
    if config.transport == "stdio":
        entry.update(command=config.command, args=list(config.args), env=dict(config.env))
        if config.cwd:
            entry["cwd"] = config.cwd
    else:
        entry.update(url=config.url, headers=dict(config.headers))
    return entry


def is_secret_name(name: str) -> bool:
    """True for a header, env var or query parameter name that carries a credential."""
    lowered = name.lower()
    return any(word in lowered for word in _SECRET_WORDS)


def url_problem(url: str) -> str | None:
    """Why `url` cannot be a server address, or None: http(s), https off loopback, no secret."""
    if not url.isprintable() or any(ch.isspace() for ch in url):
        return "url contains spaces or control characters"
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError on a malformed port
    except ValueError:
        return "url is not a valid URL"
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "url must be an http(s) URL such as https://example.com/mcp"
    if parts.username or parts.password:
        return f"url must not carry a user or password; {_USE_CREDENTIAL}"
    for name, _value in parse_qsl(parts.query, keep_blank_values=True):
        if is_secret_name(name):
            return f"url parameter '{name}=' carries a secret; {_USE_CREDENTIAL}"
    if parts.scheme == "http" and parts.hostname not in LOOPBACK_HOSTS:
        return "url must use https (plain http only for 127.0.0.1, localhost or ::1)"
    return None


def _flatten(raw: object) -> dict[str, object]:
    """The entry as one flat table; a nested `transport = {type = ..., url = ...}` is lifted."""
    if not isinstance(raw, Mapping):
        raise EntryError(None, "must be a table of settings (url or command, pages, ...)")
    entry = {str(name): value for name, value in raw.items()}
    nested = entry.get("transport")
    if isinstance(nested, Mapping):
        del entry["transport"]
        for name, value in nested.items():
            name = str(name)
            if name in entry and entry[name] != value:
                raise EntryError(name, f"'{name}' is given twice with different values")
            entry[name] = value
    return entry


def _transport(entry: Mapping[str, object], url_transport: Transport) -> Transport:
    named = [entry[name] for name in ("transport", "type") if name in entry]
    if len(named) == 2 and named[0] != named[1]:
        raise EntryError("type", "'transport' and 'type' disagree")
    if named:
        value = named[0]
        transport = _TRANSPORT_ALIASES.get(value.lower()) if isinstance(value, str) else None
        if transport is None:
            field = "transport" if "transport" in entry else "type"
            raise EntryError(field, f"transport must be one of {', '.join(TRANSPORTS)}")
        return transport
    if "command" in entry and "url" in entry:
        raise EntryError("command", "give a url (http, sse) or a command (stdio), not both")
    if "command" in entry:
        return "stdio"
    if "url" in entry:
        return url_transport
    raise EntryError(None, "needs a url (http or sse server) or a command (stdio server)")


def _refuse_fields(entry: Mapping[str, object], fields: Sequence[str], transport: str) -> None:
    for name in fields:
        if name in entry:
            article = "a" if transport == "stdio" else "an"
            raise EntryError(name, f"'{name}' does not apply to {article} {transport} server")


def _text(entry: Mapping[str, object], name: str, *, required: str = "") -> str:
    """The string setting `name`; `required` is the message when it is missing or empty."""
    value = entry.get(name, "")
    if not isinstance(value, str):
        raise EntryError(name, f"'{name}' must be a string")
    value = value.strip()
    if required and not value:
        raise EntryError(name if name in entry else None, required)
    return value


def _credential(value: object) -> str | None:
    if value is None or value == "":
        return None
    if value == SWIGGY_CREDENTIAL:
        return SWIGGY_CREDENTIAL
    name = value.removeprefix(SECRET_PREFIX) if isinstance(value, str) else ""
    if (
        isinstance(value, str)
        and value.startswith(SECRET_PREFIX)
        and _SECRET_NAME_RE.fullmatch(name)
    ):
        return value
    raise EntryError("credential", 'credential must be "swiggy" or "secret:NAME"')


def _pages(value: object) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or not all(isinstance(p, str) for p in value):
        raise EntryError("pages", "pages must be a list of page ids")
    for page in value:
        if page not in VERTICALS:
            known = ", ".join(VERTICALS)
            raise EntryError("pages", f"unknown page '{page}' (pages are: {known})")
    return tuple(dict.fromkeys(value))


def _enabled(entry: Mapping[str, object]) -> bool:
    for name in ("enabled", "disabled"):
        if name in entry and not isinstance(entry[name], bool):
            raise EntryError(name, f"'{name}' must be true or false")
    enabled = bool(entry.get("enabled", True))
    if "disabled" in entry:
        if "enabled" in entry and entry["disabled"] == enabled:
            raise EntryError("disabled", "'enabled' and 'disabled' disagree")
        enabled = not entry["disabled"]
    return enabled


def _args(value: object) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or not all(isinstance(a, str) for a in value):
        raise EntryError("args", "args must be a list of strings")
    for index, arg in enumerate(value):
        flag, has_value, _ = arg.lstrip("-").partition("=")
        takes_next = index + 1 < len(value) and not value[index + 1].startswith("-")
        if arg.startswith("-") and is_secret_name(flag) and (has_value or takes_next):
            raise EntryError(
                "args", f"argument '{arg.split('=')[0]}' passes a secret; {_USE_CREDENTIAL}"
            )
        if _SECRET_VALUE_RE.search(arg):
            raise EntryError("args", f"an argument looks like a secret; {_USE_CREDENTIAL}")
    return tuple(value)


def _names_and_values(value: object, field: str, what: str) -> dict[str, str]:
    if not isinstance(value, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        raise EntryError(field, f"{field} must be a table of names and string values")
    for name, item in value.items():
        # Names are single words and values one printable line (no header injection).
        if not _NAME_RE.fullmatch(name) or not item.isprintable():
            raise EntryError(name, f"{what} '{name[:40]}' has a malformed name or value")
        if is_secret_name(name):
            raise EntryError(name, f"{what} '{name}' carries a secret; {_USE_CREDENTIAL}")
        if _SECRET_VALUE_RE.search(item):
            raise EntryError(name, f"{what} '{name}' looks like a secret; {_USE_CREDENTIAL}")
    return dict(value)
