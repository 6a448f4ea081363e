"""After the four actions the Order placed card follows the order, and the shop page shows
it at the top when opened again, at desktop and phone width (the sandbox's clock is frozen,
so the order stays on its way)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from e2e_support import Server, shown, whole_page_shot
from playwright.sync_api import Page, expect
from test_browser_four_actions import GROCERIES, _open, _search_add_place, _width

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]
REVIEW = Path("/tmp/shots22")


def _review_copy(shot: Path) -> None:
    """The pictures a person looks at for this issue (where that folder can be made)."""
    try:
        REVIEW.mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, REVIEW / f"T-{shot.name}")
    except OSError:
        pass


def test_the_placed_order_is_tracked_and_shown_at_the_top(
    page: Page, server: Server, screenshot_dir: Path
) -> None:
    _open(page, server, GROCERIES)
    _search_add_place(page, server, GROCERIES)
    dialog = page.get_by_role("dialog").filter(has_text="Please confirm")
    shown(page, server, dialog)
    dialog.get_by_role("button", name="Confirm", exact=True).click()
    placed = page.get_by_text("Order placed", exact=True).first
    shown(page, server, placed)
    card = (
        page.get_by_test_id("stVerticalBlock")
        .filter(has=placed)
        .filter(has=page.get_by_test_id("stProgress"))
    )
    expect(card.last.get_by_text("Order confirmed")).to_be_visible()
    expect(card.last.get_by_text("Arriving in 12 min")).to_be_visible()
    chat_shot = screenshot_dir / f"tracking-card-{_width(page)}.png"
    whole_page_shot(page, chat_shot)
    _review_copy(chat_shot)

    _open(page, server, GROCERIES)  # the page opened again: the order waits at the top
    strip = page.get_by_text("On its way to you", exact=True)
    shown(page, server, strip)
    expect(page.get_by_test_id("stProgress").first).to_be_visible()
    above = strip.bounding_box()
    chat = page.get_by_text("find amul taaza milk").first.bounding_box()
    assert above is not None and chat is not None and above["y"] < chat["y"]
    strip.scroll_into_view_if_needed()  # the page opens scrolled to the newest message
    top_shot = screenshot_dir / f"tracking-top-{_width(page)}.png"
    page.screenshot(path=str(top_shot))
    _review_copy(top_shot)
