"""Error banners: a short message, the fix (Connections, Reconnect, Retry), and the code
as a small caption for support."""

from __future__ import annotations

import re

import streamlit as st

from swiggy_core.errors import ErrorCode
from swiggy_core.models import ErrorInfo
from swiggy_core.retry_after import try_again_text
from swiggy_core.store.fallback import TEMPORARY_STORE_MESSAGE
from swiggy_ui.safe_text import plain

CONNECTIONS_PAGE = "app_pages/connections.py"
KEY_RECONNECT = "swiggy_reconnect"  # Connections then says Swiggy refused the sign-in
_SWIGGY_CATEGORIES = frozenset({"permission", "tool_auth", "tool_revoked", "tool_forbidden"})
_RATE_LIMIT_CATEGORIES = frozenset({"rate_limit", "tool_rate_limit"})
_WARNING_ICONS = {
    "tool_address": ":material/location_off:",
    "input": ":material/edit_note:",
    "approval": ":material/gpp_maybe:",
}
SUPPORT_CODE_RE = re.compile(r"E-\d{4}")
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
    """Show the banner for `error`, its code under it; True when the person pressed Retry."""
    text = plain(error.message)
    if error.category == "auth":
        st.error(text + " Open **Connections** to fix the key.", icon=":material/key:")
        support_code(error.code)
        st.page_link(CONNECTIONS_PAGE, label="Open Connections", icon=":material/settings:")
        return False
    if error.category in _SWIGGY_CATEGORIES:
        st.error(text, icon=":material/lock:")
        support_code(error.code)
        st.session_state[KEY_RECONNECT] = True
        st.page_link(CONNECTIONS_PAGE, label="Reconnect Swiggy", icon=":material/link:")
        return False
    if error.category in _RATE_LIMIT_CATEGORIES:
        # The wait is said here only: the message itself never carries it.
        hint = " " + try_again_text(error.retry_after_seconds)
        st.warning(text + hint, icon=":material/hourglass_top:")
        support_code(error.code)
        return st.button("Retry", key=f"{key}-retry", icon=":material/refresh:")
    warning = _WARNING_ICONS.get(error.category)
    if warning is not None:
        st.warning(text, icon=warning)
        support_code(error.code)
        return False
    icon = ":material/database:" if error.category == "store" else ":material/error:"
    st.error(text, icon=icon)
    support_code(error.code)
    if error.category in _RETRY_CATEGORIES:
        return st.button("Retry", key=f"{key}-retry", icon=":material/refresh:")
    return False


def coded_error(message: str, code: str, *, icon: str) -> None:
    """An error as plain text, its code under it for support."""
    st.error(plain(message), icon=icon)
    support_code(code)


def support_code(code: str | None) -> None:
    """An error's code as a small caption for support, never inside the sentence."""
    if code and SUPPORT_CODE_RE.fullmatch(code):
        st.caption(f"Code for support: {code}")


def report_offer(error: ErrorInfo, *, key: str) -> bool:
    """A "Report to Swiggy" button under a tool that kept failing; True when pressed."""
    if not error.report_tool:
        return False
    st.caption(
        "This step kept failing. You can send Swiggy an error report (only which step "
        "failed and its error message)."
    )
    return st.button("Report to Swiggy", key=f"{key}-report", icon=":material/bug_report:")


def temporary_store_banner() -> None:
    """Every page says that chats last only until a restart (a temporary database)."""
    st.warning(TEMPORARY_STORE_MESSAGE, icon=":material/history_toggle_off:")
    support_code(ErrorCode.STORE_TEMPORARY)
