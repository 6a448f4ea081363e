"""Which engine runs a turn: by the name a `TurnSetup` carries, or chosen from the settings."""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlsplit

from swiggy_core.constants import LOOPBACK_HOSTS
from swiggy_core.engine.connector import ConnectorEngine
from swiggy_core.engine.local import LocalEngine
from swiggy_core.engine.protocol import Engine
from swiggy_core.engine.setup import EngineName

# The app's engines by name (neither holds state between turns).
ENGINES: Mapping[str, Engine] = {"connector": ConnectorEngine(), "local": LocalEngine()}


def engine_named(name: EngineName) -> Engine:
    """The engine a `TurnSetup.engine` names."""
    return ENGINES[name]


def choose_engine(
    settings_engine: str,
    *,
    base_url: str | None,
    server_urls: Mapping[str, str] | None,
    result_form: str = "auto",
) -> Engine:
    """The engine set (`connector` or `local`); `auto` picks the one that can use the servers.

    The rule for `auto`, first match wins:
    1. MCP servers on this machine and a model endpoint that is not → `local`: the
       connector runs on Anthropic's side and cannot reach this machine. (A model endpoint
       on this machine, the emulator, can reach them.)
    2. Results known to be summary-only through the connector → `local`: the connector may
       pass on only a result's text, while the app, calling the tools itself, also gets the
       data in `structuredContent`. `result_form` says how the servers answer:
       "summary" (prose + structuredContent; SWIGGY_RESULT_FORM=summary, or the sandbox
       started with SWIGGY_SANDBOX_RESULT_FORM=summary), "envelope" (the JSON as text,
       readable through either engine), or "auto" (not known: assumed "summary" for real
       Swiggy, as integrators report from live use, and "envelope" for servers on this
       machine, the sandbox's default).
    3. Otherwise → `connector`.
    """
    if settings_engine in ENGINES:
        return ENGINES[settings_engine]
    servers_local = any(_is_loopback(url) for url in (server_urls or {}).values())
    if servers_local and not _is_loopback(base_url):
        return ENGINES["local"]
    summary_only = result_form == "summary" or (result_form == "auto" and not servers_local)
    return ENGINES["local" if summary_only else "connector"]


def _is_loopback(url: str | None) -> bool:
    host = (urlsplit(url).hostname or "") if url else ""
    return host in LOOPBACK_HOSTS or host.startswith("127.")
