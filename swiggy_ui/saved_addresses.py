"""The person's saved addresses, read by the app itself and kept for the session.

The shop header's "Deliver to" chooser and Connections use it; the read is audited like
every other call the app makes on its own.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from swiggy_core.constants import CONNECTIONS_AUDIT_PAGE
from swiggy_core.errors import SwiggyAssistantError
from swiggy_core.parsers import AddressItem
from swiggy_core.saved_addresses import ADDRESSES_TOOL, saved_addresses
from swiggy_ui import state
from swiggy_ui.runtime import Runtime

_CACHE_KEY = "saved_addresses"


def load_saved_addresses(
    runtime: Runtime, page: str = CONNECTIONS_AUDIT_PAGE, *, fresh: bool = False
) -> list[AddressItem] | None:
    """The saved addresses (read once per session and world); None when they cannot be
    read (no sign-in yet, a server that is down). Raises nothing."""
    key = f"{_CACHE_KEY}::{state.backend()}"
    cached: list[AddressItem] | None = st.session_state.get(key)
    if cached is not None and not fresh:
        return cached
    # The MCP client loads with the first read, not with the shop page's header.
    from swiggy_core.hooks import CallScope
    from swiggy_core.hooks.audited import run_audited
    from swiggy_core.mcp.manager import shared_manager

    token = runtime.mcp_token()
    if not token:
        return None
    url = runtime.app.server_urls["instamart"]
    scope = CallScope(runtime.user_id, page)

    def read(tool: str, arguments: dict[str, Any]) -> str:
        info = scope.info("instamart", tool, arguments)
        call = lambda: shared_manager().call_tool(url, token, tool, arguments)  # noqa: E731
        return run_audited(info, call, runtime.store.record_tool_call).envelope_text()

    try:
        found = saved_addresses(read)
    except SwiggyAssistantError:
        return None
    st.session_state[key] = found
    return found


def address_line(item: AddressItem) -> str:
    """ "Home · 12th Main, Indiranagar" (plain text, for a select box)."""
    return " · ".join(part for part in (item.label or "Address", item.address) if part)


__all__ = ["ADDRESSES_TOOL", "address_line", "load_saved_addresses"]
