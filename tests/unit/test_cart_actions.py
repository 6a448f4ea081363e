"""Cart actions carry the whole current cart; the chat's cart line says what changed;
the cart before each call and after an approved order come from the same derivation."""

from __future__ import annotations

from test_cart import MILK, SEARCH, YOGURT, _fixture, connector_turn

from swiggy_core.cart import carts_before, derive_cart
from swiggy_core.models import (
    ChatMessage,
    MessageMeta,
    ToolResultBlock,
    ToolUseBlock,
)
from swiggy_core.parsers import CartLine, CartResult, OrderPlacedResult
from swiggy_ui.cart_actions import (
    change_text,
    checkout_action,
    clear_action,
    keep_action,
    quantity_action,
)

UPDATE = ("update_cart", {"items": [MILK, YOGURT]}, _fixture("instamart_update_cart"))


def _cart():  # type: ignore[no-untyped-def]
    """Milk × 2 and yogurt × 1, as the sandbox-shaped fixture reports them."""
    return derive_cart([connector_turn(SEARCH), connector_turn(UPDATE)], "food")


def test_minus_on_two_asks_for_one_and_keeps_the_other_lines() -> None:
    cart = _cart()
    milk = cart.items[0]
    action = quantity_action(cart, milk, milk.quantity - 1)
    assert action.kind == "set_quantity"
    assert action.ids["quantity"] == 1 and action.ids["spinId"] == "SPN-88121"
    assert action.ids["skuId"] == "SKU-5501"
    wanted = {line["spinId"]: (line["skuId"], line["quantity"]) for line in action.ids["cart"]}
    assert wanted == {"SPN-44010": ("SKU-9011", 1), "SPN-88121": ("SKU-5501", 1)}
    assert action.label == "Took 1 × Amul Taaza Toned Fresh Milk out (now 1)"


def test_plus_and_remove_say_what_changed() -> None:
    cart = _cart()
    milk, yogurt = cart.items
    plus = quantity_action(cart, yogurt, 2)
    assert plus.label == "Added 1 × Epigamia Greek Yogurt - Blueberry (now 2)"
    assert sorted(line["quantity"] for line in plus.ids["cart"]) == [2, 2]
    removed = quantity_action(cart, milk, 0)
    assert (
        removed.kind == "remove_from_cart"
        and removed.label == "Removed Amul Taaza Toned Fresh Milk"
    )
    assert [line["spinId"] for line in removed.ids["cart"]] == ["SPN-44010"]
    assert quantity_action(cart, milk, -3).ids["quantity"] == 0


def test_panel_actions_without_ids_of_their_own() -> None:
    assert checkout_action().kind == "request_checkout"
    keep = keep_action(3, "NutriCart")
    assert keep.kind == "view_cart" and keep.label == "Keep the 3 items from NutriCart in my cart"
    assert keep_action(1, "StyleKit").label == "Keep the 1 item from StyleKit in my cart"
    assert clear_action().kind == "clear_cart"


def _line(name: str, quantity: int, key: str, size: str | None = None) -> CartLine:
    return CartLine(name=name, quantity=quantity, spin_id=key, quantity_description=size)


def test_change_text_names_the_change_and_the_servers_total() -> None:
    butter = _line("Amul Butter", 1, "b", "500 g")
    bread = _line("Bread", 1, "r")
    before = CartResult(items=[butter, bread], to_pay=60)
    after = CartResult(items=[butter.model_copy(update={"quantity": 2})], to_pay=113)
    assert (
        change_text(before, after)
        == "Cart updated: +1 × Amul Butter 500 g, −1 × Bread · total ₹113"
    )
    assert change_text(None, after) == "Cart: 2 items · ₹113"
    assert change_text(after, after) == "Cart: 2 items · ₹113"  # a read that changed nothing
    assert change_text(after, CartResult()) == "Cart emptied"
    assert change_text(None, CartResult()) == "Cart is empty"
    assert change_text(before, after.model_copy(update={"to_pay": None})).endswith("−1 × Bread")


def test_carts_before_each_call_match_the_cart_at_that_point() -> None:
    search, update, read = (
        connector_turn(SEARCH),
        connector_turn(UPDATE),
        connector_turn(("get_cart", {}, _fixture("instamart_get_cart"))),
    )
    before = carts_before([search, update, read], "food")
    update_id = update.blocks()[1].id  # type: ignore[union-attr]
    read_id = read.blocks()[1].id  # type: ignore[union-attr]
    assert before[update_id].is_empty
    assert before[read_id] == derive_cart([search, update], "food")
    previous = before[read_id].as_result()
    assert isinstance(previous, CartResult) and previous.to_pay == 160.5
    assert [line.quantity for line in previous.items] == [2, 1]


def test_an_approved_order_empties_the_cart_through_its_stored_card() -> None:
    """The order placed by the dialog answers `request_confirmation`, not `checkout`."""
    ask = ChatMessage(
        role="assistant",
        content=[
            ToolUseBlock(id="toolu_ask", name="request_confirmation", input={"tool": "checkout"})
        ],
    )
    answer = ChatMessage(
        role="user",
        content=[
            ToolResultBlock(
                tool_use_id="toolu_ask",
                content='{"approval": "confirmed", "tool": "checkout", "message": "Done."}',
            )
        ],
        meta=MessageMeta(cards={"toolu_ask": OrderPlacedResult(order_id="IM1")}),
    )
    held = [connector_turn(SEARCH), connector_turn(UPDATE), ask]
    assert not derive_cart(held, "food").is_empty
    assert derive_cart([*held, answer], "food").is_empty
