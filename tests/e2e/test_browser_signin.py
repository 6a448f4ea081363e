"""Sign in with Swiggy in a real browser against the sandbox authorization server.

One click on Connections' "Sign in with Swiggy" link opens the sandbox's sign-in page in
a new tab (phone, the OTP shown on the page, approve); it comes back to the app's /callback
page, and the first tab picks the sign-in up by itself. Screenshots at desktop and phone
widths.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from e2e_support import (
    FIRST_PAGE_MS,
    NARROW,
    STEP_MS,
    WIDE,
    Server,
    browser_context,
    open_page,
    shown,
)
from playwright.sync_api import Browser, BrowserContext, Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

PHONE = "9812345678"


@pytest.fixture(params=[WIDE, NARROW], ids=["1400", "390"])
def context(browser: Browser, request: pytest.FixtureRequest) -> Iterator[BrowserContext]:
    with browser_context(browser, request.param) as made:
        yield made


def _shot(page: Page, folder: Path, name: str) -> None:
    width = page.viewport_size["width"] if page.viewport_size else 0
    path = folder / f"signin-{name}-{width}.png"
    page.screenshot(path=str(path), full_page=True, animations="disabled")
    assert path.stat().st_size > 5_000


def _swiggy_page(popup: Page, folder: Path) -> None:
    """The sandbox's sign-in page: phone, the OTP it shows, approve."""
    popup.wait_for_load_state()
    expect(popup.get_by_role("heading", name="Swiggy (sandbox)")).to_be_visible()
    popup.get_by_label("Mobile number").fill(PHONE)
    popup.get_by_role("button", name="Send OTP").click()
    otp = popup.locator("#sandbox-otp")
    expect(otp).to_have_text(re.compile(r"^\d{6}$"))
    _shot(popup, folder, "otp")
    popup.get_by_label("OTP").fill(otp.inner_text())
    popup.get_by_role("button", name="Verify").click()
    popup.get_by_role("button", name="Approve").click()


def test_sign_in_with_swiggy_in_the_browser(
    context: BrowserContext, server: Server, screenshot_dir: Path
) -> None:
    page = context.new_page()
    open_page(page, server, "connections", "Connections")
    link = page.get_by_role("link", name="Sign in with Swiggy (sandbox)")
    expect(page.get_by_role("button", name="Sign in with Swiggy (sandbox)")).to_have_count(0)
    with context.expect_page() as opened:
        link.click()  # one click: Swiggy's page, not a second button
    popup = opened.value
    _swiggy_page(popup, screenshot_dir)

    # Swiggy's page redirects to the app's /callback page, in that same tab.
    shown(popup, server, popup.get_by_text("Signed in to the sandbox"), FIRST_PAGE_MS)
    assert "/callback" in popup.url and "code=" not in popup.url
    _shot(popup, screenshot_dir, "callback")
    popup.close()

    # The first tab notices by itself (it polls every couple of seconds).
    status = page.get_by_text("Signed in to the Swiggy sandbox · expires in 4 days")
    expect(status).to_be_visible(timeout=STEP_MS)
    expect(page.get_by_role("button", name="Disconnect")).to_be_visible()
    _shot(page, screenshot_dir, "connections")
    page.get_by_role("button", name="Disconnect").click()
    shown(page, server, page.get_by_role("link", name="Sign in with Swiggy (sandbox)"))
    expect(status).to_have_count(0)
