"""Error banners: a code, a short message, and the fix (Connections, Reconnect, Retry)."""

from __future__ import annotations

import streamlit as st

from swiggy_core.errors import ErrorCode
from swiggy_core.models import ErrorInfo
from swiggy_core.retry_after import try_again_text
from swiggy_core.store.fallback import TEMPORARY_STORE_MESSAGE
from swiggy_ui.safe_text import inline_code, plain

CONNECTIONS_PAGE = "app_pages/connections.py"
KEY_RECONNECT = "swiggy_reconnect"  # Connections then says Swiggy refused the sign-in
_SWIGGY_CATEGORIES = frozenset({"permission", "tool_auth", "tool_revoked", "tool_forbidden"})
_RATE_LIMIT_CATEGORIES = frozenset({"rate_limit", "tool_rate_limit"})
_RETRY_CATEGORIES = frozenset(
    {
        "overloaded",
        "server",
        "network",
        "timeout",
        "stream",
        "tool_server",
        "tool_internal",
        "unknown",
    }
)


def error_banner(error: ErrorInfo, *, key: str) -> bool:
    """Show the banner for `error`; True when the person pressed Retry."""
    text = f"**{plain(error.code)}** · {plain(error.message)}"
    if error.category == "auth":
        st.error(text + " Open **Connections** to fix the key.", icon=":material/key:")
        st.page_link(CONNECTIONS_PAGE, label="Open Connections", icon=":material/settings:")
        return False
    if error.category in _SWIGGY_CATEGORIES:
        st.error(text, icon=":material/lock:")
        st.session_state[KEY_RECONNECT] = True
        st.page_link(CONNECTIONS_PAGE, label="Reconnect Swiggy", icon=":material/link:")
        return False
    if error.category in _RATE_LIMIT_CATEGORIES:
        # The wait is said here only: the message itself never carries it.
        hint = " " + try_again_text(error.retry_after_seconds)
        st.warning(text + hint, icon=":material/hourglass_top:")
        return st.button("Retry", key=f"{key}-retry", icon=":material/refresh:")
    if error.category == "tool_address":
        st.warning(text, icon=":material/location_off:")
        return False
    if error.category == "input":
        st.warning(text, icon=":material/edit_note:")
        return False
    if error.category == "store":
        st.error(text, icon=":material/database:")
        return False
    if error.category == "approval":
        st.warning(text, icon=":material/gpp_maybe:")
        return False
    st.error(text, icon=":material/error:")
    if error.category in _RETRY_CATEGORIES:
        return st.button("Retry", key=f"{key}-retry", icon=":material/refresh:")
    return False


def report_offer(error: ErrorInfo, *, key: str) -> bool:
    """A "Report to Swiggy" button under a tool that kept failing; True when pressed."""
    if not error.report_tool:
        return False
    st.caption(
        f"{inline_code(error.report_tool)} kept failing. You can send Swiggy an error report "
        "(the tool name and its error message only)."
    )
    return st.button("Report to Swiggy", key=f"{key}-report", icon=":material/bug_report:")


def temporary_store_banner() -> None:
    """Every page says that chats last only until a restart (a temporary database)."""
    st.warning(
        f"**{ErrorCode.STORE_TEMPORARY}** · {TEMPORARY_STORE_MESSAGE}",
        icon=":material/history_toggle_off:",
    )
