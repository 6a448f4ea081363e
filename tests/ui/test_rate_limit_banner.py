"""The rate-limit banner says when to try again exactly once, in the server's own seconds."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest
from uihelpers import texts

from swiggy_core.models import ErrorInfo
from swiggy_core.tool_errors import classify_mcp_tool_error, tool_error_info

TIMEOUT = 60


def _banner(error) -> None:  # type: ignore[no-untyped-def]  # runs as its own script
    from swiggy_ui.banners import error_banner

    error_banner(error, key="t")


def _shown(error: ErrorInfo) -> str:
    at = AppTest.from_function(_banner, args=(error,), default_timeout=TIMEOUT).run()
    assert not at.exception
    return texts(at.warning)


def _code(error: ErrorInfo) -> str:
    at = AppTest.from_function(_banner, args=(error,), default_timeout=TIMEOUT).run()
    return texts(at.caption)


def test_a_swiggy_429_says_its_wait_once() -> None:
    refused = classify_mcp_tool_error(
        "Rate limit exceeded: 30 writes per minute. Retry after 60 s."
    )
    shown = _shown(tool_error_info(refused, "update_cart"))
    assert "Swiggy is limiting requests right now (429)." in shown
    assert "E-3103" in _code(tool_error_info(refused, "update_cart")) and "E-3103" not in shown
    assert shown.count("Try again in 60 s.") == 1 and shown.lower().count("try again") == 1
    assert "update_cart" not in shown


def test_a_429_without_a_wait_says_a_minute() -> None:
    error = ErrorInfo(code="E-2001", category="rate_limit", message="Too many requests right now.")
    shown = _shown(error)
    assert shown.endswith("Too many requests right now. Try again in a minute.")
