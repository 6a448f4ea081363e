"""The Spending page in a real browser at desktop and phone width: the charts draw, the
tabs switch, the table and the CSV button are there (screenshots for a person to read)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from e2e_support import (
    Server,
    browser_id,
    open_page,
    settled,
    shown,
    store_user,
)
from playwright.sync_api import Page, expect
from spend_records import record_spend

from swiggy_core.approval.limits import SpendingLimits, save_limits
from swiggy_core.store import ChatStore

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

REVIEW = Path("/tmp/shots22")
# The page's height at either width: Streamlit scrolls inside its own <main>, so a
# viewport this tall shows the whole page in one screenshot.
TALL = 2_200
FEEDME = {"restaurant_name": "Meghana Foods", "lines": [{"name": "Chicken Biryani", "quantity": 2}]}
GROCERIES = {"lines": [{"name": "Amul Taaza Milk"}, {"name": "Eggs"}, {"name": "Bread"}]}
TABLE = {"restaurant_name": "Toit Brewpub"}
# (shop, India day, what was shown, paise, outcome): the sandbox's today is 2026-11-24.
HISTORY = (
    ("foodorder", "2026-11-03", FEEDME, 64_000, "done"),
    ("food", "2026-11-09", GROCERIES, 38_950, "done"),
    ("foodorder", "2026-11-14", FEEDME, 51_200, "done"),
    ("food", "2026-11-18", GROCERIES, 24_500, "done"),
    ("dining", "2026-11-21", TABLE, 0, "done"),
    ("food", "2026-11-23", GROCERIES, 30_000, "awaiting_payment"),
    ("foodorder", "2026-11-24", FEEDME, 45_050, "done"),
    ("food", "2026-11-24", GROCERIES, 20_000, "unknown"),
    ("foodorder", "2026-10-28", FEEDME, 72_500, "done"),
)


def _shot(page: Page, path: Path) -> None:
    """The page (tall enough for all of it: see TALL), kept and copied for review."""
    settled(page)
    page.screenshot(path=str(path), animations="disabled")
    REVIEW.mkdir(parents=True, exist_ok=True)
    shutil.copy(path, REVIEW / f"S-{path.name}")


def test_the_spending_page_draws_its_charts(page: Page, server: Server, screenshot_dir: Path):
    width = page.viewport_size["width"] if page.viewport_size else 0
    page.set_viewport_size({"width": width, "height": TALL})
    open_page(page, server, "spending", "Spending")
    shown(page, server, page.get_by_text("You have not ordered or booked anything here yet"))
    user = store_user(browser_id(page))
    store = ChatStore(f"sqlite:///{server.database}")
    try:
        for spend in HISTORY:
            record_spend(store, user, spend)
        save_limits(store, user, SpendingLimits(per_order=150_000, per_day=100_000))
    finally:
        store.close()

    open_page(page, server, "spending", "Spending")
    charts = page.get_by_test_id("stVegaLiteChart")
    shown(page, server, charts.first)
    expect(page.get_by_test_id("stMetric").first).to_contain_text("₹650.50")
    expect(page.get_by_text("₹200 is unclear", exact=False)).to_be_visible()
    expect(page.get_by_role("button", name="Download CSV")).to_be_visible()
    expect(charts.first.locator("canvas, svg").first).to_be_visible()
    _shot(page, screenshot_dir / f"spending-{width}.png")

    page.get_by_role("tab", name="By shop").click()
    settled(page)
    shop_chart = charts.nth(3)
    expect(shop_chart.locator("canvas, svg").first).to_be_visible()
    shop_chart.scroll_into_view_if_needed()
    path = screenshot_dir / f"spending-shops-{width}.png"
    shop_chart.screenshot(path=str(path), animations="disabled")
    shutil.copy(path, REVIEW / f"S-spending-shops-{width}.png")
