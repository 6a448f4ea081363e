"""Cold start: from `streamlit run` to a page ready for you in headless Chromium, vs a bare page.

Each trial starts a fresh server (`python -m streamlit run SCRIPT` with the same flags, a
fresh database in a temporary folder) and opens one page in a fresh browser context. The
clock starts just before the server process is spawned, when the person starts waiting,
and stops when the page shows what it shows once it is ready:

- bare: `bench/_bare_page.py` (a title and a chat input): its chat input, enabled;
- shop: the app's first shop page, `/nutricart`: its chat input, enabled (you can type and
  send: a new process draws the title and the input before the app loads, and keeps what
  you send then for the shop); then, not timed against a target, until the page is
  complete: the sandbox runs and the header's "Deliver to" shows your saved addresses;
- home: the app's Home page, `/`: its heading and the mode it runs in.

The pages are interleaved (the order rotates every trial). Prints each trial, the medians,
each app page's ratio to the bare page of the same run (target ≤ 1.2×) and `met`/`MISSED`;
then, from one extra untimed run under `-X importtime`, the modules each server had loaded
by the time the shop page (or the bare page) was ready and their import time per top package.

    python bench/coldstart.py [--trials N] [--tree DIR] [--against DIR]

`--tree DIR` runs the app from another checkout; `--against DIR` also runs the shop page and
Home from another checkout (e.g. a `git worktree` of an earlier commit) in the same rotation,
for a before/after under the same load.
"""

from __future__ import annotations

import argparse
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
BARE_PAGE = Path(__file__).with_name("_bare_page.py")
CHROMIUM = "/usr/bin/chromium"
TRIALS = 6
TARGET_RATIO = 1.2
TIMEOUT_MS = 180_000
WATCHED_PACKAGES = ("anthropic", "mcp", "redis", "psycopg", "sqlalchemy", "uvicorn", "httpx2")


@dataclass(frozen=True)
class Target:
    """One page to start cold: the script, where the browser opens it, and its ready marks."""

    name: str
    script: Path  # the app's, relative to the tree it runs from; the bare page's, absolute
    path: str
    ready: tuple[str, ...]  # selectors that are all visible once the page is ready for you
    complete: tuple[str, ...] = ()  # and once nothing on it is still coming (not timed)


BARE = Target("bare", BARE_PAGE, "/", ('textarea[placeholder="Ask the bare page…"]:enabled',))
SHOP = Target(
    "shop",
    Path("app.py"),
    "/nutricart",
    ('textarea[placeholder="Ask NutriCart…"]:enabled',),
    ('[data-testid="stSelectbox"]:has-text("Deliver to")',),
)
HOME = Target(
    "home",
    Path("app.py"),
    "/",
    ('h1:has-text("Shop by chatting")', '[data-testid="stAlert"]:has-text("Offline demo")'),
)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _command(script: Path, port: int, importtime: bool = False) -> list[str]:
    python = [sys.executable, "-X", "importtime"] if importtime else [sys.executable]
    return [
        *python, "-m", "streamlit", "run", str(script),
        "--server.port", str(port), "--server.address", "127.0.0.1",
        "--server.headless", "true", "--browser.gatherUsageStats", "false",
        "--server.fileWatcherType", "none",
    ]  # fmt: skip


def _environment(folder: Path, tree: Path) -> dict[str, str]:
    """The same for every page: no key or Swiggy setting, a fresh database, no health poll."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "SWIGGY_"))}
    env["SWIGGY_DATABASE_URL"] = f"sqlite:///{folder / 'chats.db'}"
    env["PYTHONPATH"] = str(tree)
    return env


def _wait_listening(url: str, process: subprocess.Popen[bytes]) -> None:
    """Until the server answers its health check (a browser opened earlier would fail)."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"streamlit exited with code {process.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=5) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.05)
    raise SystemExit("streamlit did not answer within the timeout")


def _wait_for(page: Page, selectors: tuple[str, ...]) -> None:
    for selector in selectors:
        page.wait_for_selector(selector, state="visible", timeout=TIMEOUT_MS)


