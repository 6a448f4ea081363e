"""Order it again from the shop page: Your orders → Order again → the review → Add to cart
writes the cart once, through the chat, and the cart panel shows it; nothing is placed."""

from __future__ import annotations

import os

from uihelpers import buttons, click, open_page, store_user, texts

from swiggy_core.models import McpToolUseBlock, ToolUseBlock
from swiggy_core.store import ChatStore
from swiggy_ui.orders_view import ADD_LABEL, AGAIN_LABEL, NOT_DELIVERED_NOTE, ORDERS_LABEL


def _order_milk(at):
    at = open_page(at, "nutricart")
    at.chat_input[0].set_value("add 2 amul taaza milk").run()
    click(at, "Place order", index=-1)
    return click(at, "Confirm")


def _settled(at):
    """Runs until the reply the action started has finished (it streams on a thread)."""
    for _ in range(15):
        at = at.run()
        if not any(button.label == "Stop" for button in at.button):
            break
    assert not at.exception
    return at


def _tool_calls(user: str) -> list[tuple[str, dict]]:
    """Every tool call NutriCart's chat stored, in order."""
    store = ChatStore(os.environ["SWIGGY_DATABASE_URL"])
    try:
        (conversation,) = store.list_conversations(user, "food")
        messages = store.load_messages(conversation.id)
    finally:
        store.close()
    calls = []
    for message in messages:
        for block in message.blocks():
            if isinstance(block, McpToolUseBlock | ToolUseBlock):
                calls.append((block.name, dict(block.input)))
    return calls


def test_order_again_reviews_the_order_then_writes_the_cart_once(app) -> None:
    at = _order_milk(app)
    assert "Order placed" in texts(at.markdown)
    before = len(_tool_calls(store_user(at)))

    at = click(at, ORDERS_LABEL)
    listed = texts(at.markdown)
    assert "Instamart" in listed and "2 × Amul Taaza" in texts(at.caption)
    at = click(at, AGAIN_LABEL)
    review = texts(at.markdown)
    assert "Order again from" in review and ":material/check_circle: 2 × Amul Taaza" in review
    assert _tool_calls(store_user(at))[before:] == [], "nothing written before Add to cart"

    at = _settled(click(at, ADD_LABEL))
    assert not buttons(at, ADD_LABEL), "the dialog closed"
    calls = [name for name, _ in _tool_calls(store_user(at))[before:]]
    assert calls == ["update_cart"], calls
    sidebar = texts(at.sidebar.markdown)
    assert "Amul Taaza" in sidebar, "the cart panel shows the reordered lines"
    assert "Order again: 2 items from your past order" in texts(at.chat_message[-2].markdown)
    assert not buttons(at, "Confirm"), "nothing is placed without the usual confirmation"


def test_a_food_order_on_its_way_is_listed_but_offered_again_only_once_delivered(app) -> None:
    at = open_page(app, "feedme")
    at.chat_input[0].set_value("I want a paneer biryani").run()
    click(at, "Add")
    click(at, "Place order", index=-1)
    at = click(at, "Confirm")

    at = click(at, ORDERS_LABEL)
    assert "1 × Paneer Biryani" in texts(at.caption)
    assert NOT_DELIVERED_NOTE in texts(at.caption)
    (again,) = buttons(at, AGAIN_LABEL)
    assert again.disabled, "Swiggy offers no reorderMeta for an order on its way"
