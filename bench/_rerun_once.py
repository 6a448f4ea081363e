"""One tree's shop-page rerun at 50 turns (run by rerun_against.py with cwd = the tree).

Prints one JSON line: the median wall and CPU milliseconds of 9 AppTest reruns.
"""

from __future__ import annotations

import json
import logging
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

TREE = Path.cwd()
sys.path[:0] = [str(TREE / "bench"), str(TREE / "tests")]

from _chat import grocery_chat, record_grocery_calls  # noqa: E402

import swiggy_core  # noqa: E402
from swiggy_core.store import ChatStore  # noqa: E402
from swiggy_sandbox.servers import SandboxHttpServer  # noqa: E402

BROWSER = "0123456789abcdef0123456789abcdef"
RERUNS = 9


def _page():  # type: ignore[no-untyped-def]
    """AppTest at NutriCart: by URL path where pages come from the catalog, else by file."""
    try:
        from page_switch import app_test
    except ImportError:  # a tree from before the generated pages
        from streamlit.testing.v1 import AppTest

        return AppTest.from_file(
            str(TREE / "app.py"), default_timeout=300
        ), "app_pages/nutricart.py"
    return app_test(TREE / "app.py", 300), "nutricart"


def main() -> None:
    assert Path(swiggy_core.__file__).is_relative_to(TREE), swiggy_core.__file__
    logging.getLogger("streamlit").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory() as folder, SandboxHttpServer() as sandbox:
        database_url = f"sqlite:///{Path(folder) / 'chats.db'}"
        os.environ["SWIGGY_DATABASE_URL"] = database_url
        store = ChatStore(database_url)
        chat = store.create_conversation(f"b-{BROWSER}@sandbox", "food")
        store.append_messages(chat, grocery_chat(50, record_grocery_calls(sandbox)))
        store.close()
        at, page = _page()
        at.session_state["browser_id"] = BROWSER
        at.run()
        at.switch_page(page)
        at.run()
        if at.exception or not any("NutriCart" in title.value for title in at.title):
            raise SystemExit(f"the page failed: {at.exception}")
        at.run()  # warm
        wall, cpu = [], []
        for _ in range(RERUNS):
            started, used = time.perf_counter(), time.process_time()
            at.run()
            wall.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - used) * 1000)
    print(json.dumps({"wall": statistics.median(wall), "cpu": statistics.median(cpu)}))


if __name__ == "__main__":
    main()
