"""FeedMe end to end on the page: a dish into the cart, then an order only after Confirm.

Runs in both result forms; the amounts on the cart, the Confirm dialog and the order reply
are the same rupees (Swiggy Food's documented cart: `data.data.pricing.to_pay`).
"""

from __future__ import annotations

import re

from uihelpers import buttons, click, open_page, texts

_TO_PAY = re.compile(r"\*\*To pay\*\*\s*\*\*(₹[\d,]+(?:\.\d+)?)\*\*")


def test_feedme_orders_the_cart_it_showed_after_confirm(app, result_form):
    at = open_page(app, "feedme")
    at.chat_input[0].set_value("I want a paneer biryani").run()
    click(at, "Menu")
    click(at, "Add")
    shown = _TO_PAY.findall(texts(at.markdown))
    assert shown, "the cart card shows what to pay"
    cart_to_pay = shown[-1]
    click(at, "Place order", index=-1)
    page = texts(at.markdown)
    assert "Order placed" not in page and "Waiting for your confirmation" in page
    assert _TO_PAY.findall(page)[-1] == cart_to_pay, "the dialog shows the cart's amount"
    click(at, "Confirm")
    page = texts(at.markdown)
    assert "Order placed" in page
    assert f"{cart_to_pay} to pay in cash on delivery" in page
    assert not buttons(at, "Confirm")


def test_a_dish_found_by_name_is_ordered_in_four_actions(app):
    """Search, Add on a matching dish, Place order, Confirm: no menu to open on the way
    (the Swiggy app's dish results have their own Add)."""
    at = open_page(app, "feedme")
    at.chat_input[0].set_value("I want a paneer biryani").run()  # 1
    labels = [b.label for b in at.button]
    assert labels.index("Add") < labels.index("Menu"), "the dishes come first"
    assert "Press Add on a dish to order it" in texts(at.markdown)
    click(at, "Add")  # 2: the first matching dish
    assert "Paneer Biryani" in texts(at.markdown)
    click(at, "Place order", index=-1)  # 3
    assert "Waiting for your confirmation" in texts(at.markdown)
    click(at, "Confirm")  # 4
    page = texts(at.markdown)
    assert "Order placed" in page and "Paneer Biryani" in page
    assert not buttons(at, "Confirm")
