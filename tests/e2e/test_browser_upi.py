"""Paying by UPI in a browser at desktop and phone width: the dialog's "Pay by" choice, the
QR code drawn in the chat with its countdown, the payment made on the payment page in
another tab, and the chat turning to "Order placed" by itself (the panel polls)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from e2e_support import STEP_MS, Server, shown
from playwright.sync_api import Page, expect
from test_browser_four_actions import _open, _search_add_place, _width

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]


def test_an_order_paid_by_scanning_a_upi_qr(
    page: Page, server: Server, screenshot_dir: Path
) -> None:
    _open(page, server)
    _search_add_place(page, server)
    dialog = page.get_by_role("dialog").filter(has_text="Please confirm")
    shown(page, server, dialog)
    dialog.get_by_text("UPI · scan a QR code").click()
    expect(dialog.get_by_role("radio", name="UPI · scan a QR code")).to_be_checked()
    page.screenshot(path=str(screenshot_dir / f"upi-dialog-{_width(page)}.png"))
    dialog.get_by_role("button", name="Confirm", exact=True).click()

    panel = page.get_by_text(re.compile(r"Pay ₹[\d,.]+ by UPI"))
    shown(page, server, panel)
    expect(page.get_by_role("img").last).to_be_visible()  # the QR code
    expect(page.get_by_text(re.compile(r"Waiting for your payment · \d:\d\d left"))).to_be_visible()
    expect(page.get_by_text("Order placed", exact=True)).to_have_count(0)
    page.screenshot(path=str(screenshot_dir / f"upi-qr-{_width(page)}.png"), full_page=True)

    pay_link = page.get_by_role("link", name="Open the payment page")
    payment_page = page.context.new_page()
    payment_page.goto(str(pay_link.get_attribute("href")), wait_until="domcontentloaded")
    payment_page.get_by_role("button", name=re.compile(r"^Pay")).first.click()
    expect(payment_page.get_by_text(re.compile("You paid"))).to_be_visible(timeout=STEP_MS)
    payment_page.close()

    # No click here: the panel's next poll finds the payment and confirms the order.
    expect(page.get_by_text("Order placed", exact=True).first).to_be_visible(timeout=STEP_MS)
    expect(panel).to_have_count(0)
    page.screenshot(path=str(screenshot_dir / f"upi-placed-{_width(page)}.png"), full_page=True)
