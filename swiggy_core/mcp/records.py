"""The records of the server configuration: one server, its resolved credential, a problem."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

Transport = Literal["stdio", "http", "sse"]
Origin = Literal["default", "file", "user"]
TRANSPORTS: tuple[Transport, ...] = ("stdio", "http", "sse")
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


@dataclass(frozen=True, slots=True)
class ConfigProblem:
    """Why one server (or the whole file) was not used, with the line where it is written."""

    line: int | None
    key: str | None
    message: str
    source: str = "mcp_servers.toml"

    def __str__(self) -> str:
        where = self.source if self.line is None else f"{self.source} line {self.line}"
        server = "" if self.key is None else f"server '{self.key}': "
        return f"{where}: {server}{self.message}"


@dataclass(frozen=True, slots=True)
class ServerConfigSet:
    """Every usable server by key (defaults included) and the problems met reading the file."""

    servers: dict[str, ServerConfig]
    problems: list[ConfigProblem]
    source: str
