"""Whole flows per vertical through the offline planner and the in-process sandbox.

The main flow of each vertical runs in both result forms (`result_form`): the envelope as
text, and a summary with structuredContent, which `auto` serves through the local engine.
"""

from __future__ import annotations

from uihelpers import buttons, click, new_app, open_page, same_browser, store_user, texts


def _say(at, text: str):
    at.chat_input[0].set_value(text).run()
    assert not at.exception
    return at


def _assistant_text(at) -> str:
    return "\n".join(texts(m.markdown) for m in at.chat_message if m.name == "assistant")


def test_first_run_with_nothing_configured_is_a_labelled_offline_demo(app):
    at = app.run()
    assert not at.exception
    assert "Offline demo" in texts(at.info)
    links = [link.label for link in at.get("page_link")]
    assert links == ["Open NutriCart", "Open StyleKit", "Open TableScout", "Open FeedMe"]


def test_every_page_opens_and_switching_keeps_each_chat(app):
    at = open_page(app, "nutricart")
    assert [t.value for t in at.title] == ["NutriCart"]
    starters = [b for b in at.button if b.key and b.key.startswith("starter-food-")]
    assert len(starters) == 4  # starter prompt chips
    assert [b.label for b in at.button if b.key == "orders-food"] == ["Your orders"]
    _say(at, "show my saved addresses")
    for page, title in [
        ("stylekit", "StyleKit"),
        ("tablescout", "TableScout"),
        ("feedme", "FeedMe"),
        ("app_pages/connections.py", "Connections"),
        ("app_pages/home.py", "Shop by chatting"),
    ]:
        at.switch_page(page).run()
        assert not at.exception
        assert [t.value for t in at.title] == [title]
    at.switch_page("nutricart").run()
    assert [m.name for m in at.chat_message] == ["user", "assistant"]
    assert "show my saved addresses" in texts(at.chat_message[0].markdown)


def test_nutricart_search_add_cart_and_confirmed_checkout(app, result_form):
    at = open_page(app, "nutricart")
    click(at, "Find high-protein snacks under ₹200")  # a starter chip
    assert "Offline demo" not in _assistant_text(at)  # the page's badge says it once
    assert not buttons(at, "Use this address")  # the header chose where it goes
    assert len(buttons(at, "Add")) >= 3
    click(at, "Add")
    assert "Your cart" in texts(at.markdown)
    assert buttons(at, "Place order")
    click(at, "+")
    assert "Added 1 ×" in texts(at.chat_message[-2].markdown)  # the human sentence is shown
    click(at, "Place order", index=-1)
    assert "Order placed" not in texts(at.markdown)  # nothing is spent without a yes
    assert "Waiting for your confirmation" in texts(at.markdown)
    (where,) = [radio for radio in at.radio if "Deliver to" in radio.label]
    assert where.value == "addr_home_indiranagar"  # the dialog says where it goes
    click(at, "Confirm")
    assert "Order placed" in texts(at.markdown)
    assert not buttons(at, "Confirm") and not buttons(at, "Review and confirm")


def test_stylekit_routine_then_products_into_the_cart(app, result_form):
    at = open_page(app, "stylekit")
    _say(at, "Suggest a skincare routine for oily skin and find the products")
    assert "oily" in _assistant_text(at).lower()
    click(at, "Add")
    assert "Your cart" in texts(at.markdown)


def test_feedme_restaurants_menu_dish_and_cart(app, result_form):
    at = open_page(app, "feedme")
    _say(at, "I want a paneer biryani")
    click(at, "Menu")
    assert "Menu ·" in texts(at.markdown)
    click(at, "Add")
    cart_text = texts(at.markdown)
    assert "Your cart ·" in cart_text and "To pay" in cart_text  # one restaurant per cart


def test_tablescout_search_slots_and_confirmed_booking(app, result_form):
    at = open_page(app, "tablescout")
    _say(at, "Book a table for 4 tomorrow at 8 pm near Indiranagar")
    click(at, "Slots")
    chips = [b for b in at.button if b.key and "-d0-" in b.key and not b.disabled]
    assert chips, "no free slot chips"
    chips[0].click().run()
    assert "Table booked" not in texts(at.markdown)
    assert "guests" in texts(at.markdown)  # the dialog names the party size
    click(at, "Confirm")
    assert "Table booked" in texts(at.markdown)


def test_chats_persist_for_the_same_browser_and_never_for_a_link(app):
    at = open_page(app, "nutricart")
    _say(at, "show my cart")
    at.switch_page("stylekit").run()  # navigation keeps the identity
    at.switch_page("nutricart").run()
    assert [m.name for m in at.chat_message] == ["user", "assistant"]
    again = same_browser(at)  # a reload: the browser's id cookie comes back
    again.run()
    again.switch_page("nutricart").run()
    assert [m.name for m in again.chat_message] == ["user", "assistant"]
    # A link names nobody: neither a malformed `u` nor someone's id opens their chats.
    for forged in ("a", at.session_state["browser_id"], store_user(at)):
        stranger = new_app()
        stranger.query_params["u"] = forged
        stranger.run()
        stranger.switch_page("nutricart").run()
        assert not stranger.exception
        assert not stranger.chat_message
        assert stranger.session_state["browser_id"] != at.session_state["browser_id"]


def test_the_audit_trail_records_the_yes_and_the_order(app, tmp_path):
    from swiggy_core.store import ChatStore

    at = open_page(app, "nutricart")
    _say(at, "add 2 amul taaza milk")
    _say(at, "place the order")
    click(at, "Confirm")
    assert "Order placed" in texts(at.markdown)
    store = ChatStore(f"sqlite:///{tmp_path / 'chats.db'}")
    entries = store.audit_entries(store_user(at))
    actions = [action for action, _detail in entries]
    assert actions == ["approval_requested", "confirm", "spend_call"]
    assert entries[-1][1]["outcome"] == "done" and entries[-1][1]["id"]
