"""Rerun cost of a shop page as its chat grows: a plain AppTest rerun at 10, 50 and 200 turns.

Each turn is what a grocery chat holds: the person's words, then a reply with text, a
product search and a cart update, recorded from the real sandbox server (cards parsed
once, as the app stores them). Prints ms per rerun, the growth 10 → 200 and the verdict;
targets: ≤ 100 ms at 50 turns and ≤ 1.5× growth.

    python bench/rerun.py
"""

from __future__ import annotations

import logging
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from _chat import Call, grocery_chat, record_grocery_calls

from swiggy_core.store import ChatStore
from swiggy_sandbox.servers import SandboxHttpServer

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT / "tests"))  # page_switch: AppTest opening a page by URL path
from page_switch import app_test  # noqa: E402

BROWSER = "0123456789abcdef0123456789abcdef"
VIEWER = f"b-{BROWSER}@sandbox"
SIZES = (10, 50, 200)
RUNS = 9
TARGET_MS_AT_50 = 100.0
TARGET_GROWTH = 1.5


def _store_chat(database_url: str, turns: int, recorded: list[list[Call]]) -> None:
    store = ChatStore(database_url)
    conversation_id = store.create_conversation(VIEWER, "food")
    store.append_messages(conversation_id, grocery_chat(turns, recorded))
    store.close()


def _rerun_ms() -> float:
    at = app_test(ROOT / "app.py", 300)
    at.session_state["browser_id"] = BROWSER
    at.run()
    at.switch_page("nutricart")
    at.run()
    if at.exception:
        raise SystemExit(f"the page failed: {at.exception[0].value}")
    at.run()  # warm: caches, imports
    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        at.run()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> None:
    logging.getLogger("streamlit").setLevel(logging.ERROR)  # AppTest's bare-mode warnings
    with tempfile.TemporaryDirectory() as folder, SandboxHttpServer() as sandbox:
        recorded = record_grocery_calls(sandbox)
        figures: dict[int, float] = {}
        for turns in SIZES:
            database_url = f"sqlite:///{Path(folder) / f'chats-{turns}.db'}"
            os.environ["SWIGGY_DATABASE_URL"] = database_url
            _store_chat(database_url, turns, recorded)
            figures[turns] = _rerun_ms()
            print(f"{turns:4d} turns: {figures[turns]:7.1f} ms per rerun", flush=True)
    growth = figures[SIZES[-1]] / figures[SIZES[0]]
    met = figures[50] <= TARGET_MS_AT_50 and growth <= TARGET_GROWTH
    print(f"growth {SIZES[0]} → {SIZES[-1]} turns: {growth:.2f}×   target ≤ {TARGET_GROWTH}×")
    print(f"at 50 turns: {figures[50]:.1f} ms   target ≤ {TARGET_MS_AT_50:.0f} ms")
    print("met" if met else "MISSED")
    sys.exit(0)


if __name__ == "__main__":
    main()
