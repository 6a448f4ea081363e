"""Import a chat file on Activity, then find it from the sidebar's search and open it, in a
real browser at desktop and phone width; screenshots of the import and of the search."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from e2e_support import NARROW, Server, open_page, settled, shown
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

SHOTS = Path("/tmp/shots23")  # where the reviewers look for every part's pictures
EXPORTED = {
    "format": "swiggy-assistant-chat/1",
    "title": "Makhana for movie night",
    "shop": "NutriCart",
    "started": "Mon 23 Nov, 8:05 PM",
    "updated": "Mon 23 Nov, 8:09 PM",
    "messages": [
        {"role": "user", "text": "Makhana for movie night", "time": None, "cards": []},
        {
            "role": "assistant",
            "text": "Roasted makhana, peri peri: a light, crunchy pick.",
            "time": "Mon 23 Nov, 8:06 PM",
            "cards": [
                {
                    "type": "cart",
                    "items": [{"name": "Farmley Makhana Peri Peri 80 g", "quantity": 2}],
                    "to_pay": 298.0,
                }
            ],
        },
    ],
}


def _sidebar(page: Page, width: int):
    sidebar = page.get_by_test_id("stSidebar")
    if width == NARROW and not sidebar.is_visible():
        page.get_by_test_id("stExpandSidebarButton").click()
        settled(page)
    expect(sidebar).to_be_in_viewport()
    return sidebar


def test_an_imported_chat_is_found_and_opened(
    page: Page, server: Server, screenshot_dir: Path, tmp_path: Path
) -> None:
    width = page.viewport_size["width"] if page.viewport_size else 0
    chat_file = tmp_path / "nutricart-makhana.json"
    chat_file.write_text(json.dumps(EXPORTED), encoding="utf-8")
    open_page(page, server, "activity", "Activity")
    page.get_by_test_id("stFileUploader").locator("input[type=file]").set_input_files(chat_file)
    settled(page)
    page.get_by_role("button", name="Import this chat").click()
    done = page.get_by_text("is now one of your chats with NutriCart")
    shown(page, server, done).scroll_into_view_if_needed()
    page.screenshot(path=str(screenshot_dir / f"chat-import-{width}.png"), animations="disabled")

    page.get_by_role("link", name="Open it in NutriCart").click()
    shown(page, server, page.get_by_text("Roasted makhana, peri peri").first)
    sidebar = _sidebar(page, width)
    sidebar.get_by_role("button", name="New chat").click()
    settled(page)
    expect(page.get_by_text("Roasted makhana, peri peri")).to_have_count(0)
    sidebar = _sidebar(page, width)
    search = sidebar.get_by_placeholder("Search your chats")
    search.fill("makhana peri")
    search.press("Enter")
    found = sidebar.get_by_role("button", name="Imported: Makhana for movie night")
    shown(page, server, found)
    expect(sidebar.get_by_text("NutriCart ·").first).to_be_visible()
    page.screenshot(path=str(screenshot_dir / f"chat-search-{width}.png"), animations="disabled")
    found.click()
    shown(page, server, page.get_by_text("Roasted makhana, peri peri").first)
    if width == NARROW:  # on a phone the sidebar covers the chat: fold it as a person would
        sidebar.hover()
        page.get_by_test_id("stSidebarCollapseButton").locator("button").click()
        settled(page)
    expect(page.get_by_text("From the file: Cart: 2 × Farmley Makhana")).to_be_in_viewport()
    page.screenshot(path=str(screenshot_dir / f"chat-opened-{width}.png"), animations="disabled")
    SHOTS.mkdir(parents=True, exist_ok=True)
    for name in ("chat-import", "chat-search", "chat-opened"):
        shutil.copyfile(screenshot_dir / f"{name}-{width}.png", SHOTS / f"S-{name}-{width}.png")
