"""Swiggy-shaped MCP servers (Instamart, Food, Dineout) over Streamable HTTP and stdio."""

from swiggy_sandbox.servers.auth import DEMO_TOKEN, DEMO_USER, TOKEN_ENV_VAR, TokenState, TokenStore
from swiggy_sandbox.servers.dineout import build_dineout_server
from swiggy_sandbox.servers.envelope import SandboxServer, fail, ok
from swiggy_sandbox.servers.food import build_food_server
from swiggy_sandbox.servers.http_app import build_http_app
from swiggy_sandbox.servers.instamart import build_instamart_server
from swiggy_sandbox.servers.ratelimit import RateLimiter, RateLimits
from swiggy_sandbox.servers.registry import SERVER_KEYS, WRITE_TOOLS, build_server
from swiggy_sandbox.servers.runner import SandboxHttpServer
from swiggy_sandbox.servers.stdio import run_stdio

__all__ = [
    "DEMO_TOKEN",
    "DEMO_USER",
    "SERVER_KEYS",
    "TOKEN_ENV_VAR",
    "WRITE_TOOLS",
    "RateLimiter",
    "RateLimits",
    "SandboxHttpServer",
    "SandboxServer",
    "TokenState",
    "TokenStore",
    "build_dineout_server",
    "build_food_server",
    "build_http_app",
    "build_instamart_server",
    "build_server",
    "fail",
    "ok",
    "run_stdio",
]