def _cold_start(
    browser: Browser, target: Target, tree: Path, importtime: bool = False
) -> tuple[float, float]:
    """Seconds from spawning the server to the page ready for you, and to it complete."""
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        port = _free_port()
        url = f"http://127.0.0.1:{port}"
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        page = context.new_page()
        log = (folder / "server.log").open("wb")
        started = time.monotonic()
        process = subprocess.Popen(
            _command(tree / target.script, port, importtime),
            cwd=tree,
            env=_environment(folder, tree),
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            _wait_listening(url, process)
            page.goto(url + target.path, wait_until="commit")
            _wait_for(page, target.ready)
            ready = time.monotonic() - started
            if importtime:
                _print_imports(target, (folder / "server.log").read_text(errors="replace"))
            _wait_for(page, target.complete)
            complete = time.monotonic() - started
        finally:
            context.close()
            process.terminate()
            process.wait(30)
            log.close()
    return ready, complete


_IMPORT_LINE = re.compile(r"^import time:\s+(\d+) \|\s+\d+ \|( *)(\S+)\s*$")


def _print_imports(target: Target, log: str) -> None:
    """Modules loaded by the time the page was ready, and their own import time per package."""
    per_package: Counter[str] = Counter()
    modules = 0
    for line in log.splitlines():
        found = _IMPORT_LINE.match(line)
        if found:
            modules += 1
            per_package[found.group(3).split(".")[0]] += int(found.group(1))
    total = sum(per_package.values()) / 1e6
    print(f"\n{target.name} ({target.path}): {modules} modules imported, {total:.2f} s own time")
    for package, micros in per_package.most_common(10):
        print(f"  {package:24s} {micros / 1e6:6.2f} s  {micros / 1e6 / total:5.1%}")
    loaded = [name for name in WATCHED_PACKAGES if name in per_package]
    print(f"  loaded of {', '.join(WATCHED_PACKAGES)}: {', '.join(loaded) or 'none'}")


Run = tuple[str, Target, Path]  # a label, the page, the tree its app runs from


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=TRIALS)
    parser.add_argument("--tree", type=Path, default=ROOT, help="run the app from this checkout")
    parser.add_argument("--against", type=Path, help="also the app of this (earlier) checkout")
    args = parser.parse_args()
    tree: Path = args.tree.resolve()
    runs: list[Run] = [("bare", BARE, tree), ("shop", SHOP, tree), ("home", HOME, tree)]
    if args.against is not None:
        earlier = args.against.resolve()
        runs += [("shop, earlier", SHOP, earlier), ("home, earlier", HOME, earlier)]
    ready: dict[str, list[float]] = {label: [] for label, _target, _tree in runs}
    complete: dict[str, list[float]] = {label: [] for label, _target, _tree in runs}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        print(f"app tree: {tree}; load average {os.getloadavg()[0]:.1f}", flush=True)
        for trial in range(args.trials):
            turn = trial % len(runs)
            for label, target, where in runs[turn:] + runs[:turn]:
                took, done = _cold_start(browser, target, where)
                ready[label].append(took)
                complete[label].append(done)
                print(f"trial {trial + 1}  {label:14s} ready {took:6.2f} s  "
                      f"complete {done:6.2f} s", flush=True)  # fmt: skip
        load = os.getloadavg()[0]
        for target in (BARE, SHOP):
            _cold_start(browser, target, tree, importtime=True)
        browser.close()
    _verdict(ready, complete, load)


def _verdict(ready: dict[str, list[float]], complete: dict[str, list[float]], load: float) -> None:
    bare = statistics.median(ready["bare"])
    print(f"\nload average at the end: {load:.1f} (2 cores, shared)")
    print(f"bare page (baseline, same run): median {bare:5.2f} s over {len(ready['bare'])} trials")
    verdicts = []
    for name, label in (("shop", "first shop page /nutricart"), ("home", "Home /")):
        ratio = statistics.median(ready[name]) / bare
        verdicts.append(ratio <= TARGET_RATIO)
        print(f"{label:27s} median {ratio * bare:5.2f} s = {ratio:4.2f}× bare   "
              f"target ≤ {TARGET_RATIO:.1f}× ({TARGET_RATIO * bare:5.2f} s)  "
              f"{'met' if ratio <= TARGET_RATIO else 'MISSED'}")  # fmt: skip
    shop_done = statistics.median(complete["shop"])
    print(f"  the shop page complete (sandbox up, addresses shown): median {shop_done:5.2f} s "
          f"= {shop_done / bare:4.2f}× bare (no target: you can type before)")  # fmt: skip
    for name in ("shop, earlier", "home, earlier"):
        if ready.get(name):
            median = statistics.median(ready[name])
            print(f"{name + ' tree':27s} median {median:5.2f} s = {median / bare:4.2f}× bare")
    print("met" if all(verdicts) else "MISSED")


if __name__ == "__main__":
    main()
