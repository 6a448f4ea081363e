"""A new server's first shop page, opened at once in a real browser: its title and chat
input before the app has loaded, usable while the sandbox starts, never broken, and a
message sent at either moment is answered once the shop runs, shown and stored once.

Nothing begins the sandbox before that page is drawn (no Home visit first), so the page is
always drawn while it starts: a script added to the page notes what it showed then.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest
from e2e_support import (
    FIRST_PAGE_MS,
    NARROW,
    WIDE,
    Server,
    browser_context,
    browser_id,
    fail_on_exception,
    running_app,
    send,
    shown,
    store_user,
    turn_ended,
)
from playwright.sync_api import Browser, Page, expect

from swiggy_core.faultpoints import FAULT_DELAY_ENV

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

INPUT = 'textarea[placeholder="Ask NutriCart…"]'
LOADING = "Loading your saved addresses…"  # swiggy_ui.address_chooser.LOADING_ADDRESSES
QUEUED = "your message goes out as soon as it is up"  # swiggy_ui.starting_page.QUEUED_NOTE
SLOW_START_SECONDS = 10
APP_LOAD_SECONDS = 15  # longer than a loaded machine takes to show the early page
ASKED = "find milk"
REPLYING = "Working on your last message"  # swiggy_ui.chat_input.WORKING_PLACEHOLDER
# Notes, on every change of the page, whether it was usable while the sandbox started
# (its input open beside the loading note), whether a sent message was kept for later, and
# the most copies of that message on screen at once while the reply runs (the page of the
# run before, left on screen until a run ends, would show a second one all that time).
WATCH_START = f"""
window.usableWhileStarting = false;
window.keptWhileStarting = false;
window.mostAsked = 0;
const watcher = new MutationObserver(() => {{
  const text = document.body ? document.body.innerText : "";
  const input = document.querySelector('{INPUT}');
  if (text.includes("{LOADING}") && input && !input.disabled) window.usableWhileStarting = true;
  if (text.includes("{QUEUED}")) window.keptWhileStarting = true;
  if (!document.querySelector('textarea[placeholder^="{REPLYING}"]')) return;
  const asked = [...document.querySelectorAll('[data-testid="stChatMessage"]')]
    .filter((message) => message.innerText.includes("{ASKED}")).length;
  window.mostAsked = Math.max(window.mostAsked, asked);
}});
const everything = {{ subtree: true, childList: true, characterData: true, attributes: true }};
watcher.observe(document, everything);
"""


@pytest.fixture(scope="module")
def cold_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server of its own (the shared one may have started its sandbox already) whose
    sandbox takes 10 s more to start, so a message sent at once always finds it starting."""
    slow_start = {FAULT_DELAY_ENV: f"sandbox.start={SLOW_START_SECONDS}"}
    with running_app(tmp_path_factory.mktemp("cold"), **slow_start) as app:
        yield app


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    with browser_context(browser, WIDE) as context:
        yield context.new_page()


def test_the_first_shop_page_is_usable_while_the_sandbox_starts(
    page: Page, cold_server: Server
) -> None:
    page.add_init_script(WATCH_START)
    page.goto(f"{cold_server.url}/nutricart")
    chat = page.locator(INPUT)
    expect(page.get_by_text(LOADING)).to_be_visible(timeout=FIRST_PAGE_MS)  # app loaded
    expect(chat).to_be_editable()  # and open for a message while the sandbox starts
    fail_on_exception(page, cold_server)
    send(page, ASKED)  # at once: the shop may not run yet
    _answered_once(page, cold_server)
    assert page.evaluate("window.usableWhileStarting"), "the page waited for the sandbox"


@pytest.mark.parametrize("width", [WIDE, NARROW], ids=["1400px", "390px"])
def test_a_message_sent_before_the_app_has_loaded_is_kept_and_answered(
    browser: Browser, tmp_path: Path, screenshot_dir: Path, width: int
) -> None:
    # A server of its own per width: only a process's first page is drawn before its app
    # loads, and the load is held long enough that the message always goes out during it.
    delays = {FAULT_DELAY_ENV: f"app.load={APP_LOAD_SECONDS},sandbox.start=2"}
    with running_app(tmp_path, **delays) as server, browser_context(browser, width) as context:
        page = context.new_page()
        page.add_init_script(WATCH_START)
        page.goto(f"{server.url}/nutricart")
        expect(page.locator(INPUT)).to_be_editable(timeout=FIRST_PAGE_MS)
        expect(page.get_by_role("heading", name="NutriCart", exact=True)).to_be_visible()
        expect(page.get_by_text(LOADING)).to_have_count(0)  # the app is still loading
        # what the page shows then (still running, so not the whole-page helper's picture)
        page.screenshot(path=str(screenshot_dir / f"cold-first-paint-{width}.png"))
        send(page, ASKED)
        _answered_once(page, server)


def _answered_once(page: Page, server: Server) -> None:
    """The message sent while the shop was not up: kept, then answered with cards once it
    runs, shown once and stored once; the saved addresses read."""
    add = page.get_by_role("button", name="Add", exact=True)
    turn_ended(page, server, add.first)  # answered once the shop runs, with cards
    assert page.evaluate("window.keptWhileStarting"), "the message was not kept while it started"
    shown(page, server, page.get_by_text("Deliver to"))  # the saved addresses, read now
    expect(page.get_by_text(LOADING)).to_have_count(0)
    asked = page.get_by_test_id("stChatMessage").filter(has_text=ASKED)
    expect(asked).to_have_count(1)  # shown once, though it was kept and then sent
    assert page.evaluate("window.mostAsked") == 1, "the message showed twice during the reply"
    person = store_user(browser_id(page))
    assert _asked(server.database, person) == [ASKED]  # stored once


def _asked(database: Path, person: str) -> list[str]:
    """The texts of the person's own messages in the store, oldest first."""
    with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=10)) as db:
        rows = db.execute(
            "SELECT m.body FROM messages m JOIN conversations c ON c.id = m.conversation_id "
            "WHERE c.user_id = ? ORDER BY c.created_at, m.seq",
            (person,),
        ).fetchall()
    bodies = [json.loads(body) for (body,) in rows]
    return [_text(body["content"]) for body in bodies if body.get("role") == "user"]


def _text(content: object) -> str:
    if isinstance(content, str):
        return content
    blocks = content if isinstance(content, list) else []
    return "".join(str(block.get("text", "")) for block in blocks if isinstance(block, dict))
