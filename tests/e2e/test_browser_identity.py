"""Identity in a real browser, login off: a cookie keeps a browser's chats through page
switches and reloads; a link cannot carry anyone's identity; another browser sees none."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from e2e_support import (
    FIRST_PAGE_MS,
    STEP_MS,
    Server,
    browser_id,
    fail_on_exception,
    send,
    settled,
    shown,
)
from playwright.sync_api import Browser, BrowserContext, Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

QUESTION = "show my saved addresses"
# How long a page switch may take before its link is pressed again (a lost click).
RECLICK_MS = 20_000


def _context(browser: Browser) -> BrowserContext:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(STEP_MS)
    context.set_default_navigation_timeout(STEP_MS)
    return context


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    made = _context(browser)
    try:
        yield made
    finally:
        made.close()


def _open(page: Page, server: Server, path: str, heading: str) -> None:
    page.goto(f"{server.url}/{path}")
    shown(page, server, page.get_by_role("heading", name=heading, exact=True), FIRST_PAGE_MS)


def _asked(page: Page) -> bool:
    return page.get_by_test_id("stChatMessage").filter(has_text=QUESTION).count() > 0


def _go_to(page: Page, server: Server, shop: str) -> None:
    """Open `shop` from the sidebar. On a loaded machine a rerun the page was still
    finishing (its cookie written) can land on the click and keep the old page: the
    link is pressed again then, as a person would."""
    heading = page.get_by_role("heading", name=shop, exact=True)
    for _attempt in range(3):
        page.get_by_test_id("stSidebarNav").get_by_text(shop).click()
        try:
            expect(heading).to_be_visible(timeout=RECLICK_MS)
            break
        except AssertionError:
            fail_on_exception(page, server)
    shown(page, server, heading)


def test_a_browser_keeps_its_chats_through_navigation_and_reload(
    browser: Browser, context: BrowserContext, server: Server
) -> None:
    page = context.new_page()
    _open(page, server, "nutricart", "NutriCart")
    send(page, QUESTION)
    shown(page, server, page.get_by_test_id("stChatMessage").filter(has_text=QUESTION))
    shown(page, server, page.get_by_placeholder("Ask NutriCart…"))
    mine = browser_id(page)  # the page writes it just after its first run: waited for
    assert len(mine) == 32

    _go_to(page, server, "StyleKit")
    _go_to(page, server, "NutriCart")
    assert _asked(page)

    page.reload()
    shown(page, server, page.get_by_role("heading", name="NutriCart", exact=True), FIRST_PAGE_MS)
    expect(page.get_by_test_id("stChatMessage").filter(has_text=QUESTION)).to_be_visible()

    # A link names nobody: a forged `u` changes nothing for this browser...
    page.goto(f"{server.url}/nutricart?u=a")
    shown(page, server, page.get_by_role("heading", name="NutriCart", exact=True), FIRST_PAGE_MS)
    expect(page.get_by_test_id("stChatMessage").filter(has_text=QUESTION)).to_be_visible()

    # ...and another browser, even with this browser's id in the link, sees nothing.
    other = _context(browser)
    try:
        stranger = other.new_page()
        stranger.goto(f"{server.url}/nutricart?u={mine}")
        shown(
            stranger,
            server,
            stranger.get_by_role("heading", name="NutriCart", exact=True),
            FIRST_PAGE_MS,
        )
        settled(stranger)
        assert not _asked(stranger)
        assert browser_id(stranger) != mine
    finally:
        other.close()
