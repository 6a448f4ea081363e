"""Serve one sandbox MCP server over stdio (`python -m swiggy_sandbox.servers food --stdio`)."""

from __future__ import annotations

import os
from datetime import datetime

from swiggy_sandbox.servers.auth import DEMO_TOKEN, TOKEN_ENV_VAR, TokenStore
from swiggy_sandbox.servers.registry import build_server
from swiggy_sandbox.servers.summary import ResultForm, resolve_result_form
from swiggy_sandbox.shop import DEFAULT_BASE_URL, IN_MEMORY_URL, Clock, Shop, system_clock

DB_ENV_VAR = "SWIGGY_SANDBOX_DB"
BASE_URL_ENV_VAR = "SWIGGY_SANDBOX_BASE_URL"
NOW_ENV_VAR = "SWIGGY_SANDBOX_NOW"


def clock_from_env() -> Clock:
    """A clock frozen at $SWIGGY_SANDBOX_NOW (ISO 8601 with offset) if set, else real time."""
    frozen = os.environ.get(NOW_ENV_VAR)
    if not frozen:
        return system_clock
    moment = datetime.fromisoformat(frozen)
    if moment.tzinfo is None:
        raise ValueError(f"{NOW_ENV_VAR} needs a UTC offset, e.g. 2026-11-24T13:00:00+05:30")
    return lambda: moment


def run_stdio(
    server_key: str,
    *,
    token: str | None = None,
    db_url: str | None = None,
    base_url: str | None = None,
    result_form: ResultForm | None = None,
) -> None:
    """Run `server_key` on stdin/stdout until the client disconnects.

    The caller is the user of `token` (default: $SWIGGY_SANDBOX_TOKEN, else the demo token);
    an unknown token makes every tool answer with a 401 envelope. State lives in
    $SWIGGY_SANDBOX_DB (an SQLAlchemy URL; in memory by default); image URLs use
    $SWIGGY_SANDBOX_BASE_URL (where a sandbox HTTP server serves /img); $SWIGGY_SANDBOX_NOW
    freezes the clock for deterministic runs; `result_form` (default:
    $SWIGGY_SANDBOX_RESULT_FORM, else envelope) picks the envelope text or a summary with
    structuredContent.
    """
    token = token or os.environ.get(TOKEN_ENV_VAR) or DEMO_TOKEN
    form = resolve_result_form(result_form)  # a bad value fails before anything starts
    shop = Shop(
        db_url=db_url or os.environ.get(DB_ENV_VAR) or IN_MEMORY_URL,
        base_url=base_url or os.environ.get(BASE_URL_ENV_VAR) or DEFAULT_BASE_URL,
        clock=clock_from_env(),
    )
    user = TokenStore().user_for(token)
    server = build_server(server_key, shop, default_user=user, result_form=form)
    try:
        server.run("stdio")
    finally:
        shop.close()
