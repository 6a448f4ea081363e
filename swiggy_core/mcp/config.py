"""The MCP servers the app may use: their transports, credentials and pages, from a file.

`mcp_servers.toml` (JSON accepted) lists each server under a key. Secrets are never written
in the file: a server names a credential (`"swiggy"` for the person's Swiggy sign-in,
`"secret:NAME"` for a deployment secret), resolved only when a session is opened.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

Transport = Literal["stdio", "http", "sse"]
Origin = Literal["default", "file", "user"]
SWIGGY_CREDENTIAL = "swiggy"
SECRET_PREFIX = "secret:"


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """One configured MCP server; `key` is unique and names the server everywhere."""

    key: str
    transport: Transport
    url: str = ""  # http / sse
    headers: Mapping[str, str] = field(default_factory=dict)  # http / sse, never a secret
    command: str = ""  # stdio
    args: tuple[str, ...] = ()  # stdio
    env: Mapping[str, str] = field(default_factory=dict)  # stdio, never a secret
    cwd: str | None = None  # stdio
    credential: str | None = None  # "swiggy" | "secret:NAME" | None
    pages: tuple[str, ...] = ()  # vertical ids whose page offers this server's tools
    enabled: bool = True
    origin: Origin = "file"

    @property
    def target(self) -> str:
        """Where it runs, for people and logs: the URL, or the command line."""
        if self.transport == "stdio":
            return " ".join((self.command, *self.args))
        return self.url


@dataclass(frozen=True, slots=True)
class ResolvedServer:
    """A server with its credential looked up for one person (the token is never shown)."""

    config: ServerConfig
    token: str | None = field(default=None, repr=False)
