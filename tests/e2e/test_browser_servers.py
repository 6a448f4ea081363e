"""Connections → Servers and the Activity page in a real browser, at desktop and phone width."""

from __future__ import annotations

from pathlib import Path

import pytest
from e2e_support import (
    Server,
    browser_id,
    main_shot,
    open_page,
    send,
    settled,
    shown,
    store_user,
    turn_ended,
    wait_for_audit,
)
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

# A person's server that is down: a public-looking name that can never resolve (RFC 6761).
# (A loopback address would be refused outright: people's servers must be public.)
DOWN_SERVER = "https://notes.invalid/mcp"


def _width(page: Page) -> int:
    return page.viewport_size["width"] if page.viewport_size else 0


def _section(page: Page, key: str):
    """The container the app made with `key` (Streamlit marks it with a `st-key-` class)."""
    return page.locator(f".st-key-{key}")


def test_servers_show_their_health_and_a_persons_own_server(
    page: Page, server: Server, screenshot_dir: Path
) -> None:
    width = _width(page)
    open_page(page, server, "connections", "Connections")
    servers = _section(page, "servers-section")
    expect(servers.get_by_text("instamart", exact=True)).to_be_visible()

    servers.get_by_text("Add a server").click()
    settled(page)
    servers.get_by_label("Name").fill(f"notes{width}")
    servers.get_by_label("URL (Streamable HTTP or SSE)").fill(DOWN_SERVER)
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
    main_shot(page, screenshot_dir / f"servers-page-{width}.png")


def test_activity_lists_the_calls_of_a_turn(
    page: Page, server: Server, screenshot_dir: Path
) -> None:
    width = _width(page)
    open_page(page, server, "nutricart", "NutriCart")
    send(page, "find milk")
    turn_ended(page, server, page.get_by_role("button", name="Add", exact=True).first)
    person = store_user(browser_id(page))  # who the typed address below must find again
    calls = wait_for_audit(server, person)  # the store, not the page, says the rows are in
    assert ("instamart", "search_products") in calls

    open_page(page, server, "activity", "Activity")
    entries = page.get_by_test_id("stExpander")
    for server_key, tool in calls:  # one page load shows this person's rows: no reloads
        expect(entries.filter(has_text=server_key).filter(has_text=tool).first).to_be_visible()
    expect(entries.first).to_contain_text("instamart")
    expect(page.get_by_role("button", name="Download CSV")).to_be_visible()
    entries.first.get_by_text("instamart").first.click()  # open the newest call's arguments
    shown(page, server, entries.first.get_by_test_id("stCode"))
    main_shot(page, screenshot_dir / f"activity-{width}.png")
