"""Which MCP servers a person uses, resolved for a turn, and the process-wide health poller.

The servers of one world are the config file's (or the defaults) with the sandbox's
endpoints in place of Swiggy's in the sandbox world, plus the person's own. Health statuses
are shared by every session and replica, so they are keyed by world (and by person for a
person's own server): the sandbox's "instamart" and Swiggy's are different servers, and two
people may each have a server called "notes". The poller probes the app's servers with
process-level credentials only (the sandbox's own token, the owner's Swiggy token,
deployment secrets); a person's token, and a person's own servers, are probed only by their
own Refresh.
"""

from __future__ import annotations

import dataclasses
import hashlib
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from swiggy_core.constants import HEALTH_MIN_INTERVAL_SECONDS
from swiggy_core.mcp.config import (
    ResolvedServer,
    ServerConfig,
    ServerConfigSet,
    resolve_credential,
    sandbox_servers,
    servers_for_page,
)
from swiggy_core.mcp.health import HealthBoard, ServerStatus
from swiggy_core.mcp.user_servers import merged_servers
from swiggy_core.shared_state import shared_state

if TYPE_CHECKING:
    from swiggy_core.hooks import ToolHooks
    from swiggy_core.mcp.manager import ServerHealth
    from swiggy_core.store import ChatStore
    from swiggy_sandbox.runtime import SandboxServices

PROBE_USER = "health-probe"  # the manager's session owner for the poller's probes


def world_servers(
    file_set: ServerConfigSet, sandbox: SandboxServices | None
) -> dict[str, ServerConfig]:
    """The file's servers, with the sandbox's endpoints for Swiggy's keys in the sandbox.

    A sandbox session never reaches real Swiggy, whatever the file says; the file still
    decides whether such a server is on and which pages use it.
    """
    servers = dict(file_set.servers)
    if sandbox is None:
        return servers
    for key, local in sandbox_servers(sandbox.mcp.base_url).items():
        named = servers.get(key)
        servers[key] = (
            local
            if named is None
            else dataclasses.replace(local, enabled=named.enabled, pages=named.pages)
        )
    return servers


def in_use(
    file_set: ServerConfigSet, sandbox: SandboxServices | None, user: Mapping[str, ServerConfig]
) -> dict[str, ServerConfig]:
    """Every server of this person in this world (file, defaults or sandbox, their own)."""
    world = ServerConfigSet(
        servers=world_servers(file_set, sandbox), problems=[], source=file_set.source
    )
    return merged_servers(world, user)


def health_key(config: ServerConfig, world: str, user_id: str) -> str:
    """The health board's key: per world, and per person for a person's own server.

    The person appears only as a digest: the shared state (Redis) never lists who they are.
    """
    if config.origin == "user":
        person = hashlib.sha256(user_id.encode()).hexdigest()[:16]
        return f"user/{person}/{config.key}"
    return f"{world}/{config.key}"


def resolved(
    config: ServerConfig, *, swiggy_token: str | None, secrets: Mapping[str, str]
) -> ResolvedServer:
    return ResolvedServer(
        config, resolve_credential(config, swiggy_token=swiggy_token, secrets=secrets)
    )


def extra_servers(
    servers: Mapping[str, ServerConfig],
    vertical_id: str,
    *,
    swiggy_token: str | None,
    secrets: Mapping[str, str],
) -> tuple[ResolvedServer, ...]:
    """The non-Swiggy servers that offer tools on this page, with this person's credentials."""
    return tuple(
        resolved(config, swiggy_token=swiggy_token, secrets=secrets)
        for config in servers_for_page(servers, vertical_id)
    )


def turn_hooks(store: ChatStore, servers: Mapping[str, ServerConfig]) -> ToolHooks:
    """The session's default hooks, refusing (E-3206) calls to a server switched off."""
    from swiggy_core.hooks.rules import default_hooks
    from swiggy_core.mcp.budget import RateBudget

    off = frozenset(key for key, config in servers.items() if not config.enabled)
    budget = RateBudget(shared_state())
    return default_hooks(store.record_tool_call, budget=budget, disabled=lambda: off)


# -- health ------------------------------------------------------------------------------
@dataclass(frozen=True)
class HealthTarget:
    """One server as the health board sees it: its board key, the server, who probes it."""

    key: str  # `health_key`: per world, and per person for a person's own server
    server: ResolvedServer
    user: str  # the manager's session owner for the probe (never shared across people)

    @property
    def board_config(self) -> ServerConfig:
        """The config under its board key (the board keys statuses by `config.key`)."""
        return dataclasses.replace(self.server.config, key=self.key)


def targets(
    servers: Mapping[str, ServerConfig],
    *,
    world: str,
    user_id: str,
    token: str | None,
    secrets: Mapping[str, str],
) -> dict[str, HealthTarget]:
    """Server key → its health target, probed with `token`."""
    return {
        key: HealthTarget(
            key=health_key(config, world, user_id),
            server=resolved(config, swiggy_token=token, secrets=secrets),
            # A person's server is probed in their own session; the app's per world.
            user=user_id if config.origin == "user" else f"{PROBE_USER}@{world}",
        )
        for key, config in servers.items()
    }


def pollable(server: ResolvedServer) -> bool:
    """On, the app's own, and either needing no credential or holding the process's one
    (probing Swiggy without a token would only ever report it as refusing us)."""
    config = server.config
    needs_token = config.credential is not None
    return (
        config.enabled and config.origin != "user" and (server.token is not None or not needs_token)
    )


class WatchedServers:
    """The servers the poller probes, with process-level credentials only."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._targets: dict[str, HealthTarget] = {}

    def watch(self, watched: Iterable[HealthTarget]) -> None:
        with self._lock:
            self._targets.update((target.key, target) for target in watched)

    def get(self, key: str) -> HealthTarget | None:
        with self._lock:
            return self._targets.get(key)

    def configs(self) -> list[ServerConfig]:
        with self._lock:
            return [target.board_config for target in self._targets.values()]


@dataclass(frozen=True)
class HealthService:
    """The process's poller and the servers it watches."""

    watched: WatchedServers
    board: HealthBoard

    @classmethod
    def start(cls, *, poll: bool) -> HealthService:
        """Polls every watched server at most every 10 s (when `poll`)."""
        watched = WatchedServers()
        board = HealthBoard(
            shared_state(), _probe_with(watched.get), min_interval=HEALTH_MIN_INTERVAL_SECONDS
        )
        if poll:
            board.start(watched.configs)
        return cls(watched=watched, board=board)


def _probe_with(lookup: Callable[[str], HealthTarget | None]) -> Callable[..., ServerHealth]:
    def probe(config: ServerConfig) -> ServerHealth:
        from swiggy_core.mcp.manager import shared_manager

        target = lookup(config.key)
        if target is None:  # not watched any more: probe it as configured, nobody's session
            return shared_manager().health(config, user=PROBE_USER)
        return shared_manager().health(target.server, user=target.user)

    return probe


def refresh(
    to_probe: Sequence[HealthTarget], *, min_interval: float = HEALTH_MIN_INTERVAL_SECONDS
) -> dict[str, ServerStatus]:
    """Probe these servers now; the board still probes none twice in 10 s (any replica).

    A board of its own, over the shared state, so the person's credentials are used for
    this probe and never kept by the process-wide poller.
    """
    by_key = {target.key: target for target in to_probe}
    board = HealthBoard(shared_state(), _probe_with(by_key.get), min_interval=min_interval)
    return board.check([target.board_config for target in to_probe], force=True)
