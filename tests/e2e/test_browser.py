"""The real app in a real browser: `streamlit run app.py` driven by headless Chromium.

The server, the browser and the waits live in conftest.py and e2e_support.py: nothing
leans on Playwright's 5 s defaults, every step waits for Streamlit to finish its script
run, and an exception shown in the page fails the test at once.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from e2e_support import (
    FIRST_PAGE_MS,
    NARROW,
    NARROW_HEIGHT,
    WIDE,
    WIDE_HEIGHT,
    Server,
    browser_context,
    send,
    settled,
    shown,
)
from playwright.sync_api import Browser, Page, expect

# The fixtures' setup is part of the test's time, so the 120 s suite default is too tight.
pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    with browser_context(browser, WIDE) as context:
        yield context.new_page()


def test_offline_demo_grocery_flow_in_a_browser(
    page: Page, server: Server, screenshot_dir: Path, timings: dict[str, float]
) -> None:
    started = time.monotonic()
    page.goto(server.url, wait_until="domcontentloaded")
    shown(page, server, page.get_by_role("heading", name="Shop by chatting"), FIRST_PAGE_MS)
    timings["cold start to first page"] = time.monotonic() - server.started
    timings["goto to first page"] = time.monotonic() - started
    expect(page.get_by_text("Offline demo.", exact=False).first).to_be_visible()

    page.get_by_role("link", name="NutriCart").first.click()
    shown(page, server, page.get_by_role("heading", name="NutriCart", exact=True))
    shown(page, server, page.get_by_placeholder("Ask NutriCart…"))

    # The header already delivers to the first saved address: no address step.
    expect(page.get_by_text("Deliver to").first).to_be_visible()
    send(page, "find high-protein snacks under 200")
    shown(page, server, page.get_by_role("button", name="Add", exact=True).first).click()
    # The cart card (not just the streamed text) arrives with its Place order button.
    shown(page, server, page.get_by_role("button", name="Place order").last)
    expect(page.get_by_text("To pay", exact=True).last).to_be_visible()
    timings["whole flow"] = time.monotonic() - started

    place_order = page.get_by_role("button", name="Place order").last
    for width, height in ((WIDE, WIDE_HEIGHT), (NARROW, NARROW_HEIGHT)):
        page.set_viewport_size({"width": width, "height": height})
        settled(page)
        sidebar = page.get_by_test_id("stSidebar")
        if width == NARROW:
            # Streamlit slides the sidebar (and the cart panel in it) away on a phone:
            # let it finish, then open it as a person would to reach the cart.
            expect(sidebar).not_to_be_in_viewport()
            page.get_by_test_id("stExpandSidebarButton").click()
            settled(page)
        expect(sidebar).to_be_in_viewport()
        place_order.scroll_into_view_if_needed()
        expect(place_order).to_be_in_viewport()
        shot = screenshot_dir / f"nutricart-{width}.png"
        page.screenshot(path=str(shot), full_page=True, animations="disabled")
        assert shot.stat().st_size > 10_000
