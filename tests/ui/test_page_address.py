"""Address first, once: the header's "Deliver to" holds the saved addresses before the first
search, read by the app itself; searches never open with address cards; the choice is
remembered and is where the order goes."""

from __future__ import annotations

from uihelpers import buttons, open_page, same_browser, texts

PAGE = "nutricart"


def _deliver_to(at):
    (chooser,) = [box for box in at.selectbox if box.label == "Deliver to"]
    return chooser


def test_the_header_chooses_an_address_before_any_search(app):
    at = open_page(app, PAGE)
    chooser = _deliver_to(at)
    assert len(chooser.options) >= 2 and chooser.value  # saved addresses, one chosen
    assert not at.chat_message, "no model turn was needed to read the addresses"

    at.chat_input[0].set_value("find greek yogurt").run()
    assert not at.exception
    assert not buttons(at, "Use this address"), "the search opened with address cards"
    assert buttons(at, "Add")


def test_a_changed_address_is_remembered_and_is_where_the_order_goes(app):
    at = open_page(app, PAGE)
    chooser = _deliver_to(at)
    first, other = chooser.value, chooser.options[1]  # an id; a shown "Work · …" line
    at = chooser.select(other).run()
    chosen = _deliver_to(at).value
    assert chosen != first

    again = open_page(same_browser(at), PAGE)  # a reload of the same browser
    assert _deliver_to(again).value == chosen

    again.chat_input[0].set_value("add 2 amul taaza milk").run()
    again.chat_input[0].set_value("place the order").run()
    assert not again.exception
    assert "Waiting for your confirmation" in texts(again.markdown)
    (where,) = [radio for radio in again.radio if "Deliver to" in radio.label]
    assert where.value == chosen  # the dialog starts from the header's choice


def test_a_grocery_order_takes_four_actions(app):
    """Search, Add, Place order, Confirm: no address step, no refusal in the chat."""
    at = open_page(app, PAGE)
    at.chat_input[0].set_value("find amul taaza milk").run()  # 1
    at = buttons(at, "Add")[0].click().run()  # 2
    at = buttons(at, "Place order")[0].click().run()  # 3
    assert not at.exception
    assert "Waiting for your confirmation" in texts(at.markdown)
    assert "address" not in texts(at.error).lower()
    at = buttons(at, "Confirm")[0].click().run()  # 4
    for _ in range(10):  # the confirmed turn runs on its own thread
        if "Order placed" in texts(at.markdown):
            break
        at = at.run()
    assert "Order placed" in texts(at.markdown)


def test_the_dialog_sends_the_order_to_another_saved_address_in_the_same_step(app):
    at = open_page(app, PAGE)
    at.chat_input[0].set_value("add 2 amul taaza milk").run()
    at = buttons(at, "Place order")[0].click().run()
    (where,) = [radio for radio in at.radio if "Deliver to" in radio.label]
    first, other = where.value, where.options[1]
    at = where.set_value(_id_of(where, other)).run()
    # In a browser the dialog reruns alone; AppTest reruns the page, so open it again.
    at = buttons(at, "Review and confirm")[0].click().run()
    at = buttons(at, "Confirm")[0].click().run()
    for _ in range(10):
        if "Order placed" in texts(at.markdown):
            break
        at = at.run()
    assert "Order placed" in texts(at.markdown)
    assert _deliver_to(at).value != first  # the header follows the dialog's choice


def _id_of(radio, shown: str) -> str:
    for address_id in ("addr_home_indiranagar", "addr_work_koramangala", "addr_parents_jayanagar"):
        try:
            if radio.format_func(address_id) == shown:
                return address_id
        except KeyError:
            continue
    raise AssertionError(f"no id for {shown}")
