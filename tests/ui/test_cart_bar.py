"""The cart bar under the chat input, on the real NutriCart page with the offline planner.

A phone folds the sidebar away: the bar says what the cart holds ("2 items · ₹…") as soon
as the cart changes, its tap slides the sidebar's cart in (in the browser; see
tests/e2e/test_browser_cart_bar.py), and its Place order opens the confirmation.
"""

from __future__ import annotations

import re

from streamlit.testing.v1 import AppTest
from uihelpers import open_page

from swiggy_core.cart import CartState
from swiggy_core.parsers import BillLine, CartLine
from swiggy_ui.cart_bar import BAR_ICON, bar_label


def _bottom_buttons(at: AppTest) -> list:
    """The buttons of the bottom area the chat input lives in (the tree's fourth root)."""
    found, stack = [], list(getattr(at._tree.children.get(3), "children", {}).values())
    while stack:
        node = stack.pop()
        if getattr(node, "type", None) == "button":
            found.append(node)
        stack.extend(getattr(node, "children", {}).values())
    return found


def test_the_bar_under_the_input_says_what_the_cart_holds(app):
    at = open_page(app, "nutricart")
    assert _bottom_buttons(at) == []  # nothing to show for an empty cart

    at.chat_input[0].set_value("add 2 amul taaza milk").run()
    assert not at.exception
    labels = {button.label: button for button in _bottom_buttons(at)}
    assert set(labels) - {"Place order"} and "Place order" in labels, list(labels)
    (bar,) = [button for label, button in labels.items() if label != "Place order"]
    assert re.fullmatch(r"2 items · ₹\d[\d,]*", bar.label), bar.label
    assert bar.proto.icon == BAR_ICON and labels["Place order"].proto.type == "primary"
    # The same total as the sidebar's panel says.
    sidebar = "\n".join(str(m.value) for m in at.sidebar.markdown)
    assert f"**{bar.label.split(' · ')[1]}**" in sidebar  # "**To pay**" then "**₹147**"

    at.switch_page("tablescout").run()
    assert _bottom_buttons(at) == []  # a table booking has no cart


def _line(name: str, quantity: int, total: float | None) -> CartLine:
    return CartLine(name=name, quantity=quantity, line_total=total, spin_id=name)


def test_the_bar_counts_units_and_says_the_total_it_knows():
    one = CartState(items=[_line("Milk", 1, 27)])
    assert bar_label(one) == "1 item · ₹27"  # the lines' sum before a bill arrives
    billed = CartState(
        items=[_line("Milk", 2, 54), _line("Bread", 1, 40)],
        bill=[BillLine(label="Delivery Fee", amount=30)],
        to_pay=124,
    )
    assert bar_label(billed) == "3 items · ₹124"
    unknown = CartState(items=[_line("Milk", 2, 54), _line("Eggs", 1, None)])
    assert bar_label(unknown) == "3 items"  # never a sum that leaves a line out


def test_the_bars_place_order_opens_the_confirmation(app):
    at = open_page(app, "nutricart")
    at.chat_input[0].set_value("add 2 amul taaza milk").run()
    bottom = [button.id for button in _bottom_buttons(at) if button.label == "Place order"]
    (place,) = [button for button in at.button if button.id in bottom]
    at = place.click().run()
    for _ in range(10):  # the reply streams on its own thread; each run watches it
        if any(button.label == "Confirm" for button in at.button):
            break
        at = at.run()
    assert not at.exception
    assert any(button.label == "Confirm" for button in at.button)
    assert "address" not in " ".join(str(e.value) for e in at.error).lower()
