"""The cart panel on the real pages, driven through the offline planner and the sandbox.

The panel is derived from the stored chat on every run: it changes with each cart result,
its − / + / remove carry the whole current cart, NutriCart and StyleKit ask before
building on each other's Instamart cart, and a cart in the chat is one compact line.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from streamlit.testing.v1 import AppTest
from uihelpers import TIMEOUT, click, open_page, store_user, texts

from swiggy_core.mcp import call_tool
from swiggy_core.models import CardAction
from swiggy_core.parsers import CartResult, parse_tool_result
from swiggy_core.store import ChatStore
from swiggy_sandbox.servers import DEMO_TOKEN, SandboxHttpServer
from swiggy_ui.cart_panel import ASKED_TEXT


def _panel_button(at: AppTest, name_part: str, suffix: str):
    """The panel's button for the line whose key contains `name_part` (e.g. "-dec")."""
    found = [b for b in at.sidebar.button if b.key and b.key.endswith(suffix)]
    matches = [b for b in found if name_part in b.key]
    assert matches, f"no panel {suffix} for {name_part}; have {[b.key for b in found]}"
    return matches[0]


def _line_keys(at: AppTest) -> list[str]:
    """The panel's lines, by the key of their + button."""
    return [b.key.removesuffix("-inc") for b in at.sidebar.button if b.key.endswith("-inc")]


def _last_action(at: AppTest, vertical_id: str) -> CardAction:
    """The action the page last sent, as stored with the person's message."""
    store = ChatStore(os.environ["SWIGGY_DATABASE_URL"])
    try:
        conversation = store.list_conversations(store_user(at), vertical_id)[0]
        messages = store.load_messages(conversation.id)
    finally:
        store.close()
    actions = [m.meta.action for m in messages if m.meta.action is not None]
    assert actions, "no card action was stored"
    return actions[-1]


def _grocery_cart(at: AppTest) -> AppTest:
    """NutriCart: a starter search (the header already chose the address), then the first
    product into the cart."""
    click(at, "Find high-protein snacks under ₹200")
    return click(at, "Add")


def test_panel_updates_on_each_cart_result_and_steps_act_on_the_current_cart(app):
    at = open_page(app, "nutricart")
    assert "Your cart is empty" in texts(at.sidebar.caption)
    _grocery_cart(at)
    sidebar = texts(at.sidebar.markdown)
    assert "**Your cart** (1)" in sidebar and "**To pay**" in sidebar
    assert "Deliver to **Home**" in texts(at.sidebar.caption)
    assert [b.label for b in at.sidebar.button if b.label == "Place order"] == ["Place order"]
    # The chat's cart is a single line without buttons: only the panel steps.
    assert not [b for b in at.main.button if b.label in ("+", "−")]
    # An empty cart was read first, so the line names the change and the total.
    assert "Cart updated: +1 × " in texts(at.main.markdown)
    (first,) = _line_keys(at)

    _panel_button(at, first, "-inc").click().run()
    assert not at.exception
    plus = _last_action(at, "food")
    assert plus.kind == "set_quantity" and plus.ids["quantity"] == 2
    assert plus.label.startswith("Added 1 × ") and plus.label.endswith("(now 2)")
    assert plus.label in texts(at.chat_message[-2].markdown)  # the sentence the toast shows
    assert "**2**" in texts(at.sidebar.markdown)

    click(at, "Add", index=1)  # a second product from the search card
    assert len(_line_keys(at)) == 2
    second = next(key for key in _line_keys(at) if key != first)
    _panel_button(at, first, "-dec").click().run()
    assert not at.exception
    minus = _last_action(at, "food")
    # Quantity 2 → 1, and the whole cart it asks for keeps the other line as it is.
    assert minus.kind == "set_quantity" and minus.ids["quantity"] == 1
    wanted = {line["spinId"]: line["quantity"] for line in minus.ids["cart"]}
    assert wanted == {first.split("-", 2)[2]: 1, second.split("-", 2)[2]: 1}
    assert len(_line_keys(at)) == 2  # the server's cart after it: both lines, first at 1
    quantities = [m.value for m in at.sidebar.markdown if m.value in ("**1**", "**2**")]
    assert quantities == ["**1**", "**1**"]

    _panel_button(at, second, "-remove").click().run()
    removed = _last_action(at, "food")
    assert removed.kind == "remove_from_cart" and removed.label.startswith("Removed ")
    assert [line["quantity"] for line in removed.ids["cart"]] == [1]
    assert _line_keys(at) == [first]


def test_switching_between_shops_on_one_instamart_cart_asks_first(app):
    at = _grocery_cart(open_page(app, "nutricart"))
    assert len(_line_keys(at)) == 1
    at.switch_page("stylekit").run()
    assert not at.exception
    question = "Your Instamart cart has 1 item from NutriCart — keep them or clear?"
    assert question in texts(at.main.markdown)
    assert ASKED_TEXT in texts(at.sidebar.caption)  # StyleKit's chat has not seen the cart yet

    click(at, "Keep them")  # the chat reads the shared cart: the panel shows it
    assert _last_action(at, "style").kind == "view_cart"
    assert question not in texts(at.main.markdown)
    assert len(_line_keys(at)) == 1 and "**Your cart** (1)" in texts(at.sidebar.markdown)

    at.switch_page("nutricart").run()  # the same cart both sides: nothing to ask
    assert "keep them or clear?" not in texts(at.main.markdown)


