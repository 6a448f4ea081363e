"""The standing diet in a real browser at desktop and phone width (offline demo):

    Connections → Your diet: Vegetarian, 60 g protein a day → Save my diet
    FeedMe "I want a biryani" → Menu: the non-veg dishes last, each with its red badge
    NutriCart "add 2 amul taaza milk" → the cart panel's nutrition estimate and the goal

Screenshots go to SWIGGY_SCREENSHOT_DIR and /tmp/shots23 for a person to look at.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from e2e_support import (
    FIRST_PAGE_MS,
    NARROW,
    Server,
    open_page,
    send,
    settled,
    shown,
    turn_ended,
    whole_page_shot,
)
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

REVIEW = Path("/tmp/shots23")
NOT_VEG = "Not vegetarian"  # the badge; what it rests on is the caption under it
MARKED = "The shop marks it non-veg."


def _keep(page: Page, path: Path, *, whole: bool = True) -> None:
    """The shot, kept under the test's folder and copied for review."""
    settled(page)
    if whole:
        whole_page_shot(page, path)
    else:
        page.screenshot(path=str(path), animations="disabled")
    REVIEW.mkdir(parents=True, exist_ok=True)
    shutil.copy(path, REVIEW / f"D-{path.name}")


def _set_diet(page: Page, server: Server, shots: Path, width: int) -> None:
    open_page(page, server, "connections", "Connections")
    section = page.locator("[data-testid='stForm']").filter(has_text="You eat")
    section.get_by_text("Vegetarian", exact=True).click()
    section.get_by_label("Daily protein goal (g)").fill("60")
    section.get_by_role("button", name="Save my diet").click()
    saved = page.get_by_text("Saved. You eat: Vegetarian · goal: 60 g protein a day")
    shown(page, server, saved)
    saved.scroll_into_view_if_needed()
    _keep(page, shots / f"diet-connections-{width}.png", whole=False)


def _flagged_menu(page: Page, server: Server, shots: Path, width: int) -> None:
    page.goto(f"{server.url}/feedme", wait_until="domcontentloaded")
    shown(page, server, page.get_by_placeholder("Ask FeedMe…"), FIRST_PAGE_MS)
    send(page, "I want a biryani", placeholder="Ask FeedMe…")
    menu = page.get_by_role("button", name="Menu", exact=True)
    turn_ended(page, server, menu.first, placeholder="Ask FeedMe…")
    menu.first.click()
    moved = page.get_by_text(re.compile(r"may not suit your diet: moved to the end and flagged"))
    turn_ended(page, server, moved.last, placeholder="Ask FeedMe…")
    page.get_by_role("button", name=re.compile(r"^Show \d+ more$")).last.click()
    badge = page.get_by_text(NOT_VEG)
    shown(page, server, badge.last)
    expect(page.get_by_text(MARKED, exact=True).last).to_be_visible()
    _keep(page, shots / f"diet-feedme-{width}.png")


def _nutrition(page: Page, server: Server, shots: Path, width: int) -> None:
    page.goto(f"{server.url}/nutricart", wait_until="domcontentloaded")
    shown(page, server, page.get_by_placeholder("Ask NutriCart…"), FIRST_PAGE_MS)
    send(page, "add 2 amul taaza milk")
    turn_ended(page, server, page.get_by_text(re.compile(r"Cart updated")).first)
    sidebar = page.get_by_test_id("stSidebar")
    if width == NARROW:  # a phone keeps the sidebar folded: the cart bar opens it
        page.get_by_test_id("stBottom").locator("[class*='st-key-cart-open-'] button").click()
        expect(sidebar).to_have_attribute("data-collapsed", "false")
    estimate = sidebar.get_by_text(re.compile(r"Nutrition estimate"))
    shown(page, server, estimate)
    goal = sidebar.get_by_text(re.compile(r"days of your 60 g daily protein goal"))
    goal.scroll_into_view_if_needed()
    expect(goal).to_be_in_viewport()
    expect(estimate).to_be_visible()
    _keep(page, shots / f"diet-nutricart-{width}.png", whole=False)


def test_a_set_diet_flags_dishes_and_estimates_the_cart(
    page: Page, server: Server, screenshot_dir: Path
) -> None:
    width = page.viewport_size["width"] if page.viewport_size else 0
    _set_diet(page, server, screenshot_dir, width)
    _flagged_menu(page, server, screenshot_dir, width)
    _nutrition(page, server, screenshot_dir, width)
