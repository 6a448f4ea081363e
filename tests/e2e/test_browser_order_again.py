"""Order it again in a browser at desktop and phone width: a cash order placed, then
Your orders → Order again → the review → Add to cart, and the cart holds it again.
Screenshots of the list, the review and the cart afterwards are saved (and copied to
/tmp/shots22 when that folder exists)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from e2e_support import FIRST_PAGE_MS, NARROW, Server, send, shown, turn_ended
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]
REVIEW_FOLDER = Path("/tmp/shots22")


def _shot(page: Page, folder: Path, name: str) -> None:
    width = page.viewport_size["width"] if page.viewport_size else 0
    path = folder / f"R-{name}-{width}.png"
    page.screenshot(path=str(path))
    if REVIEW_FOLDER.is_dir():
        shutil.copy(path, REVIEW_FOLDER / path.name)


def _place_order(page: Page, server: Server) -> None:
    send(page, "add 2 amul taaza milk")
    updated = page.get_by_text(re.compile(r"Cart updated")).first
    turn_ended(page, server, updated)
    narrow = page.viewport_size is not None and page.viewport_size["width"] == NARROW
    where = page.get_by_test_id("stBottom" if narrow else "stSidebar")
    where.get_by_role("button", name="Place order").click()
    dialog = page.get_by_role("dialog").filter(has_text="Please confirm")
    shown(page, server, dialog).get_by_role("button", name="Confirm", exact=True).click()
    shown(page, server, page.get_by_text("Order placed", exact=True).first)


def test_order_again_in_two_actions(page: Page, server: Server, screenshot_dir: Path) -> None:
    page.goto(f"{server.url}/nutricart", wait_until="domcontentloaded")
    shown(page, server, page.get_by_role("heading", name="NutriCart", exact=True), FIRST_PAGE_MS)
    _place_order(page, server)

    page.get_by_role("button", name="Your orders").click()
    dialog = page.get_by_role("dialog").filter(has_text="Your orders")
    shown(page, server, dialog.get_by_text(re.compile(r"2 × Amul Taaza")).first)
    _shot(page, screenshot_dir, "orders")

    dialog.get_by_role("button", name="Order again").first.click()  # 1
    shown(page, server, dialog.get_by_text(re.compile(r"^Order again from")))
    expect(dialog.get_by_text(re.compile(r"2 × Amul Taaza"))).to_be_visible()
    _shot(page, screenshot_dir, "review")

    dialog.get_by_role("button", name="Add to cart").click()  # 2
    expect(page.get_by_role("dialog")).to_have_count(0)
    asked = page.get_by_text("Order again: 2 items from your past order").first
    turn_ended(page, server, asked)
    shown(page, server, page.get_by_text(re.compile(r"Added your order again")).first)
    _shot(page, screenshot_dir, "cart")
