"""The cart in view at every width, in a real browser (offline demo, NutriCart).

    "add 4 amul taaza milk"  → product cards and a cart of 4 × ₹27 = ₹108

At 390 px the sidebar stays folded: the bar under the chat input says "4 items · ₹…"
without opening anything, the cards sit two a row, the first reply's cards fit in about
one and a half screens, the bar slides the sidebar in at its cart, and Place order there
slides it out again. At 1400 px the sidebar shows the cart with no amount cut short, and
the bar appears only once the sidebar is folded. Screenshots go to SWIGGY_SCREENSHOT_DIR.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from e2e_support import (
    FIRST_PAGE_MS,
    NARROW,
    Server,
    send,
    settled,
    shown,
    turn_ended,
    whole_page_shot,
)
from playwright.sync_api import Locator, Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

# The bar's label; matched on the label alone, as its icons' names are text too.
BAR = re.compile(r"^4 items · ₹[\d,]+$")
AMOUNT = re.compile(r"^₹[\d,]+(?:\.\d+)?$")
SCREENS_OF_CARDS = 1.5  # what a first search may take before "Show more"


def test_cart_in_view_at_every_width(page: Page, server: Server, screenshot_dir: Path) -> None:
    size = page.viewport_size
    assert size is not None
    width, height = size["width"], size["height"]
    page.goto(f"{server.url}/nutricart", wait_until="domcontentloaded")
    shown(page, server, page.get_by_placeholder("Ask NutriCart…"), FIRST_PAGE_MS)
    send(page, "add 4 amul taaza milk")
    turn_ended(page, server, page.get_by_text(re.compile(r"Cart updated")).first)

    sidebar = page.get_by_test_id("stSidebar")
    bar = page.get_by_test_id("stBottom").locator("[class*='st-key-cart-open-'] button")
    page.screenshot(path=str(screenshot_dir / f"cart-bar-{width}.png"), animations="disabled")
    if width == NARROW:
        expect(sidebar).to_have_attribute("data-collapsed", "true")
        expect(bar).to_be_in_viewport()
        expect(bar.get_by_test_id("stMarkdownContainer")).to_have_text(BAR)
        _below(bar, page.get_by_placeholder("Ask NutriCart…"))
        _two_cards_a_row(page, height)
        _bar_opens_the_cart(page, server, bar, sidebar, screenshot_dir)
    else:
        expect(sidebar).to_have_attribute("data-collapsed", "false")
        _amounts_not_cut(sidebar.locator("[class*='st-key-cart-panel-']"))
        expect(bar).to_be_hidden()  # the sidebar beside the chat already shows the cart
        sidebar.hover()  # a desktop shows the fold button only under the pointer
        sidebar.get_by_test_id("stSidebarCollapseButton").get_by_role("button").click()
        expect(sidebar).to_have_attribute("data-collapsed", "true")
        expect(bar).to_be_in_viewport()
        page.screenshot(
            path=str(screenshot_dir / f"cart-bar-{width}-sidebar-folded.png"),
            animations="disabled",
        )
    whole_page_shot(page, screenshot_dir / f"cart-bar-{width}-full.png")


def _cards(scope: Locator, page: Page) -> Locator:
    """The product cards (a bordered block with an Add button and no row inside)."""
    return (
        scope.locator("[data-testid='stVerticalBlock']")
        .filter(has=page.get_by_role("button", name="Add", exact=True))
        .filter(has_not=page.locator("[data-testid='stHorizontalBlock']"))
    )


def _two_cards_a_row(page: Page, height: int) -> None:
    add = page.get_by_role("button", name="Add", exact=True)
    reply = page.get_by_test_id("stChatMessage").filter(has=add).first
    cards = _cards(reply, page)
    assert cards.count() >= 2
    first, second = _box(cards.nth(0)), _box(cards.nth(1))
    assert abs(first["y"] - second["y"]) < 2, (first, second)  # side by side
    assert second["x"] >= first["x"] + first["width"], (first, second)
    assert second["x"] + second["width"] <= NARROW + 1, second  # both on the screen
    last = _box(cards.nth(cards.count() - 1))
    span = last["y"] + last["height"] - first["y"]
    assert span <= SCREENS_OF_CARDS * height, f"the cards take {span:.0f} px"


def _bar_opens_the_cart(
    page: Page, server: Server, bar: Locator, sidebar: Locator, shots: Path
) -> None:
    """The bar slides the drawer in at the cart; its Place order slides the drawer out."""
    bar.click()
    expect(sidebar).to_have_attribute("data-collapsed", "false")
    place = sidebar.get_by_role("button", name="Place order")
    expect(place).to_be_in_viewport()
    expect(sidebar.get_by_text(re.compile(r"^Amul Taaza Toned Milk"))).to_be_in_viewport()
    settled(page)
    page.screenshot(path=str(shots / f"cart-bar-{NARROW}-open.png"), animations="disabled")
    place.click()
    expect(sidebar).to_have_attribute("data-collapsed", "true")
    settled(page)
    page.screenshot(path=str(shots / f"cart-bar-{NARROW}-placed.png"), animations="disabled")


def _amounts_not_cut(panel: Locator) -> None:
    """Every ₹ amount in the panel shows whole: not wider than its box, inside its row."""
    amounts = panel.get_by_text(AMOUNT)
    expect(amounts.first).to_be_visible()
    panel_box = _box(panel)
    for index in range(amounts.count()):
        amount = amounts.nth(index)
        text = amount.inner_text()
        assert amount.evaluate("el => el.scrollWidth <= el.clientWidth"), text
        box = _box(amount)
        assert box["x"] + box["width"] <= panel_box["x"] + panel_box["width"], text
        row = amount.locator("xpath=ancestor::*[@data-testid='stHorizontalBlock'][1]")
        if row.count():
            assert row.evaluate("el => el.scrollWidth <= el.clientWidth"), f"{text}: row overflows"
            row_box = _box(row)
            assert box["x"] + box["width"] <= row_box["x"] + row_box["width"] + 0.5, text


def _below(lower: Locator, upper: Locator) -> None:
    low, up = _box(lower), _box(upper)
    assert low["y"] >= up["y"] + up["height"] - 1, (low, up)


def _box(target: Locator) -> dict[str, float]:
    box = target.bounding_box()
    assert box is not None
    return dict(box)
