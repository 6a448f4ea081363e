"""One Starlette app: the three MCP servers at /im, /food, /dineout (and over SSE at
/sse/im...), plus /img, the UPI payment simulator at /pay and metadata."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from swiggy_core.constants import MCP_SERVERS
from swiggy_sandbox.auth_server import AuthorizationServer, AuthSettings, auth_routes
from swiggy_sandbox.catalog import IMAGE_KINDS, render_svg
from swiggy_sandbox.servers.auth import TokenStore
from swiggy_sandbox.servers.envelope import SandboxServer
from swiggy_sandbox.servers.gate import McpGate
from swiggy_sandbox.servers.pay_page import pay_routes
from swiggy_sandbox.servers.ratelimit import RateLimiter, RateLimits
from swiggy_sandbox.servers.registry import SERVER_KEYS, WRITE_TOOLS, build_server
from swiggy_sandbox.servers.sse import gated_paths, sse_routes
from swiggy_sandbox.servers.summary import ResultForm, resolve_result_form
from swiggy_sandbox.shop import Clock, Shop, system_clock

SCOPES = ["mcp:tools", "mcp:resources", "mcp:prompts"]
_IMAGE_CACHE_SECONDS = 86_400


def _metadata_url(base_url: str) -> str:
    """Where the 401 challenge points: the root form, which (as on Swiggy) is not JSON."""
    return f"{base_url}/.well-known/oauth-protected-resource"


def _metadata_routes(base_url: str, authorization_server: str) -> list[BaseRoute]:
    routes: list[BaseRoute] = []
    for spec in MCP_SERVERS.values():
        document: dict[str, object] = {
            "resource": f"{base_url}{spec.path}",
            "authorization_servers": [authorization_server],
            "scopes_supported": SCOPES,
            "bearer_methods_supported": ["header"],
            "resource_name": spec.name,
        }

        async def metadata(request: Request, document: dict[str, object] = document) -> Response:
            return JSONResponse(document)

        # Both the RFC 9728 form and Swiggy's per-path form (/food/.well-known/...).
        routes.append(Route(f"/.well-known/oauth-protected-resource{spec.path}", metadata))
        routes.append(Route(f"{spec.path}/.well-known/oauth-protected-resource", metadata))
    return routes


def _image_route(shop: Shop) -> Route:
    async def image(request: Request) -> Response:
        kind, item_id = request.path_params["kind"], request.path_params["item_id"]
        svg = render_svg(shop.catalog, kind, item_id) if kind in IMAGE_KINDS else None
        if svg is None:
            return Response("not found", status_code=404, media_type="text/plain")
        headers = {"cache-control": f"public, max-age={_IMAGE_CACHE_SECONDS}"}
        return Response(svg, media_type="image/svg+xml", headers=headers)

    return Route("/img/{kind}/{item_id}.svg", image)


async def _health(request: Request) -> Response:
    return JSONResponse({"status": "ok", "servers": list(SERVER_KEYS)})


def build_http_app(
    base_url: str,
    store: TokenStore | None = None,
    *,
    shop: Shop | None = None,
    limits: RateLimits | None = None,
    clock: Clock = system_clock,
    db_url: str = "sqlite://",
    authorization_server: str | None = None,
    limiter_clock: Callable[[], float] = time.time,
    auth: AuthSettings | None = None,
    result_form: ResultForm | None = None,
) -> Starlette:
    """The sandbox HTTP app; endpoint URLs are exactly `{base_url}/im`, `/food`, `/dineout`.

    `base_url` must be the address clients use (image URLs in payloads are built from it).
    `result_form`: "envelope" or "summary" (default: $SWIGGY_SANDBOX_RESULT_FORM, else envelope).
    """
    base_url = base_url.rstrip("/")
    store = store or TokenStore()
    form = resolve_result_form(result_form)
    shop = shop or Shop(db_url=db_url, clock=clock, base_url=base_url)
    servers: dict[str, SandboxServer] = {
        key: build_server(key, shop, default_user=None, result_form=form) for key in SERVER_KEYS
    }
    routes: list[BaseRoute] = []
    for key, server in servers.items():
        # The sub-app's only MCP route already sits at the server's path; reuse it directly
        # (a Mount would answer at /im/ and redirect /im).
        sub_app = server.streamable_http_app(streamable_http_path=MCP_SERVERS[key].path)
        routes.extend(r for r in sub_app.routes if getattr(r, "path", "") == MCP_SERVERS[key].path)
    routes += sse_routes(servers)
    routes += _metadata_routes(base_url, authorization_server or f"{base_url}/auth")
    # The authorization server issues into the same store the gate checks.
    resources = [f"{base_url}{spec.path}" for spec in MCP_SERVERS.values()]
    auth_server = AuthorizationServer(base_url, store, resources, auth)
    routes += auth_routes(auth_server)
    routes += [_image_route(shop), Route("/health", _health), *pay_routes(shop)]

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # Each server's session manager must run for its endpoint to accept sessions.
        async with AsyncExitStack() as stack:
            for server in servers.values():
                await stack.enter_async_context(server.session_manager.run())
            yield

    # The SSE stream and message paths sit behind the same gate as the Streamable HTTP ones.
    endpoints = {**{spec.path: key for key, spec in MCP_SERVERS.items()}, **gated_paths()}
    gate = Middleware(
        McpGate,
        store=store,
        limiter=RateLimiter(limits or RateLimits(), limiter_clock),
        endpoints=endpoints,
        write_tools=WRITE_TOOLS,
        metadata_url={path: _metadata_url(base_url) for path in endpoints},
    )
    app = Starlette(routes=routes, lifespan=lifespan, middleware=[gate])
    app.state.shop, app.state.store = shop, store
    app.state.auth = auth_server
    app.state.result_form = form
    return app
