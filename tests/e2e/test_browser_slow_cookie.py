"""A browser whose cookie writer is slow to load still keeps its person through a reload.

A new browser's id is minted on the server and written into its cookie by a script on the
page. On a loaded machine that script's code can arrive after the person has already acted
(here: a message sent right after the first page, which reruns the page). The writer must
survive that rerun and run when it can; otherwise the next reload or typed address is a
new person, whose chats and Activity are empty.

The writer's code is held back with Playwright routing until the turn has ended. The
held requests are Streamlit's lazily loaded chunks for `st.iframe` and custom components;
the test fails if none was held, so it cannot pass without exercising the delay.
"""

from __future__ import annotations

import re

import pytest
from e2e_support import (
    BROWSER_COOKIE,
    COOKIE_SECONDS,
    FIRST_PAGE_MS,
    Server,
    browser_id,
    open_page,
    send,
    settled,
    shown,
    store_user,
    turn_ended,
    wait_for_audit,
)
from playwright.sync_api import Page, Route, expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

QUESTION = "find milk"
# The chunks that can carry a script writing the cookie (st.iframe, components v1 and v2).
WRITER_CODE = re.compile(r"/static/js/(IFrame|BidiComponent|ComponentInstance)\.[^/]*\.js$")
WRITER = ".st-key-browser-cookie-writer"
# Counts, on every change of the page, how many "NutriCart" titles it shows at once.
COUNT_TITLES = """
window.mostTitles = 0;
new MutationObserver(() => {
  const titles = [...document.querySelectorAll("h1")].filter(
    (h) => h.textContent.trim() === "NutriCart");
  window.mostTitles = Math.max(window.mostTitles, titles.length);
}).observe(document, { subtree: true, childList: true });
"""


def test_a_slow_cookie_writer_still_keeps_the_chats_and_activity(
    page: Page, server: Server
) -> None:
    held: list[Route] = []
    page.route(WRITER_CODE, lambda route: held.append(route))
    open_page(page, server, "nutricart", "NutriCart")
    assert held, "no cookie writer code was requested: this test no longer delays anything"
    ids = [c for c in page.context.cookies() if c["name"] == BROWSER_COOKIE]
    assert not ids, "the id landed before the delay"

    send(page, QUESTION)  # at once: the page reruns before the writer could run
    turn_ended(page, server, page.get_by_role("button", name="Add", exact=True).first)
    for route in held:  # the writer's code arrives late, after the rerun
        route.continue_()
    page.unroute(WRITER_CODE)

    person = store_user(browser_id(page, COOKIE_SECONDS))
    calls = wait_for_audit(server, person)  # the turn's calls are this browser's
    expect(page.locator(WRITER)).to_have_count(0)  # confirmed, gone

    page.reload()
    shown(page, server, page.get_by_role("heading", name="NutriCart", exact=True), FIRST_PAGE_MS)
    expect(page.get_by_test_id("stChatMessage").filter(has_text=QUESTION)).to_be_visible()

    open_page(page, server, "activity", "Activity")
    entries = page.get_by_test_id("stExpander")
    for server_key, tool in calls:
        expect(entries.filter(has_text=server_key).filter(has_text=tool).first).to_be_visible()
    assert store_user(browser_id(page)) == person  # still the same person


def test_the_writer_leaving_never_shows_the_page_twice(page: Page, server: Server) -> None:
    """The writer's report reruns the page right after it first shows; the writer's place
    is kept (empty), so nothing moves and no element is shown beside its stale copy."""
    page.add_init_script(COUNT_TITLES)
    open_page(page, server, "nutricart", "NutriCart")
    browser_id(page)  # the writer ran...
    expect(page.locator(WRITER)).to_have_count(0)  # ...reported, and left
    settled(page)
    assert page.evaluate("window.mostTitles") == 1
