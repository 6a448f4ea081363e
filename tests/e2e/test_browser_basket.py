"""A shopping list in a browser at desktop and phone width: typed on NutriCart, reviewed
in the chat (best match, alternatives, quantities, an unmatched line), then Add all and
the cart holds it. Screenshots of the review and the cart afterwards are saved (and
copied to /tmp/shots23 when that folder exists)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from e2e_support import FIRST_PAGE_MS, NARROW, Server, send, shown, turn_ended
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]
REVIEW_FOLDER = Path("/tmp/shots23")
LIST = "1 l milk, brown bread x2, paneer, something for dal tadka"


def _shot(page: Page, folder: Path, name: str) -> None:
    width = page.viewport_size["width"] if page.viewport_size else 0
    path = folder / f"B-{name}-{width}.png"
    page.screenshot(path=str(path))
    if REVIEW_FOLDER.is_dir():
        shutil.copy(path, REVIEW_FOLDER / path.name)


def test_a_typed_list_to_a_reviewed_cart(page: Page, server: Server, screenshot_dir: Path) -> None:
    page.goto(f"{server.url}/nutricart", wait_until="domcontentloaded")
    shown(page, server, page.get_by_role("heading", name="NutriCart", exact=True), FIRST_PAGE_MS)

    send(page, LIST)
    card = page.locator("[class*='st-key-basket-food']").first
    turn_ended(page, server, card.get_by_text(re.compile(r"^Your list: ")))
    expect(card.get_by_text("1 l milk", exact=True)).to_be_visible()
    expect(card.get_by_text(re.compile(r"no match in stock"))).to_be_visible()
    expect(card.get_by_text(re.compile(r"E-1034"))).to_be_visible()
    card.get_by_text(re.compile(r"^Your list: ")).scroll_into_view_if_needed()
    _shot(page, screenshot_dir, "review")

    card.get_by_role("button", name="Add all").click()
    asked = page.get_by_text(re.compile(r"Add all: 4 items from your list")).first
    turn_ended(page, server, asked)
    shown(page, server, page.get_by_text(re.compile(r"Added your list")).first)
    narrow = page.viewport_size is not None and page.viewport_size["width"] == NARROW
    where = page.get_by_test_id("stBottom" if narrow else "stSidebar")
    expect(where.get_by_role("button", name="Place order")).to_be_visible()
    _shot(page, screenshot_dir, "cart")
