"""CPU per rerun of a shop page as its chat grows: 10, 50 and 200 turns, interleaved.

Three browser sessions (AppTest, the app's own script) each hold NutriCart open on a
grocery chat of 10, 50 or 200 turns (each turn the person's words, then a reply with text,
a product search and a cart update, recorded from the real sandbox server, cards parsed
once as the app stores them). A fourth session runs a bare Streamlit page (a title and a
chat input) through the same harness: the framework's own share of a rerun.

Each round reruns every session once (bare, 10, 50, 200, bare, 10, ...), so a change in
the machine's load touches every size alike. A rerun's cost is the process CPU time
(`time.process_time`: the script thread and AppTest's own work) from `run()` to its
return, the wall time beside it. Prints per size the median (and p95) over the rounds, the
baseline, the growth 10 → 200 on CPU and the verdict. Targets: ≤ 100 ms of CPU per rerun
at 50 turns and ≤ 1.2× growth.

    python bench/rerun.py [rounds]
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
from streamlit.testing.v1 import AppTest

from swiggy_core.store import ChatStore
from swiggy_sandbox.servers import SandboxHttpServer

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT / "tests"))  # page_switch: AppTest opening a page by URL path
from page_switch import app_test  # noqa: E402

SIZES = (10, 50, 200)
ROUNDS = 25
WARM = 2
TARGET_MS_AT_50 = 100.0
TARGET_GROWTH = 1.2
TIMEOUT = 300
BARE = "bare page"
SCRIPT_CONTEXT_LOGGER = "streamlit.runtime.scriptrunner_utils.script_run_context"


def _bare_page() -> None:
    import streamlit as st

    st.title("Bare page")
    st.chat_input("Ask the bare page…")


def _browser(turns: int) -> str:
    return f"{turns:032x}"  # a browser id of 32 hex digits, one per size


def _store_chats(database_url: str, recorded: list[list[Call]]) -> None:
    store = ChatStore(database_url)
    for turns in SIZES:
        conversation_id = store.create_conversation(f"b-{_browser(turns)}@sandbox", "food")
        store.append_messages(conversation_id, grocery_chat(turns, recorded))
    store.close()


def _shop_page(turns: int) -> AppTest:
    at = app_test(ROOT / "app.py", TIMEOUT)
    at.session_state["browser_id"] = _browser(turns)
    at.run()
    at.switch_page("nutricart")
    at.run()
    if at.exception or not any("NutriCart" in title.value for title in at.title):
        raise SystemExit(f"the page failed: {at.exception}")
    return at


def _timed(at: AppTest) -> tuple[float, float]:
    """One rerun's process CPU and wall time, in ms."""
    wall, cpu = time.perf_counter(), time.process_time()
    at.run()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    if at.exception:
        raise SystemExit(f"the page failed: {at.exception[0].value}")
    return cpu * 1000, wall * 1000


def _rounds(pages: dict[str, AppTest], rounds: int) -> dict[str, list[tuple[float, float]]]:
    for at in pages.values():
        for _ in range(WARM):  # caches, imports, the history read once
            _timed(at)
    figures: dict[str, list[tuple[float, float]]] = {name: [] for name in pages}
    for _ in range(rounds):
        for name, at in pages.items():
            figures[name].append(_timed(at))
    return figures


def _line(name: str, figures: list[tuple[float, float]]) -> float:
    cpu = [c for c, _ in figures]
    median = statistics.median(cpu)
    p95 = statistics.quantiles(cpu, n=20)[-1]
    wall = statistics.median(w for _, w in figures)
    print(f"{name:>10}: CPU median {median:6.1f} ms  p95 {p95:6.1f} ms   wall {wall:6.1f} ms")
    return median


def main() -> None:
    # AppTest sets session state from this thread, outside any run: Streamlit warns each time.
    logging.getLogger(SCRIPT_CONTEXT_LOGGER).addFilter(lambda record: False)
    os.environ["SWIGGY_HEALTH_POLL"] = "off"  # no background polling between reruns
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else ROUNDS
    with tempfile.TemporaryDirectory() as folder, SandboxHttpServer() as sandbox:
        database_url = f"sqlite:///{Path(folder) / 'chats.db'}"
        os.environ["SWIGGY_DATABASE_URL"] = database_url
        _store_chats(database_url, record_grocery_calls(sandbox))
        pages = {BARE: AppTest.from_function(_bare_page, default_timeout=TIMEOUT)}
        pages |= {f"{turns} turns": _shop_page(turns) for turns in SIZES}
        figures = _rounds(pages, rounds)
    print(f"per rerun, {rounds} rounds of bare, {', '.join(map(str, SIZES))} turns:")
    medians = {name: _line(name, found) for name, found in figures.items()}
    at_50 = medians["50 turns"]
    growth = medians[f"{SIZES[-1]} turns"] / medians[f"{SIZES[0]} turns"]
    print(f"baseline (the bare page, the framework's share): {medians[BARE]:.1f} ms CPU")
    print(f"at 50 turns: {at_50:.1f} ms CPU   target ≤ {TARGET_MS_AT_50:.0f} ms")
    print(f"growth {SIZES[0]} → {SIZES[-1]} turns: {growth:.2f}× (CPU)   target ≤ {TARGET_GROWTH}×")
    print("met" if at_50 <= TARGET_MS_AT_50 and growth <= TARGET_GROWTH else "MISSED")


if __name__ == "__main__":
    main()
