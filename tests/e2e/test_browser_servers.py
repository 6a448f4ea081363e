"""Connections → Servers and the Activity page in a real browser, at desktop and phone width."""

from __future__ import annotations

from pathlib import Path

import pytest
from e2e_support import FIRST_PAGE_MS, Server, send, settled, shown
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]


def _width(page: Page) -> int:
    return page.viewport_size["width"] if page.viewport_size else 0


def _tall_shot(page: Page, path: Path) -> None:
    """The whole page in one picture: the viewport grows to the height of Streamlit's <main>
    (which scrolls by itself), then comes back."""
    size = page.viewport_size
    assert size is not None
    needed = int(page.get_by_test_id("stMain").evaluate("el => el.scrollHeight"))
    try:
        page.set_viewport_size({"width": size["width"], "height": max(needed, size["height"])})
        settled(page)
        page.screenshot(path=str(path), animations="disabled")
    finally:
        page.set_viewport_size(size)
    assert path.stat().st_size > 10_000


def _section(page: Page, key: str):
    """The container the app made with `key` (Streamlit marks it with a `st-key-` class)."""
    return page.locator(f".st-key-{key}")


def test_servers_show_their_health_and_a_persons_own_server(
    page: Page, server: Server, screenshot_dir: Path
) -> None:
    width = _width(page)
    page.goto(f"{server.url}/connections")
    shown(page, server, page.get_by_role("heading", name="Connections", exact=True), FIRST_PAGE_MS)
    servers = _section(page, "servers-section")
    expect(servers.get_by_text("instamart", exact=True)).to_be_visible()

    servers.get_by_text("Add a server").click()
    settled(page)
    servers.get_by_label("Name").fill(f"notes{width}")
    servers.get_by_label("URL (Streamable HTTP or SSE)").fill("http://127.0.0.1:9/mcp")
    servers.get_by_role("button", name="Add server").click()
    shown(page, server, servers.get_by_text(f"Added “notes{width}”"))

    servers.get_by_role("button", name="Refresh").click()
    settled(page)
    for key in ("instamart", "food", "dineout"):
        row = servers.get_by_test_id("stMarkdown").filter(has=page.get_by_text(key, exact=True))
        expect(row.first).to_contain_text("· up ·")
    mine = servers.get_by_test_id("stMarkdown").filter(has_text=f"notes{width}").first
    expect(mine).to_contain_text("· down ·")
    expect(servers).to_contain_text("E-32")
    settled(page)
    servers.scroll_into_view_if_needed()
    servers.screenshot(path=str(screenshot_dir / f"servers-{width}.png"), animations="disabled")
    _tall_shot(page, screenshot_dir / f"servers-page-{width}.png")


def test_activity_lists_the_calls_of_a_turn(
    page: Page, server: Server, screenshot_dir: Path
) -> None:
    width = _width(page)
    page.goto(f"{server.url}/nutricart")
    shown(page, server, page.get_by_role("heading", name="NutriCart", exact=True), FIRST_PAGE_MS)
    send(page, "find milk")
    shown(page, server, page.get_by_role("button", name="Add").first)
    expect(page.get_by_placeholder("Ask NutriCart…")).to_be_editable()  # the turn has ended

    page.goto(f"{server.url}/activity")
    shown(page, server, page.get_by_role("heading", name="Activity", exact=True), FIRST_PAGE_MS)
    calls = page.get_by_test_id("stExpander")
    for _ in range(30):  # the audit entries land a moment after the reply is shown
        if calls.count():
            break
        page.wait_for_timeout(1_000)
        page.reload()
        shown(page, server, page.get_by_role("heading", name="Activity", exact=True))
    expect(calls.first).to_contain_text("instamart")
    expect(page.get_by_role("button", name="Download CSV")).to_be_visible()
    calls.first.get_by_text("instamart").first.click()  # open the newest call's arguments
    shown(page, server, calls.first.get_by_test_id("stCode"))
    _tall_shot(page, screenshot_dir / f"activity-{width}.png")
