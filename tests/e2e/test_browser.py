"""The real app in a real browser: `streamlit run app.py` driven by headless Chromium.

Nothing here leans on Playwright's 5 s defaults: a cold Streamlit server on a loaded
2-core machine needs 6-12 s for its first page, and over 20 s when busier. So the server is polled
on `/_stcore/health` (watching that it has not died), the first page is awaited by its
own heading, every later step waits generously, and after each interaction the test
waits for Streamlit to finish the script run before it touches the page again. An
exception shown in the page fails the test at once, with its text and the server log.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest
from playwright.sync_api import Locator, Page, expect, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
HEALTH_SECONDS = 120  # server process up and answering /_stcore/health
FIRST_PAGE_MS = 120_000  # the Home page's own heading after the first goto
STEP_MS = 90_000  # any later wait: an element, a script run, a navigation
LAUNCH_MS = 120_000  # Chromium itself on a busy machine
WIDE, NARROW = 1400, 390  # screenshot widths (desktop, phone)

# The fixtures' setup is part of the test's time, so the 120 s suite default is too tight.
pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """A running `streamlit run app.py`; its output goes to a file (a pipe could fill)."""

    def __init__(
        self, url: str, process: subprocess.Popen[bytes], log: Path, started: float
    ) -> None:
        self.started = started  # time.monotonic() just before the process was spawned
        self.url = url
        self.process = process
        self.log = log

    def output(self, tail: int = 8_000) -> str:
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return text[-tail:]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, timings: dict[str, float]) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("e2e")
    port = _free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("ANTHROPIC_", "SWIGGY_"))
    }
    env["SWIGGY_DATABASE_URL"] = f"sqlite:///{folder / 'chats.db'}"
    command = [
        sys.executable, "-m", "streamlit", "run", "app.py",
        "--server.port", str(port), "--server.address", "127.0.0.1",
        "--server.headless", "true", "--browser.gatherUsageStats", "false",
        # No file watcher: edits to the repo while the test runs must not prompt a rerun
        # (the prompt keeps the status widget up), and watching costs CPU at start-up.
        "--server.fileWatcherType", "none", "--server.runOnSave", "false",
        # Show the traceback in the page so a failure names the app's exception.
        "--client.showErrorDetails", "full",
    ]  # fmt: skip
    log = folder / "streamlit.log"
    started = time.monotonic()
    with log.open("wb") as sink:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=sink, stderr=sink)
    running = Server(f"http://127.0.0.1:{port}", process, log, started)
    try:
        _wait_healthy(running)
        timings["cold start to healthy"] = time.monotonic() - running.started
        yield running
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(15)


def _wait_healthy(server: Server) -> None:
    deadline = time.monotonic() + HEALTH_SECONDS
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            pytest.fail(
                f"streamlit exited with code {server.process.returncode} before it was "
                f"healthy:\n{server.output()}"
            )
        try:
            if httpx2.get(f"{server.url}/_stcore/health", timeout=5).status_code == 200:
                return
        except httpx2.HTTPError:
            pass
        time.sleep(0.5)
    pytest.fail(f"streamlit not healthy after {HEALTH_SECONDS} s:\n{server.output()}")


@pytest.fixture(scope="module")
def page(server: Server) -> Iterator[Page]:
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"Debian's chromium is required at {CHROMIUM} (scripts/test installs it)")
    expect.set_options(timeout=STEP_MS)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_FLAGS, timeout=LAUNCH_MS
        )
        try:
            page = browser.new_page(viewport={"width": WIDE, "height": 1000})
            page.set_default_timeout(STEP_MS)
            page.set_default_navigation_timeout(STEP_MS)
            yield page
        finally:
            browser.close()


def _settled(page: Page) -> None:
    """Wait until Streamlit has finished running the script (no "Running..." widget)."""
    expect(page.get_by_test_id("stApp")).to_have_attribute("data-test-script-state", "notRunning")
    expect(page.get_by_test_id("stStatusWidget")).to_have_count(0)


def _shown(page: Page, server: Server, target: Locator, timeout: float = STEP_MS) -> Locator:
    """Wait for `target`, then for the script run to end; an exception in the page fails."""
    error = page.get_by_test_id("stException")
    expect(target.or_(error).first).to_be_visible(timeout=timeout)
    if error.count():
        pytest.fail(
            f"the app raised an exception in the page:\n{error.first.inner_text()}\n"
            f"--- server output ---\n{server.output()}"
        )
    expect(target).to_be_visible()
    _settled(page)
    return target


def _send(page: Page, text: str) -> None:
    chat = page.get_by_placeholder("Ask NutriCart…")
    expect(chat).to_be_editable()
    chat.fill(text)
    chat.press("Enter")


def test_offline_demo_grocery_flow_in_a_browser(
    page: Page,
    server: Server,
    tmp_path_factory: pytest.TempPathFactory,
    timings: dict[str, float],
) -> None:
    started = time.monotonic()
    page.goto(server.url, wait_until="domcontentloaded")
    _shown(page, server, page.get_by_role("heading", name="Shop by chatting"), FIRST_PAGE_MS)
    timings["cold start to first page"] = time.monotonic() - server.started
    timings["goto to first page"] = time.monotonic() - started
    expect(page.get_by_text("Offline demo.", exact=False).first).to_be_visible()

    page.get_by_role("link", name="NutriCart").first.click()
    _shown(page, server, page.get_by_role("heading", name="NutriCart", exact=True))
    _shown(page, server, page.get_by_placeholder("Ask NutriCart…"))

    _send(page, "show my saved addresses")
    _shown(page, server, page.get_by_role("button", name="Use this address").first).click()
    _shown(page, server, page.get_by_text("Delivering here").first)

    _send(page, "find high-protein snacks under 200")
    _shown(page, server, page.get_by_role("button", name="Add", exact=True).first).click()
    # The cart card (not just the streamed text) arrives with its Place order button.
    _shown(page, server, page.get_by_role("button", name="Place order").last)
    expect(page.get_by_text("To pay", exact=True).last).to_be_visible()
    timings["whole flow"] = time.monotonic() - started

    # SWIGGY_SCREENSHOT_DIR keeps the pictures for a person to look at.
    folder = Path(os.environ.get("SWIGGY_SCREENSHOT_DIR") or tmp_path_factory.mktemp("shots"))
    folder.mkdir(parents=True, exist_ok=True)
    place_order = page.get_by_role("button", name="Place order").last
    for width, height in ((WIDE, 1000), (NARROW, 844)):
        page.set_viewport_size({"width": width, "height": height})
        _settled(page)
        sidebar = page.get_by_test_id("stSidebar")
        if width == NARROW:  # Streamlit slides the sidebar away on a phone: let it finish.
            expect(sidebar).not_to_be_in_viewport()
        else:
            expect(sidebar).to_be_in_viewport()
        place_order.scroll_into_view_if_needed()
        expect(place_order).to_be_in_viewport()
        shot = folder / f"nutricart-{width}.png"
        page.screenshot(path=str(shot), full_page=True, animations="disabled")
        assert shot.stat().st_size > 10_000
