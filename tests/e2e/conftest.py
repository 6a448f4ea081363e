"""Browser-test plumbing: one app server for the whole run, one Chromium per test module,
the screenshot folder, and how long the cold app took (printed at the end of the run)."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from e2e_support import (
    CHROMIUM,
    CHROMIUM_FLAGS,
    LAUNCH_MS,
    NARROW,
    STEP_MS,
    WIDE,
    Server,
    browser_context,
    running_app,
    screenshot_folder,
)
from playwright.sync_api import Browser, Page, expect, sync_playwright

_TIMINGS = pytest.StashKey[dict[str, float]]()


@pytest.fixture(scope="session")
def timings(pytestconfig: pytest.Config) -> dict[str, float]:
    """Seconds per named phase (server healthy, first page, ...), shown in the summary."""
    return pytestconfig.stash.setdefault(_TIMINGS, {})


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory, timings: dict[str, float]) -> Iterator[Server]:
    """`streamlit run app.py` as the offline demo; each test opens its own browser session."""
    with running_app(tmp_path_factory.mktemp("e2e")) as app:
        timings["cold start to healthy"] = time.monotonic() - app.started
        yield app


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless (Playwright's own browsers are never downloaded).

    Module scope on purpose: Playwright's sync API keeps an event loop running on this
    thread while it is open, which would break every later test that runs asyncio.
    """
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"Debian's chromium is required at {CHROMIUM} (scripts/test installs it)")
    expect.set_options(timeout=STEP_MS)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_FLAGS, timeout=LAUNCH_MS
        )
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture(params=[WIDE, NARROW], ids=[f"{WIDE}px", f"{NARROW}px"])
def page(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    """A fresh browser context per width (desktop, phone): its own cookies and session.

    A module that needs one fixed width defines its own `page`.
    """
    with browser_context(browser, request.param) as context:
        yield context.new_page()


@pytest.fixture(scope="session")
def screenshot_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """SWIGGY_SCREENSHOT_DIR, or a pytest temporary folder."""
    return screenshot_folder(tmp_path_factory)


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    recorded = config.stash.get(_TIMINGS, {})
    if recorded:
        phases = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in recorded.items())
        terminalreporter.write_line(f"browser timings: {phases}")
