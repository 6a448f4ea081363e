"""The real app in a real browser: `streamlit run app.py` driven by headless Chromium."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest
from playwright.sync_api import Page, expect, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
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
STARTUP_SECONDS = 60
STEP_MS = 60_000

pytestmark = pytest.mark.browser


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def app_url(tmp_path_factory) -> Iterator[str]:
    port = _free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("ANTHROPIC_", "SWIGGY_"))
    }
    env["SWIGGY_DATABASE_URL"] = f"sqlite:///{tmp_path_factory.mktemp('e2e') / 'chats.db'}"
    command = [
        sys.executable, "-m", "streamlit", "run", "app.py",
        "--server.port", str(port), "--server.address", "127.0.0.1",
        "--server.headless", "true", "--browser.gatherUsageStats", "false",
    ]  # fmt: skip
    process = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, process)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()


def _wait_healthy(url: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            output = process.stdout.read().decode() if process.stdout else ""
            raise RuntimeError(f"streamlit exited early:\n{output}")
        try:
            if httpx2.get(f"{url}/_stcore/health", timeout=1).status_code == 200:
                return
        except httpx2.HTTPError:
            pass
        time.sleep(0.3)
    raise RuntimeError("streamlit did not become healthy in time")


@pytest.fixture(scope="module")
def page(app_url) -> Iterator[Page]:
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.fail("Debian's chromium is required for browser tests (scripts/test installs it)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(STEP_MS)
        yield page
        browser.close()


def test_offline_demo_grocery_flow_in_a_browser(page: Page, app_url: str, tmp_path_factory):
    page.goto(app_url)
    expect(page.get_by_text("Offline demo.", exact=False).first).to_be_visible()
    page.get_by_role("link", name="NutriCart").first.click()
    expect(page.get_by_role("heading", name="NutriCart")).to_be_visible()

    chat = page.get_by_placeholder("Ask NutriCart…")
    chat.fill("show my saved addresses")
    chat.press("Enter")
    page.get_by_role("button", name="Use this address").first.click()
    expect(page.get_by_text("Delivering here").first).to_be_visible()

    chat.fill("find high-protein snacks under 200")
    chat.press("Enter")
    add = page.get_by_role("button", name="Add", exact=True).first
    expect(add).to_be_visible()
    add.click()
    # The cart card (not just the streamed text) arrives with its Place order button.
    expect(page.get_by_role("button", name="Place order").last).to_be_visible()
    expect(page.get_by_text("To pay", exact=True).last).to_be_visible()
    # E2E_SCREENSHOT_DIR keeps the picture for a person to look at.
    folder = Path(os.environ.get("E2E_SCREENSHOT_DIR") or tmp_path_factory.mktemp("shots"))
    shot = folder / "nutricart.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
