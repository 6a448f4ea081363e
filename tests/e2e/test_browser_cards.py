"""Card layout in a real browser, at desktop and phone widths.

The offline demo answers three first requests, one per shop, and each answer's cards are
photographed whole at 1400 and 390 px (SWIGGY_SCREENSHOT_DIR keeps the pictures):

    NutriCart   "find high-protein snacks under 200"             → a grid of product cards
    FeedMe      "I want a paneer biryani"                         → restaurant cards
    TableScout  "Book a table for 4 tomorrow at 8 pm near Indiranagar", then Slots
                                                                   → the slot picker
    TableScout  "italian dinner for 2 tomorrow at 8 pm", then Slots → 8 PM filled, its
                                                                   neighbours outlined

What a person would notice is asserted: no card is wider than a normal card, no "0.0 km",
and at phone width no card or slot chip runs off the screen.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from e2e_support import (
    FIRST_PAGE_MS,
    WIDE,
    Server,
    send,
    shown,
    whole_page_shot,
)
from playwright.sync_api import Locator, Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

# A card in a three-column grid of the 1400 px page is about 240 px wide; a lone card
# stretched across the page was about 870 px.
NORMAL_CARD_PX = 420
SLOT_TIME = re.compile(r"^\d{1,2}:\d{2} [AP]M$")


def _open(page: Page, server: Server, shop: str) -> None:
    # Straight to the shop's address: on a phone the navigation would slide over the page.
    page.goto(f"{server.url}/{shop.lower()}", wait_until="domcontentloaded")
    shown(page, server, page.get_by_placeholder(f"Ask {shop}…"), FIRST_PAGE_MS)


def _width(page: Page) -> int:
    size = page.viewport_size
    assert size is not None
    return int(size["width"])


def _within_screen(page: Page, target: Locator) -> None:
    box = target.bounding_box()
    assert box is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= _width(page) + 1


def _cards_fit(page: Page, cards: Locator) -> None:
    """No card wider than a normal one on a desktop; none off screen on a phone."""
    for index in range(cards.count()):
        card = cards.nth(index)
        box = card.bounding_box()
        assert box is not None
        if _width(page) == WIDE:
            assert box["width"] <= NORMAL_CARD_PX, f"card {index} is {box['width']:.0f} px wide"
        else:
            _within_screen(page, card)


def test_grocery_search_cards(page: Page, server: Server, screenshot_dir: Path) -> None:
    _open(page, server, "NutriCart")
    send(page, "find high-protein snacks under 200")
    shown(page, server, page.get_by_role("button", name="Add", exact=True).first)
    cards = (
        page.locator("[data-testid='stVerticalBlock']")
        .filter(has=page.get_by_role("button", name="Add", exact=True))
        .filter(has_not=page.locator("[data-testid='stHorizontalBlock']"))
    )
    _cards_fit(page, cards)
    whole_page_shot(page, screenshot_dir / f"cards-grocery-{_width(page)}.png")


def test_restaurant_list_cards(page: Page, server: Server, screenshot_dir: Path) -> None:
    _open(page, server, "FeedMe")
    send(page, "I want a paneer biryani", placeholder="Ask FeedMe…")
    shown(page, server, page.get_by_role("button", name="Menu").first)
    expect(page.get_by_text("0.0 km")).to_have_count(0)
    cards = (
        page.locator("[data-testid='stVerticalBlock']")
        .filter(has=page.get_by_role("button", name="Menu"))
        .filter(has_not=page.locator("[data-testid='stHorizontalBlock']"))
    )
    _cards_fit(page, cards)
    whole_page_shot(page, screenshot_dir / f"cards-restaurants-{_width(page)}.png")


def test_slot_picker(page: Page, server: Server, screenshot_dir: Path) -> None:
    _open(page, server, "TableScout")
    send(
        page,
        "Book a table for 4 tomorrow at 8 pm near Indiranagar",
        placeholder="Ask TableScout…",
    )
    shown(page, server, page.get_by_role("button", name="Slots").first).click()
    chip = page.get_by_role("button", name=SLOT_TIME)
    shown(page, server, chip.first)
    for index in range(min(chip.count(), 12)):
        if chip.nth(index).is_visible():
            _within_screen(page, chip.nth(index))
    # Filled reads as chosen: only the asked-for time may be (this venue may have no table
    # left at 8 pm); the nearest free times around it are outlined, never filled.
    filled = page.get_by_test_id("stBaseButton-primary").filter(visible=True)
    filled_times = [filled.nth(i).inner_text() for i in range(filled.count())]
    times = [t for t in filled_times if re.search(r"\d:\d\d [AP]M", t)]
    assert len(times) <= 1 and all(t.endswith("8:00 PM") for t in times), filled_times
    outlined = page.locator("[class*='st-key-slotnear-'] button").filter(visible=True)
    expect(outlined).to_have_count(4)
    for index in range(4):
        _outlined_in_orange(outlined.nth(index))
    whole_page_shot(page, screenshot_dir / f"cards-slots-{_width(page)}.png")


def test_slot_picker_fills_only_the_asked_time(
    page: Page, server: Server, screenshot_dir: Path
) -> None:
    _open(page, server, "TableScout")
    send(page, "italian dinner for 2 tomorrow at 8 pm", placeholder="Ask TableScout…")
    shown(page, server, page.get_by_role("button", name="Slots").first).click()
    outlined = page.locator("[class*='st-key-slotnear-'] button").filter(visible=True)
    shown(page, server, outlined.first)
    filled = page.get_by_test_id("stBaseButton-primary").filter(visible=True)
    expect(filled).to_have_count(1)
    expect(filled).to_have_text(re.compile(r"8:00 PM$"))  # after its star
    expect(outlined).to_have_count(4)
    for index in range(4):
        _outlined_in_orange(outlined.nth(index))
    page.mouse.move(0, 0)  # no chip in its hover colour in the picture
    whole_page_shot(page, screenshot_dir / f"cards-slots-asked-{_width(page)}.png")


def _outlined_in_orange(chip: Locator) -> None:
    """A neighbour's border is the theme's orange and its face stays unfilled."""
    border, face = chip.evaluate(
        "el => [getComputedStyle(el).borderTopColor, getComputedStyle(el).backgroundColor]"
    )
    red, green, blue = (int(part) for part in re.findall(r"\d+", border)[:3])
    assert red > 200 and 100 < green < 160 and blue < 80, border
    assert _channels(face) != _channels(border), face


def _channels(colour: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", colour)[:3])
