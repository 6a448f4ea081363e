"""Server keys (as in swiggy_core.constants.MCP_SERVERS) → factories and write tools."""

from __future__ import annotations

from collections.abc import Callable

from swiggy_core.constants import MCP_SERVERS
from swiggy_sandbox.servers import dineout, food, instamart
from swiggy_sandbox.servers.auth import DEMO_USER
from swiggy_sandbox.servers.envelope import SandboxServer
from swiggy_sandbox.servers.summary import ResultForm, resolve_result_form
from swiggy_sandbox.shop import Shop

Factory = Callable[..., SandboxServer]

FACTORIES: dict[str, Factory] = {
    "instamart": instamart.build_instamart_server,
    "food": food.build_food_server,
    "dineout": dineout.build_dineout_server,
}
# Tools that change state: they also count against the per-minute write limit.
WRITE_TOOLS: dict[str, frozenset[str]] = {
    "instamart": instamart.WRITE_TOOLS,
    "food": food.WRITE_TOOLS,
    "dineout": dineout.WRITE_TOOLS,
}
SERVER_KEYS = tuple(FACTORIES)
assert set(SERVER_KEYS) == set(MCP_SERVERS), "sandbox servers must mirror MCP_SERVERS"


def build_server(
    key: str,
    shop: Shop,
    *,
    default_user: str | None = DEMO_USER,
    result_form: ResultForm | None = None,
) -> SandboxServer:
    """The MCP server for `key` ('instamart', 'food' or 'dineout') over `shop`.

    `result_form` "envelope" or "summary" (default: $SWIGGY_SANDBOX_RESULT_FORM, else envelope).
    """
    try:
        factory = FACTORIES[key]
    except KeyError:
        raise ValueError(
            f"unknown server {key!r}; expected one of {', '.join(SERVER_KEYS)}"
        ) from None
    server = factory(shop, default_user=default_user)
    server.result_form = resolve_result_form(result_form)
    return server
