"""Spending limits on the page: set on Connections, shown in the Confirm dialog, enforced;
the usage section's cost estimate. The real app with the in-process sandbox (AppTest)."""

from __future__ import annotations

import os

from uihelpers import buttons, open_page, store_user, texts

from swiggy_core.store import ChatStore

LIMIT = "E-1107"


def _set_limits(at, per_order: str, per_day: str):
    at.switch_page("app_pages/connections.py").run()
    at.text_input(key="form_limit_order").set_value(per_order)
    at.text_input(key="form_limit_day").set_value(per_day)
    buttons(at, "Save limits")[0].click().run()
    assert not at.exception
    return at


def _ready_cart(at) -> None:
    at.chat_input[0].set_value("add 2 amul taaza milk").run()  # to the header's address
    assert not at.exception


def _spends(at) -> list[str]:
    store = ChatStore(os.environ["SWIGGY_DATABASE_URL"])
    try:
        return [a for a, _ in store.audit_entries(store_user(at)) if a == "spend_call"]
    finally:
        store.close()


def test_limits_are_saved_on_connections_and_read_back(app):
    at = open_page(app, "app_pages/connections.py")
    assert "Spending limits" in texts(at.subheader)
    assert "No spending limits set (₹0 used today)" in texts(at.caption)
    _set_limits(at, "₹1,500", "5000")
    assert "Saved. Your limits: ₹1,500 per order · ₹5,000 per day (₹0 used today)" in texts(
        at.success
    )
    at.switch_page("nutricart").run()
    at.switch_page("app_pages/connections.py").run()
    assert at.text_input(key="form_limit_order").value == "1500"
    assert "₹1,500 per order · ₹5,000 per day" in texts(at.caption)


def test_a_limit_that_is_not_an_amount_is_refused_and_nothing_changes(app):
    at = open_page(app, "app_pages/connections.py")
    _set_limits(at, "lots", "")
    assert "E-1001" in texts(at.caption)
    _set_limits(at, "", "")
    assert "Saved. No spending limits set" in texts(at.success)


def _order_asked_with_limits(app, per_order: str, per_day: str):
    """NutriCart, with these limits saved, a ready cart and "place the order" sent."""
    at = open_page(app, "nutricart")
    _set_limits(at, per_order, per_day)
    at.switch_page("nutricart").run()
    _ready_cart(at)
    return at.chat_input[0].set_value("place the order").run()


def test_the_dialog_shows_the_limits_next_to_the_total(app):
    at = _order_asked_with_limits(app, "100000", "200000")
    assert buttons(at, "Confirm")
    shown = texts(at.caption)
    assert "Your limits: ₹1,00,000 per order · ₹2,00,000 per day (₹0 used today)" in shown
    assert LIMIT not in texts(at.caption)
    buttons(at, "Confirm")[0].click().run()
    assert "Order placed" in texts(at.markdown)
    assert len(_spends(at)) == 1
    at.switch_page("app_pages/connections.py").run()
    used = texts(at.caption)
    assert "₹2,00,000 per day (" in used and "(₹0 used today)" not in used


def test_an_order_over_the_limit_is_refused_with_a_code_and_never_asked(app):
    at = _order_asked_with_limits(app, "1", "")
    assert not at.exception
    assert not buttons(at, "Confirm") and not buttons(at, "Review and confirm")
    assert LIMIT in texts(at.caption) and "per-order limit of ₹1" in texts(at.warning)
    assert "Order placed" not in texts(at.markdown)
    assert _spends(at) == []


def test_a_limit_lowered_after_asking_is_shown_in_the_dialog_and_refuses_confirm(app):
    at = open_page(app, "nutricart")
    _ready_cart(at)
    at.chat_input[0].set_value("place the order").run()
    assert "No spending limits set (₹0 used today)" in texts(at.caption)
    _set_limits(at, "1", "")
    at.switch_page("nutricart").run()
    buttons(at, "Review and confirm")[0].click().run()
    assert LIMIT in texts(at.caption) and "Confirm will refuse" in texts(at.warning)
    buttons(at, "Confirm")[0].click().run()
    assert not at.exception
    assert LIMIT in texts(at.caption)
    assert "Order placed" not in texts(at.markdown)
    assert _spends(at) == []


def test_usage_shows_an_estimated_cost_in_rupees_and_dollars(app):
    at = open_page(app, "nutricart")
    at.chat_input[0].set_value("add 2 amul taaza milk").run()
    at.switch_page("app_pages/connections.py").run()
    (cost,) = [m for m in at.metric if m.label == "Estimated cost"]
    inr, usd = cost.value.split(" · ")
    assert inr.startswith("₹") and float(inr[1:].replace(",", "")) > 0
    assert usd.startswith("$") and float(usd[1:].replace(",", "")) > 0
    assert "list prices" in texts(at.caption)
