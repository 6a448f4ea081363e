"""Checkout in a real browser: a stored approval, the Confirm dialog, one placed order.

The offline demo (`streamlit run app.py`, nothing configured) on the NutriCart page, in
headless Chromium at desktop width and again at phone width, each in its own browser
context (a fresh Streamlit session, so a fresh cart and no remembered address):

    "add 2 amul taaza milk"  → the cart, to Home (the header's Deliver to)
    "place the order"        → the confirmation bar, and the dialog opens by itself
    Confirm                  → one green "Order placed" card; the reply names its id

Waits are explicit and generous (see e2e_support.py); nothing sleeps a fixed time.
Screenshots of the open dialog and of the placed order go to SWIGGY_SCREENSHOT_DIR.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
from e2e_support import (
    TALLEST_SHOT,
    Server,
    open_page,
    send,
    settled,
    shown,
    turn_ended,
    whole_page_shot,
)
from playwright.sync_api import Locator, Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

STACKED_BELOW = 640  # Streamlit stacks st.columns on screens narrower than this
AMOUNT = r"₹[\d,]+(?:\.\d+)?"
BAR = re.compile(rf"Waiting for your confirmation · 2 items · ({AMOUNT}) · Home")


def test_checkout_through_the_confirm_dialog(
    page: Page, server: Server, screenshot_dir: Path
) -> None:
    size = page.viewport_size
    assert size is not None
    width = size["width"]

    # The NutriCart page by its address: at phone width the sidebar with its link is hidden.
    open_page(page, server, "nutricart", "NutriCart", wait_until="domcontentloaded")
    shown(page, server, page.get_by_placeholder("Ask NutriCart…"))

    # 1-2. The header already delivers to Home (the first saved address): the reply fills
    # the cart with no address step.
    expect(page.get_by_text("Deliver to").first).to_be_visible()
    send(page, "add 2 amul taaza milk")
    turn_ended(page, server, page.get_by_text(re.compile(r"Cart updated")).first)
    expect(page.get_by_role("button", name="Use this address")).to_have_count(0)
    expect(page.get_by_text("Not sent yet", exact=False)).to_have_count(0)  # sent once

    # 3. The approval is stored: the bar appears and the dialog opens by itself.
    send(page, "place the order")
    dialog = page.get_by_role("dialog").filter(has_text="Please confirm")
    shown(page, server, dialog)
    bar = page.get_by_text(BAR)
    expect(bar).to_have_count(1)
    # The modal hides the page behind it from assistive technology, so find it by text.
    expect(page.get_by_text("Review and confirm", exact=True)).to_have_count(1)

    confirm = dialog.get_by_role("button", name="Confirm", exact=True)
    cancel = dialog.get_by_role("button", name="Cancel", exact=True)
    expect(dialog.get_by_text("Place this order?", exact=True)).to_be_visible()
    expect(dialog.get_by_text(re.compile(r"^2 × Amul Taaza"))).to_be_visible()
    to_pay_label = dialog.get_by_text("To pay", exact=True)
    to_pay_amount = dialog.get_by_text(re.compile(rf"^{AMOUNT}$")).last
    expect(to_pay_label).to_be_visible()
    expect(to_pay_amount).to_be_visible()
    # Where it goes, changeable right here: Home is chosen among the saved addresses.
    expect(dialog.get_by_text("Deliver to")).to_be_visible()
    expect(dialog.get_by_role("radio", name=re.compile(r"^Home · \S"))).to_be_checked()
    expect(dialog.get_by_text(re.compile(r"Cash on delivery$"))).to_be_visible()
    expect(dialog.get_by_text(re.compile(r"cannot be cancelled"))).to_be_visible()
    expect(confirm).to_be_attached()
    expect(cancel).to_be_attached()
    # What the bar promises is what the dialog asks to pay.
    promised = BAR.search(bar.inner_text())
    assert promised is not None, bar.inner_text()
    assert to_pay_amount.inner_text().strip() == promised.group(1)
    if width >= STACKED_BELOW:  # side by side; on a phone Streamlit stacks the columns
        _same_row(to_pay_label, to_pay_amount)

    if width < STACKED_BELOW:  # what a phone shows first, before any scrolling
        page.screenshot(
            path=str(screenshot_dir / f"checkout-dialog-{width}-first-screen.png"),
            animations="disabled",
        )
    _dialog_shot(page, dialog, confirm, screenshot_dir / f"checkout-dialog-{width}.png")

    # 4. Confirm (at the real viewport: Playwright scrolls the dialog to the button).
    expect(confirm).to_be_enabled()
    confirm.click()
    placed = page.get_by_text("Order placed", exact=True)
    shown(page, server, placed.first)
    order_line = page.get_by_text(re.compile(r"^Order id \S+$"))
    expect(order_line).to_have_count(1)
    found = re.search(r"Order id (\S+)", order_line.inner_text())
    assert found is not None, order_line.inner_text()
    order_id = found.group(1)
    # The offline planner's reply names the same order (in its own words, not the card's).
    reply = page.get_by_test_id("stChatMessage").last
    expect(
        reply.get_by_text(re.compile(rf"\b{re.escape(order_id)}\b"))
        .filter(has_not_text="Order id")
        .filter(visible=True)
        .first
    ).to_be_visible()
    expect(placed).to_have_count(1)
    _is_green(placed)
    # Its mark is a Material icon (the font the page ships), never an emoji that a browser
    # without an emoji font draws as a missing-glyph box.
    title = placed.locator("xpath=..")  # the green line: the mark, then the words
    mark = title.get_by_role("img", name="check_circle icon")
    expect(mark).to_be_visible()
    assert mark.evaluate("el => getComputedStyle(el).fontFamily").startswith('"Material Symbols')
    assert "✅" not in title.inner_text()
    expect(dialog).to_have_count(0)
    expect(page.get_by_text("Waiting for your confirmation")).to_have_count(0)
    expect(page.get_by_text("Review and confirm", exact=True)).to_have_count(0)
    expect(page.get_by_test_id("stException")).to_have_count(0)

    # The newest messages as the page shows them, then the whole conversation.
    page.get_by_test_id("stAppScrollToBottomContainer").evaluate(
        "el => el.scrollTo(0, el.scrollHeight)"
    )
    expect(placed).to_be_in_viewport()
    shot = screenshot_dir / f"order-placed-{width}.png"
    page.screenshot(path=str(shot), animations="disabled")
    assert shot.stat().st_size > 10_000
    whole_page_shot(page, screenshot_dir / f"order-placed-{width}-full.png")


def _same_row(label: Locator, value: Locator) -> None:
    """The amount sits beside its label (their boxes share a horizontal band)."""
    left, right = label.bounding_box(), value.bounding_box()
    assert left is not None and right is not None
    assert right["x"] > left["x"] + left["width"], (left, right)
    overlap = min(left["y"] + left["height"], right["y"] + right["height"]) - max(
        left["y"], right["y"]
    )
    assert overlap > 0, (left, right)


def _is_green(title: Locator) -> None:
    color = title.evaluate("el => getComputedStyle(el).color")
    red, green, blue = (int(part) for part in re.findall(r"\d+", color)[:3])
    assert green > red and green > blue, color


def _dialog_shot(page: Page, dialog: Locator, confirm: Locator, path: Path) -> None:
    """The page with the whole dialog open, its buttons included.

    On a phone the dialog is taller than the screen (it scrolls): for this picture the
    viewport grows until all of it fits, then returns to its real size.
    """
    size = page.viewport_size
    assert size is not None
    try:
        box = dialog.bounding_box()
        assert box is not None
        needed = math.ceil(box["height"] + 2 * max(box["y"], 0.0))
        if needed > size["height"]:
            page.set_viewport_size({"width": size["width"], "height": min(needed, TALLEST_SHOT)})
            settled(page)
        expect(dialog).to_be_in_viewport(ratio=1)
        # Waits until the dialog has stopped moving; aimed at the heading, not at Confirm,
        # so the picture does not show Confirm in its hover colour.
        dialog.get_by_text("Place this order?", exact=True).click(trial=True)
        expect(confirm).to_be_in_viewport(ratio=1)
        page.screenshot(path=str(path), animations="disabled")
    finally:
        page.set_viewport_size(size)
    assert path.stat().st_size > 10_000
