"""After an order: its card follows it live, and the shop's pages show it at the top.

The app's sandbox clock is frozen (conftest), so the order stays on its way.
"""

from __future__ import annotations

from uihelpers import click, open_page, same_browser, texts

from swiggy_ui.tracking_card import ACTIVE_TITLE


def _order_biryani(at):
    at = open_page(at, "feedme")
    at.chat_input[0].set_value("I want a paneer biryani").run()
    click(at, "Add")
    click(at, "Place order", index=-1)
    return click(at, "Confirm")


def test_a_placed_order_is_tracked_in_its_card_and_shown_at_the_top_of_its_shop(app) -> None:
    at = _order_biryani(app)
    page = texts(at.markdown)
    assert "Order placed" in page
    # The placed card turned into a tracking card: progress, ETA, restaurant and items.
    bars = at.get("progress")
    assert bars and all(0 <= bar.proto.value <= 100 for bar in bars)
    assert "Arriving in 48 mins" in [bar.proto.text for bar in bars]
    assert "Paneer Biryani" in texts(at.caption)

    again = open_page(same_browser(at), "feedme")
    assert not again.exception
    page = texts(again.markdown)
    assert ACTIVE_TITLE in page, "the order on its way shows at the top of FeedMe"
    assert page.index(ACTIVE_TITLE) < page.index("I want a paneer biryani"), "above the chat"
    assert len(again.get("progress")) == 2  # at the top, and in the order's card
    assert texts(again.caption).count("Meghana Foods · 1 x Paneer Biryani") == 2

    # NutriCart reads Instamart's orders: the food order is not shown there.
    other = open_page(again, "nutricart")
    assert not other.exception
    assert ACTIVE_TITLE not in texts(other.markdown)
