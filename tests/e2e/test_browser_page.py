"""The newest reply is in view after sending, even when the person had scrolled up."""

from __future__ import annotations

from pathlib import Path

import pytest
from e2e_support import (
    Server,
    open_page,
    send,
    settled,
    shown,
    turn_ended,
    whole_page_shot,
)
from playwright.sync_api import Locator, Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

SCROLLER = "stAppScrollToBottomContainer"  # Streamlit scrolls inside this, not the window


def test_the_newest_reply_is_in_view_after_sending_while_scrolled_up(
    page: Page, server: Server, screenshot_dir: Path
) -> None:
    width = page.viewport_size["width"] if page.viewport_size else 0
    open_page(page, server, "nutricart", "NutriCart")
    add = page.get_by_role("button", name="Add")
    send(page, "Find high-protein snacks under ₹200")
    turn_ended(page, server, add.first)
    first_reply_adds = add.count()
    send(page, "find milk")
    # Wait for this reply to end (its own cards, then the open input): words sent while a
    # reply runs are kept rather than sent, which is tested on its own.
    turn_ended(page, server, add.nth(first_reply_adds))
    # Scroll up as a person does (a wheel), so Streamlit stops following the chat's end.
    # A phone's chat is many screens tall and still grows while images arrive: keep
    # scrolling until the top is on screen, as a person would.
    page.get_by_test_id(SCROLLER).hover()
    heading = page.get_by_role("heading", name="NutriCart", exact=True)
    for _ in range(60):
        page.mouse.wheel(0, -1500)
        page.wait_for_timeout(250)
        if _on_screen(heading):
            # The page follows a reply for a few seconds until the person scrolls; should
            # it have pulled the page down before the first wheel landed, go on.
            settled(page)
            page.wait_for_timeout(1000)
            if _on_screen(heading):
                break
    expect(heading).to_be_in_viewport()  # scrolled up to the top of a long chat

    send(page, "find eggs")
    said = page.get_by_test_id("stChatMessage").filter(
        has=page.get_by_test_id("stChatMessageAvatarUser")
    )
    asked = said.filter(has_text="find eggs")
    # While a run redraws the chat, the run before's copy can stand for a moment next to
    # the new one: wait for the newest, then for the words to stand once.
    shown(page, server, asked.last)
    expect(asked).to_have_count(1)
    try:
        newest = page.get_by_test_id("stChatMessage").last  # the reply to "find eggs"
        expect(newest).not_to_contain_text("find eggs")
        expect(newest).to_be_in_viewport()
        expect(heading).not_to_be_in_viewport()  # the page moved to the reply
    finally:
        page.screenshot(path=str(screenshot_dir / f"page-scrolled-{width}.png"))
        whole_page_shot(page, screenshot_dir / f"page-whole-{width}.png")


def _on_screen(target: Locator) -> bool:
    box = target.bounding_box()
    return box is not None and box["y"] >= 0
