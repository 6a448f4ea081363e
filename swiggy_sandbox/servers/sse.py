"""The sandbox servers over the older HTTP+SSE transport: `GET /sse/im`, `POST /messages/im/`.

Same servers, same shop and the same token gate as the Streamable HTTP endpoints; only the
wire differs, so clients that speak SSE (and the app's manager tests) can use the sandbox.
"""

from __future__ import annotations

from collections.abc import Mapping

from starlette.routing import BaseRoute, Mount, Route

from swiggy_core.constants import MCP_SERVERS
from swiggy_sandbox.servers.envelope import SandboxServer

SSE_PREFIX = "/sse"
MESSAGES_PREFIX = "/messages"


def sse_path(key: str) -> str:
    """Where the event stream of server `key` opens ("/sse/im")."""
    return f"{SSE_PREFIX}{MCP_SERVERS[key].path}"


def messages_path(key: str) -> str:
    """Where clients post their messages for server `key` ("/messages/im", then "/")."""
    return f"{MESSAGES_PREFIX}{MCP_SERVERS[key].path}"


def gated_paths() -> dict[str, str]:
    """Path → server key for the token gate (it compares paths without a trailing slash)."""
    paths = {sse_path(key): key for key in MCP_SERVERS}
    paths.update({messages_path(key): key for key in MCP_SERVERS})
    return paths


def sse_routes(servers: Mapping[str, SandboxServer]) -> list[BaseRoute]:
    """The GET stream and the POST endpoint of every server, taken from its own SSE app."""
    routes: list[BaseRoute] = []
    for key, server in servers.items():
        app = server.sse_app(sse_path=sse_path(key), message_path=f"{messages_path(key)}/")
        wanted = {sse_path(key), messages_path(key)}
        routes.extend(
            route
            for route in app.routes
            if isinstance(route, Route | Mount) and route.path.rstrip("/") in wanted
        )
    return routes
