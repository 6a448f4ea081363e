"""Settings → Tool bench in a real browser, at desktop and phone width: a tool picked, its
form filled and run, its card, time and copies shown; screenshots of the whole page."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from e2e_support import Server, main_shot, open_page, settled, shown
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

SHOTS = Path("/tmp/shots23")  # where the reviewers look for every part's pictures


def test_a_tool_runs_from_its_form(page: Page, server: Server, screenshot_dir: Path) -> None:
    width = page.viewport_size["width"] if page.viewport_size else 0
    open_page(page, server, "tool_bench", "Tool bench")
    tool = page.get_by_test_id("stSelectbox").filter(has_text="Tool")
    tool.locator("input").fill("search_products")
    page.get_by_role("option", name="search_products", exact=True).click()
    # the first tool's form has no required addressId: wait for the chosen tool's form and
    # for its run to end, so Run is pressed on a page no run is still redrawing
    address = page.get_by_role("textbox", name="addressId (required)")
    expect(address).to_be_visible()
    settled(page)
    address.fill("addr_home_indiranagar")
    page.get_by_role("textbox", name="query (required)").fill("milk")
    page.get_by_role("button", name="Run", exact=True).click()
    run = page.get_by_test_id("stExpander").filter(has_text="#1 · instamart · search_products")
    shown(page, server, run)
    expect(run).to_contain_text(" ms")
    expect(run.get_by_text("Amul Taaza Toned Milk")).to_be_visible()
    main_shot(page, screenshot_dir / f"tool-bench-{width}.png")
    run.get_by_role("tab", name="Copy").click()
    expect(run.get_by_text("$SWIGGY_TOKEN").first).to_be_visible()
    settled(page)
    main_shot(page, screenshot_dir / f"tool-bench-copy-{width}.png")
    SHOTS.mkdir(parents=True, exist_ok=True)
    for name in ("tool-bench", "tool-bench-copy"):
        shutil.copyfile(screenshot_dir / f"{name}-{width}.png", SHOTS / f"T-{name}-{width}.png")
