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
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Literal

import httpx2
import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect
from sandbox_clock import FIXED_SANDBOX_NOW, SANDBOX_NOW_ENV

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
COOKIE_SECONDS = 30  # a browser id's cookie after the page that minted it could run its JS
AUDIT_SECONDS = 15  # a turn's audit rows in the store after the page shows the turn ended
POLL_SECONDS = 0.1  # between looks at a server, a cookie or the store while waiting
BROWSER_COOKIE = "swiggy_uid"  # swiggy_ui.identity.BROWSER_COOKIE (not imported: no app code here)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """A running `streamlit run app.py`; its output goes to a file (a pipe could fill)."""

    def __init__(
        self,
        url: str,
        process: subprocess.Popen[bytes],
        log: Path,
        started: float,
        database: Path,
    ) -> None:
        self.started = started  # time.monotonic() just before the process was spawned
        self.url = url
        self.process = process
        self.log = log
        self.database = database  # the app's SQLite file (tests read it, never write it)

    def output(self, tail: int = 8_000) -> str:
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return text[-tail:]


@contextmanager
def running_app(folder: Path, **extra: str) -> Iterator[Server]:
    """The offline demo (nothing configured but `extra`) on a free port, with its own
    SQLite file."""
    database = folder / "chats.db"
    settings = {"SWIGGY_DATABASE_URL": f"sqlite:///{database}", SANDBOX_NOW_ENV: FIXED_SANDBOX_NOW}
    settings.update(extra)
    server = spawn_app(folder, settings, "streamlit.log")
    server.database = database
    try:
        wait_healthy(server)
        yield server
    finally:
        process = server.process
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(15)


def spawn_app(folder: Path, settings: dict[str, str], log_name: str) -> Server:
    """`streamlit run app.py` on a free port with only `settings` configured (none of the
    caller's own ANTHROPIC_/SWIGGY_/REDIS_ variables); its output goes to `log_name`."""
    port = free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("ANTHROPIC_", "SWIGGY_", "REDIS_"))
    }
    env.update(settings)
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
    log = folder / log_name
    started = time.monotonic()
    with log.open("wb") as sink:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=sink, stderr=sink)
    return Server(f"http://127.0.0.1:{port}", process, log, started, folder / "chats.db")


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
        time.sleep(POLL_SECONDS)
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


def open_page(
    page: Page,
    server: Server,
    path: str,
    heading: str,
    wait_until: Literal["domcontentloaded", "load"] = "load",
) -> None:
    """Go to the app's page at `path` and wait for its own heading as long as a first page
    may take."""
    page.goto(f"{server.url}/{path}", wait_until=wait_until)
    shown(page, server, page.get_by_role("heading", name=heading, exact=True), FIRST_PAGE_MS)


@contextmanager
def browser_context(browser: Browser, width: int) -> Iterator[BrowserContext]:
    """One person's browser (its own cookies) at the desktop or phone width, waiting as
    long as STEP_MS instead of Playwright's 5 s."""
    height = WIDE_HEIGHT if width == WIDE else NARROW_HEIGHT
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(STEP_MS)
    context.set_default_navigation_timeout(STEP_MS)
    try:
        yield context
    finally:
        context.close()


def send(page: Page, text: str, placeholder: str = "Ask NutriCart…") -> None:
    chat = page.get_by_placeholder(placeholder)
    expect(chat).to_be_editable()
    chat.fill(text)
    chat.press("Enter")


def turn_ended(
    page: Page, server: Server, reply: Locator, placeholder: str = "Ask NutriCart…"
) -> None:
    """Wait for something only the reply can show, then for the reply to be complete
    (no Stop button, the input open again, the script run over).

    Right after Enter the old input is still editable and no Stop button is up yet, so
    neither says by itself that the turn has even started: `reply` does.
    """
    shown(page, server, reply)
    expect(page.get_by_role("button", name="Stop", exact=True)).to_have_count(0)
    shown(page, server, page.get_by_placeholder(placeholder))
    expect(page.get_by_placeholder(placeholder)).to_be_editable()


def browser_id(page: Page, seconds: float = COOKIE_SECONDS) -> str:
    """This browser's id from its cookie, waiting for the page to have written it.

    Fails when it never lands: the next reload or typed address would be a new person.
    """
    deadline = time.monotonic() + seconds
    while True:
        ids = [c["value"] for c in page.context.cookies() if c["name"] == BROWSER_COOKIE]
        if ids:
            return ids[0]
        if time.monotonic() > deadline:
            pytest.fail(
                f"no {BROWSER_COOKIE} cookie {seconds:.0f} s after the page could write it: "
                "a reload now would lose this person's chats and Activity"
            )
        page.wait_for_timeout(POLL_SECONDS * 1000)


def store_user(browser: str, world: str = "sandbox") -> str:
    """The store's key for a browser's id in one world (as swiggy_ui.runtime builds it)."""
    return f"b-{browser}@{world}"


def audited_calls(server: Server, user_id: str) -> list[tuple[str, str]]:
    """(server, tool) of each audited call of `user_id`, oldest first, read from the store."""
    with closing(_read_only(server)) as db:
        rows = db.execute(
            "SELECT server, tool FROM tool_calls WHERE user_id = ? ORDER BY id", (user_id,)
        ).fetchall()
    return [(str(server_key), str(tool)) for server_key, tool in rows]


def wait_for_audit(
    server: Server, user_id: str, seconds: float = AUDIT_SECONDS
) -> list[tuple[str, str]]:
    """The person's audited calls once there are any; fails naming whose rows there are."""
    deadline = time.monotonic() + seconds
    while not (calls := audited_calls(server, user_id)):
        if time.monotonic() > deadline:
            with closing(_read_only(server)) as db:
                owners = db.execute("SELECT DISTINCT user_id FROM tool_calls").fetchall()
            pytest.fail(
                f"no audited tool call for {user_id} {seconds:.0f} s after its turn ended; "
                f"the store has calls for {[owner for (owner,) in owners]}"
            )
        time.sleep(POLL_SECONDS)
    return calls


def _read_only(server: Server) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{server.database}?mode=ro", uri=True, timeout=10)


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


def main_shot(page: Page, path: Path) -> None:
    """A whole page without a chat in one picture: the viewport grows to the height of
    Streamlit's <main> (which scrolls by itself), then comes back."""
    size = page.viewport_size
    assert size is not None
    needed = int(page.get_by_test_id("stMain").evaluate("el => el.scrollHeight"))
    try:
        page.set_viewport_size({"width": size["width"], "height": max(needed, size["height"])})
        settled(page)
        page.screenshot(path=str(path), animations="disabled")
    finally:
        page.set_viewport_size(size)
    assert path.stat().st_size > 10_000
