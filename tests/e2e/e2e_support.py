"""What the browser tests share: the running app, generous waits, and screenshots.

Nothing here leans on Playwright's 5 s defaults: a cold Streamlit server on a loaded
2-core machine needs 6-12 s for its first page, and over 20 s when busier. So the server is
polled on `/_stcore/health` (watching that it has not died), a first page is awaited by its
own heading, every later step waits generously, and after each interaction a test waits for
Streamlit to finish the script run before it touches the page again. An exception shown in
the page fails the test at once, with its text and the server log.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx2
import pytest
from playwright.sync_api import Locator, Page, expect

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
FIRST_PAGE_MS = 120_000  # a page's own heading after the first goto
STEP_MS = 90_000  # any later wait: an element, a script run, a navigation
LAUNCH_MS = 120_000  # Chromium itself on a busy machine
WIDE, NARROW = 1400, 390  # screenshot widths (desktop, phone)
WIDE_HEIGHT, NARROW_HEIGHT = 1000, 844  # their viewport heights
TALLEST_SHOT = 16_000  # Chromium cannot paint a taller viewport in one piece


def free_port() -> int:
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


@contextmanager
def running_app(folder: Path) -> Iterator[Server]:
    """The offline demo (nothing configured) on a free port, with its own SQLite file."""
    port = free_port()
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
    server = Server(f"http://127.0.0.1:{port}", process, log, started)
    try:
        wait_healthy(server)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(15)


def wait_healthy(server: Server) -> None:
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


def settled(page: Page) -> None:
    """Wait until Streamlit has finished running the script (no "Running..." widget)."""
    expect(page.get_by_test_id("stApp")).to_have_attribute("data-test-script-state", "notRunning")
    expect(page.get_by_test_id("stStatusWidget")).to_have_count(0)


def fail_on_exception(page: Page, server: Server) -> None:
    """Fail with the app's traceback if the page shows an exception box."""
    error = page.get_by_test_id("stException")
    if error.count():
        pytest.fail(
            f"the app raised an exception in the page:\n{error.first.inner_text()}\n"
            f"--- server output ---\n{server.output()}"
        )


def shown(page: Page, server: Server, target: Locator, timeout: float = STEP_MS) -> Locator:
    """Wait for `target`, then for the script run to end; an exception in the page fails."""
    error = page.get_by_test_id("stException")
    expect(target.or_(error).first).to_be_visible(timeout=timeout)
    fail_on_exception(page, server)
    expect(target).to_be_visible()
    settled(page)
    fail_on_exception(page, server)
    return target


def send(page: Page, text: str, placeholder: str = "Ask NutriCart…") -> None:
    chat = page.get_by_placeholder(placeholder)
    expect(chat).to_be_editable()
    chat.fill(text)
    chat.press("Enter")


def screenshot_folder(factory: pytest.TempPathFactory) -> Path:
    """SWIGGY_SCREENSHOT_DIR keeps the pictures for a person to look at."""
    folder = Path(os.environ.get("SWIGGY_SCREENSHOT_DIR") or factory.mktemp("shots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def whole_page_shot(page: Page, path: Path) -> None:
    """The whole conversation in one picture.

    Streamlit scrolls inside its own <main>, so `full_page=True` alone only captures the
    viewport: the viewport is made as tall as that content for the shot, then restored.
    """
    size = page.viewport_size
    assert size is not None
    main = page.get_by_test_id("stAppScrollToBottomContainer")
    try:
        for _ in range(3):  # the content reflows a little when the viewport grows
            needed = int(main.evaluate("el => el.scrollHeight"))
            current = page.viewport_size
            assert current is not None
            if needed <= current["height"] or current["height"] >= TALLEST_SHOT:
                break
            page.set_viewport_size({"width": size["width"], "height": min(needed, TALLEST_SHOT)})
            settled(page)
        page.screenshot(path=str(path), full_page=True, animations="disabled")
    finally:
        page.set_viewport_size(size)
    assert path.stat().st_size > 10_000
