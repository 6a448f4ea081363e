"""Cold start: `streamlit run app.py` on a free port, then the first page in headless Chromium.

Prints the seconds to `/_stcore/health`, to the Home page's own heading, and whether the
raw file list of a `pages/` folder was ever visible in the sidebar navigation; target: first render
≤ 3 s after the browser asks for the page.

    python bench/coldstart.py
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx2
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
TARGET_SECONDS = 3.0
HEADING = "Shop by chatting"
RAW_NAMES = ("nutricart", "tablescout", "callback")  # file names (the app says "NutriCart")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _start(folder: Path, port: int) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "SWIGGY_"))}
    env["SWIGGY_DATABASE_URL"] = f"sqlite:///{folder / 'chats.db'}"
    command = [
        sys.executable, "-m", "streamlit", "run", "app.py",
        "--server.port", str(port), "--server.address", "127.0.0.1",
        "--server.headless", "true", "--browser.gatherUsageStats", "false",
        "--server.fileWatcherType", "none",
    ]  # fmt: skip
    log = (folder / "streamlit.log").open("wb")
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)


def _wait_healthy(url: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"streamlit exited with code {process.returncode}")
        try:
            if httpx2.get(f"{url}/_stcore/health", timeout=5).status_code == 200:
                return
        except httpx2.HTTPError:
            pass
        time.sleep(0.1)
    raise SystemExit("streamlit was not healthy within 120 s")


def _first_page(url: str) -> tuple[float, bool]:
    """Seconds to the heading and the app's own menu; whether raw file names showed."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        raw_seen = False
        started = time.monotonic()
        page.goto(url, wait_until="commit")
        heading = page.get_by_role("heading", name=HEADING)
        menu = page.get_by_test_id("stSidebar").get_by_role("link", name="NutriCart")
        while not (heading.is_visible() and menu.is_visible()):
            nav = page.get_by_test_id("stSidebarNav")
            text = nav.inner_text() if nav.count() else ""
            raw_seen = raw_seen or any(name in text for name in RAW_NAMES)
            if time.monotonic() - started > 120:
                raise SystemExit("the first page's heading never appeared")
            page.wait_for_timeout(50)
        seconds = time.monotonic() - started
        browser.close()
    return seconds, raw_seen


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        port = _free_port()
        url = f"http://127.0.0.1:{port}"
        spawned = time.monotonic()
        process = _start(Path(folder), port)
        try:
            _wait_healthy(url, process)
            healthy = time.monotonic() - spawned
            render, raw_seen = _first_page(url)
        finally:
            process.terminate()
            process.wait(15)
    verdict = "met" if render <= TARGET_SECONDS and not raw_seen else "MISSED"
    print(f"time to health:                {healthy:5.2f} s")
    print(f"first render (heading + menu): {render:5.2f} s   target ≤ {TARGET_SECONDS:.1f} s")
    print(f"raw file list shown:            {'yes' if raw_seen else 'no'}")
    print(verdict)


if __name__ == "__main__":
    main()