def test_clear_on_the_shop_switch_question_empties_the_shared_cart(app):
    at = _grocery_cart(open_page(app, "nutricart"))
    at.switch_page("stylekit").run()
    assert "keep them or clear?" in texts(at.main.markdown)
    click(at, "Clear")
    assert not at.exception
    assert _last_action(at, "style").kind == "clear_cart"
    assert "keep them or clear?" not in texts(at.main.markdown)
    assert not _line_keys(at)  # the panel follows the cleared cart
    # NutriCart's chat still holds the old line: it says the cart was cleared, its buttons
    # wait (an update would bring the stale line back), and one press reads the cart.
    at.switch_page("nutricart").run()
    assert "Your Instamart cart was cleared in StyleKit" in texts(at.main.markdown)
    cart_buttons = [b for b in at.sidebar.button if (b.key or "").startswith("cart-food-")]
    assert cart_buttons and all(button.disabled for button in cart_buttons)
    click(at, "Show my cart")
    assert _last_action(at, "food").kind == "view_cart"
    assert not _line_keys(at) and "was cleared" not in texts(at.main.markdown)


def test_feedme_has_its_own_cart_and_tablescout_none(app):
    at = open_page(app, "feedme")
    assert "Your cart is empty" in texts(at.sidebar.caption)
    at.chat_input[0].set_value("I want a paneer biryani").run()
    click(at, "Menu")
    click(at, "Add")
    assert "**Your cart · " in texts(at.sidebar.markdown)  # a food cart names its restaurant
    (dish,) = _line_keys(at)
    _panel_button(at, dish, "-inc").click().run()
    plus = _last_action(at, "foodorder")
    assert plus.ids["quantity"] == 2 and plus.ids["menu_item_id"] in dish
    assert "**2**" in texts(at.sidebar.markdown)
    _panel_button(at, dish, "-remove").click().run()
    assert _last_action(at, "foodorder").kind == "remove_from_cart"
    assert "Your cart is empty" in texts(at.sidebar.caption)
    at.switch_page("tablescout").run()
    assert "Your cart" not in texts(at.sidebar.caption) + texts(at.sidebar.markdown)


# --- The compact line in the chat, from real sandbox cart results --------------------------


@pytest.fixture(scope="module")
def sandbox() -> Iterator[SandboxHttpServer]:
    with SandboxHttpServer() as server:
        yield server


def _carts(sandbox: SandboxHttpServer) -> tuple[CartResult, CartResult]:
    """Two update_cart results from the sandbox: A × 1, then A × 2 with B × 1."""
    url = sandbox.url_for("instamart")
    call_tool(url, DEMO_TOKEN, "clear_cart", {})
    address = _data(call_tool(url, DEMO_TOKEN, "get_addresses", {}))["addresses"][0]["id"]
    found = _data(
        call_tool(url, DEMO_TOKEN, "search_products", {"addressId": address, "query": "milk"})
    )
    a, b = (product["variations"][0] for product in found["products"][:2])

    def update(lines: list[tuple[dict, int]]) -> CartResult:
        items = [{"spinId": v["spinId"], "skuId": v["skuId"], "quantity": q} for v, q in lines]
        arguments = {"selectedAddressId": address, "items": items}
        result = call_tool(url, DEMO_TOKEN, "update_cart", arguments)
        parsed = parse_tool_result("update_cart", result.text, "food", arguments)
        assert isinstance(parsed, CartResult)
        return parsed

    return update([(a, 1)]), update([(a, 2), (b, 1)])


def _data(result) -> dict:
    import json

    return json.loads(result.text)["data"]


def _render_card(cart, previous, live):  # type: ignore[no-untyped-def]
    # The body runs as its own script: it imports what it uses (no annotations either).
    from swiggy_core.verticals import get_vertical
    from swiggy_ui.cards import CardContext, render_result

    ctx = CardContext(key="c", vertical=get_vertical("food"), live=live, previous_cart=previous)
    render_result(cart, ctx)


def _card(cart: CartResult, previous: CartResult | None, live: bool = True) -> AppTest:
    at = AppTest.from_function(_render_card, args=(cart, previous, live), default_timeout=TIMEOUT)
    at.run()
    assert not at.exception
    return at


def test_a_cart_in_the_chat_is_one_line_with_the_change_and_the_total(sandbox):
    first, second = _carts(sandbox)
    added = next(line for line in second.items if line.quantity == 2)
    to_pay = f"{second.to_pay:,.0f}"

    at = _card(second, first)
    (line,) = [m.value for m in at.markdown]
    assert line.startswith(":material/shopping_cart: Cart updated: +1 × ")
    assert f"+1 × {added.name}" in line and f"total ₹{to_pay}" in line
    assert len(line.split("+1 × ")) == 3  # both changes, nothing else repeated
    assert not at.button

    opening = _card(first, None)
    assert opening.markdown[0].value.endswith(f"Cart: 1 item · ₹{first.to_pay:,.0f}")

    old = _card(second, first, live=False)  # an older cart: greyed, never a button
    assert not old.markdown and not old.button
    assert "Cart updated: +1 × " in texts(old.caption)
