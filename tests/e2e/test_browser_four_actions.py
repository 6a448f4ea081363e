"""A first-time shopper's grocery order, and a food order, in four actions at desktop and
phone width: search, Add (food: on a matching dish, no menu to open), Place order (the
sidebar's on a desktop, the cart bar's on a phone), Confirm; the address already chosen in
the header, no address step, no refusal in the chat. Then the same order sent elsewhere
from inside the dialog."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from e2e_support import FIRST_PAGE_MS, NARROW, Server, send, shown, turn_ended
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]


@dataclass(frozen=True)
class Shop:
    path: str
    name: str
    query: str

    @property
    def placeholder(self) -> str:
        return f"Ask {self.name}…"


GROCERIES = Shop("nutricart", "NutriCart", "find amul taaza milk")
FOOD = Shop("feedme", "FeedMe", "I want a paneer biryani")


def _width(page: Page) -> int:
    return page.viewport_size["width"] if page.viewport_size else 0


def _open(page: Page, server: Server, shop: Shop = GROCERIES) -> None:
    page.goto(f"{server.url}/{shop.path}", wait_until="domcontentloaded")
    shown(page, server, page.get_by_role("heading", name=shop.name, exact=True), FIRST_PAGE_MS)
    shown(page, server, page.get_by_placeholder(shop.placeholder))


def _search_add_place(page: Page, server: Server, shop: Shop = GROCERIES) -> None:
    """Actions 1-3: Place order is the one in view, the sidebar's or the cart bar's."""
    send(page, shop.query, placeholder=shop.placeholder)  # 1
    add = page.get_by_role("button", name="Add", exact=True)
    turn_ended(page, server, add.first, placeholder=shop.placeholder)
    expect(page.get_by_role("button", name="Use this address")).to_have_count(0)
    add.first.click()  # 2
    updated = page.get_by_text(re.compile(r"Cart updated")).first
    turn_ended(page, server, updated, placeholder=shop.placeholder)
    sidebar = page.get_by_test_id("stSidebar")
    if _width(page) == NARROW:  # the sidebar is folded away; the bar under the input is not
        expect(sidebar).to_have_attribute("data-collapsed", "true")
        place = page.get_by_test_id("stBottom").get_by_role("button", name="Place order")
    else:
        place = sidebar.get_by_role("button", name="Place order")
    expect(place).to_be_in_viewport()
    place.click()  # 3


@pytest.mark.parametrize("shop", [GROCERIES, FOOD], ids=["groceries", "food"])
def test_an_order_in_four_actions(
    page: Page, server: Server, screenshot_dir: Path, shop: Shop
) -> None:
    _open(page, server, shop)
    _search_add_place(page, server, shop)
    dialog = page.get_by_role("dialog").filter(has_text="Please confirm")
    shown(page, server, dialog)
    refusals = page.get_by_test_id("stAlert").filter(has_text=re.compile("address", re.I))
    expect(refusals).to_have_count(0)  # never "choose an address first" in the chat
    dialog.get_by_role("button", name="Confirm", exact=True).click()  # 4
    shown(page, server, page.get_by_text("Order placed", exact=True).first)
    page.screenshot(path=str(screenshot_dir / f"four-actions-{shop.path}-{_width(page)}.png"))


def test_the_dialog_sends_it_to_another_saved_address(page: Page, server: Server) -> None:
    _open(page, server)
    _search_add_place(page, server)
    dialog = page.get_by_role("dialog").filter(has_text="Please confirm")
    shown(page, server, dialog)
    work = dialog.get_by_role("radio", name=re.compile(r"^Work · "))
    work.check(force=True)
    expect(work).to_be_checked()
    dialog.get_by_role("button", name="Confirm", exact=True).click()
    shown(page, server, page.get_by_text("Order placed", exact=True).first)
    header = page.get_by_role("combobox", name="Deliver to")
    expect(header).to_have_value(re.compile(r"^Work · "))  # the header follows the dialog
    expect(page.get_by_text(re.compile(r"placed to Work")).first).to_be_visible()
