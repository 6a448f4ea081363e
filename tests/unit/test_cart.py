"""Cart derivation from a conversation: add, replace, remove, clear, switch, failures."""

from __future__ import annotations

import itertools
import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from swiggy_core import cart
from swiggy_core.cart import CartState, derive_cart, derive_cart_after
from swiggy_core.models import (
    ChatMessage,
    McpToolResultBlock,
    McpToolUseBlock,
    TextBlock,
    TextContent,
    ToolResultBlock,
    ToolUseBlock,
)

FIXTURES = Path(__file__).parents[1] / "fixtures" / "payloads"
_ids = itertools.count()
Call = tuple[str, dict[str, Any], Any]  # tool name, input, payload (dict or raw text)


def _fixture(name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / f"{name}.json").read_text())


def _text(payload: Any) -> str:
    return payload if isinstance(payload, str) else json.dumps(payload)


def connector_turn(*calls: Call, is_error: bool = False) -> ChatMessage:
    """One assistant message holding mcp_tool_use/mcp_tool_result pairs."""
    blocks: list[Any] = [TextBlock(text="On it.")]
    for name, tool_input, payload in calls:
        block_id = f"mcptoolu_{next(_ids)}"
        blocks.append(
            McpToolUseBlock(id=block_id, name=name, server_name="swiggy", input=tool_input)
        )
        blocks.append(
            McpToolResultBlock(
                tool_use_id=block_id, is_error=is_error, content=[TextContent(text=_text(payload))]
            )
        )
    return ChatMessage(role="assistant", content=blocks)


def local_turn(name: str, tool_input: dict[str, Any], payload: Any) -> list[ChatMessage]:
    """Client tool_use in an assistant message, its tool_result in the next user message."""
    block_id = f"toolu_{next(_ids)}"
    return [
        ChatMessage(
            role="assistant", content=[ToolUseBlock(id=block_id, name=name, input=tool_input)]
        ),
        ChatMessage(
            role="user", content=[ToolResultBlock(tool_use_id=block_id, content=_text(payload))]
        ),
    ]


def _lines(state: CartState) -> list[tuple[str, int]]:
    return [(line.name, line.quantity) for line in state.items]


SEARCH = ("search_products", {"query": "milk"}, _fixture("instamart_search_products"))
MILK = {"spinId": "SPN-88121", "skuId": "SKU-5501", "quantity": 2}
YOGURT = {"spinId": "SPN-44010", "skuId": "SKU-9011", "quantity": 1}


def test_empty_conversation_is_an_empty_cart() -> None:
    state = derive_cart([ChatMessage(role="user", content="hi")], "food")
    assert state == CartState() and state.is_empty and state.item_count == 0


def test_update_cart_snapshot_sets_items_and_the_servers_bill() -> None:
    messages = [
        connector_turn(SEARCH),
        connector_turn(
            ("update_cart", {"items": [MILK, YOGURT]}, _fixture("instamart_update_cart"))
        ),
    ]
    state = derive_cart(messages, "food")
    assert _lines(state) == [
        ("Amul Taaza Toned Fresh Milk", 2),
        ("Epigamia Greek Yogurt - Blueberry", 1),
    ]
    assert [(i.spin_id, i.sku_id, i.unit_price, i.line_total) for i in state.items] == [
        ("SPN-88121", "SKU-5501", 27.0, 54.0),
        ("SPN-44010", "SKU-9011", 52.5, 52.5),
    ]
    assert state.to_pay == 160.5 and state.updated_from_tool == "update_cart"
    assert state.item_count == 3


def test_get_cart_is_authoritative_and_its_total_is_not_recomputed() -> None:
    messages = [
        connector_turn(("update_cart", {"items": [MILK]}, _fixture("instamart_update_cart"))),
        connector_turn(("get_cart", {}, _fixture("instamart_get_cart"))),
    ]
    state = derive_cart(messages, "style")
    assert state.updated_from_tool == "get_cart"
    assert state.to_pay == 150.49  # the lines add to 150.50; the server's figure stands


def _only_yogurt(quantity: int, **line: Any) -> dict[str, Any]:
    """A cart snapshot holding the yogurt alone; `line` adds to its line (e.g. a price)."""
    item = {"spinId": "SPN-44010", "displayName": "Epigamia Greek Yogurt - Blueberry"}
    return {"success": True, "data": {"items": [{**item, "quantity": quantity, **line}]}}


def test_update_cart_replaces_the_whole_cart() -> None:
    only_yogurt = _only_yogurt(3, price={"offerPrice": 52.5})
    only_yogurt["data"]["billBreakdown"] = {"itemTotal": 157.5, "toPay": 187.5}
    messages = [
        connector_turn(
            ("update_cart", {"items": [MILK, YOGURT]}, _fixture("instamart_update_cart"))
        ),
        connector_turn(("update_cart", {"items": [{**YOGURT, "quantity": 3}]}, only_yogurt)),
    ]
    state = derive_cart(messages, "food")
    assert _lines(state) == [("Epigamia Greek Yogurt - Blueberry", 3)]
    assert state.to_pay == 187.5


def test_update_cart_without_snapshot_uses_the_request_and_search_names() -> None:
    ack = {"success": True, "message": "Cart updated"}
    messages = [
        connector_turn(SEARCH),
        connector_turn(("update_cart", {"items": [MILK, YOGURT]}, ack)),
    ]
    state = derive_cart(messages, "food")
    assert _lines(state) == [
        ("Amul Taaza Toned Fresh Milk", 2),
        ("Epigamia Greek Yogurt - Blueberry", 1),
    ]
    assert [(i.unit_price, i.line_total) for i in state.items] == [(27.0, 54.0), (52.5, 52.5)]
    assert state.items[0].quantity_description == "500 ml"
    assert state.bill == [] and state.to_pay is None  # no bill was reported, none is invented


def test_several_updates_in_one_turn_end_with_the_last_full_cart() -> None:
    ack = {"success": True, "message": "ok"}
    turn = connector_turn(
        ("update_cart", {"items": [MILK]}, ack),
        ("update_cart", {"items": [MILK, YOGURT]}, ack),
    )
    state = derive_cart([connector_turn(SEARCH), turn], "food")
    assert _lines(state) == [
        ("Amul Taaza Toned Fresh Milk", 2),
        ("Epigamia Greek Yogurt - Blueberry", 1),
    ]


def test_removing_a_line_with_quantity_zero() -> None:
    ack = {"success": True}
    messages = [
        connector_turn(SEARCH),
        connector_turn(("update_cart", {"items": [MILK, YOGURT]}, ack)),
        connector_turn(("update_cart", {"items": [{**MILK, "quantity": 0}, YOGURT]}, ack)),
    ]
    assert _lines(derive_cart(messages, "food")) == [("Epigamia Greek Yogurt - Blueberry", 1)]


def test_partial_add_snapshot_keeps_earlier_items() -> None:
    added = _only_yogurt(1)
    messages = [
        connector_turn(("update_cart", {"items": [MILK]}, _fixture("instamart_update_cart"))),
        connector_turn(("add_item_to_cart", {"spinId": "SPN-44010", "quantity": 1}, added)),
    ]
    state = derive_cart(messages, "food")
    names = [name for name, _ in _lines(state)]
    assert names == ["Amul Taaza Toned Fresh Milk", "Epigamia Greek Yogurt - Blueberry"]
    assert state.to_pay is None  # the old bill no longer matches; it is not recomputed


def test_add_style_without_snapshot_increments() -> None:
    ack = {"success": True}
    messages = [
        connector_turn(SEARCH),
        connector_turn(("update_cart", {"items": [MILK]}, ack)),
        connector_turn(("add_to_cart", {"items": [{"spinId": "SPN-88121", "quantity": 1}]}, ack)),
    ]
    assert _lines(derive_cart(messages, "food")) == [("Amul Taaza Toned Fresh Milk", 3)]


def test_remove_style_tool() -> None:
    ack = {"success": True}
    messages = [
        connector_turn(SEARCH),
        connector_turn(("update_cart", {"items": [MILK, YOGURT]}, ack)),
        connector_turn(("remove_item", {"items": [{"spinId": "SPN-88121"}]}, ack)),
    ]
    assert _lines(derive_cart(messages, "food")) == [("Epigamia Greek Yogurt - Blueberry", 1)]


def test_failed_updates_leave_the_cart_as_it_was() -> None:
    good = connector_turn(
        ("update_cart", {"items": [MILK, YOGURT]}, _fixture("instamart_update_cart"))
    )
    failed = {"success": False, "error": {"message": "Item out of stock"}}
    messages = [
        good,
        connector_turn(("update_cart", {"items": []}, failed)),
        connector_turn(("update_cart", {"items": []}, "Internal error"), is_error=True),
        connector_turn(("clear_cart", {}, failed)),
    ]
    state = derive_cart(messages, "food")
    assert state == derive_cart([good], "food")


def test_clear_and_flush_empty_the_cart() -> None:
    base = connector_turn(("update_cart", {"items": [MILK]}, _fixture("instamart_update_cart")))
    cleared = derive_cart(
        [base, connector_turn(("clear_cart", {}, {"success": True, "message": "Cart cleared"}))],
        "food",
    )
    assert cleared.is_empty and cleared.updated_from_tool == "clear_cart"
    food = connector_turn(("update_food_cart", {}, _fixture("food_update_food_cart")))
    flushed = derive_cart(
        [food, connector_turn(("flush_food_cart", {}, {"success": True}))], "foodorder"
    )
    assert flushed.is_empty and flushed.restaurant_id is None


def test_empty_get_cart_empties_and_raw_text_changes_nothing() -> None:
    base = connector_turn(("update_cart", {"items": [MILK]}, _fixture("instamart_update_cart")))
    empty = derive_cart(
        [
            base,
            connector_turn(("get_cart", {}, {"success": True, "message": "Your cart is empty"})),
        ],
        "food",
    )
    assert empty.is_empty
    unchanged = derive_cart(
        [base, connector_turn(("get_cart", {}, "temporarily unavailable"))], "food"
    )
    assert unchanged == derive_cart([base], "food")


def test_placed_order_empties_the_cart() -> None:
    messages = [
        connector_turn(("update_cart", {"items": [MILK]}, _fixture("instamart_update_cart"))),
        connector_turn(("checkout", {"addressId": "d1f2a3"}, _fixture("instamart_checkout"))),
    ]
    assert derive_cart(messages, "food").is_empty


def test_failed_order_keeps_the_cart() -> None:
    messages = [
        connector_turn(("update_cart", {"items": [MILK]}, _fixture("instamart_update_cart"))),
        connector_turn(("checkout", {}, {"success": False, "error": {"message": "Store closed"}})),
    ]
    assert not derive_cart(messages, "food").is_empty


def test_food_cart_snapshot_holds_one_restaurant() -> None:
    state = derive_cart(
        [connector_turn(("update_food_cart", {}, _fixture("food_update_food_cart")))], "foodorder"
    )
    assert (state.restaurant_id, state.restaurant_name) == ("23678", "Meghana Foods")
    assert [(i.menu_item_id, i.quantity) for i in state.items] == [
        ("118830551", 2),
        ("118830590", 1),
    ]
    assert all(i.restaurant_id == "23678" for i in state.items)
    assert state.to_pay == 1121.35


def test_switching_restaurant_replaces_the_food_cart() -> None:
    menu = ("get_restaurant_menu", {"restaurantId": "23678"}, _fixture("food_get_restaurant_menu"))
    other_menu = {
        "success": True,
        "data": {
            "restaurant": {"id": "999", "name": "CTR"},
            "menu": {
                "categories": [
                    {
                        "title": "Dosa",
                        "itemCards": [
                            {
                                "card": {
                                    "info": {
                                        "id": "d-1",
                                        "name": "Benne Masala Dosa",
                                        "price": 9000,
                                        "isVeg": 1,
                                    }
                                }
                            }
                        ],
                    }
                ]
            },
        },
    }
    ack = {"success": True, "message": "Cart updated"}
    messages = [
        connector_turn(menu),
        connector_turn(
            (
                "update_food_cart",
                {
                    "restaurantId": "23678",
                    "cartItems": [{"menu_item_id": "118830551", "quantity": 1}],
                },
                ack,
            )
        ),
        connector_turn(("get_restaurant_menu", {"restaurantId": "999"}, other_menu)),
        connector_turn(
            (
                "update_food_cart",
                {
                    "restaurantId": "999",
                    "restaurantName": "CTR",
                    "cartItems": [{"menu_item_id": "d-1", "quantity": 2}],
                },
                ack,
            )
        ),
    ]
    state = derive_cart(messages, "foodorder")
    assert (state.restaurant_id, state.restaurant_name) == ("999", "CTR")
    assert [(i.name, i.quantity, i.unit_price, i.line_total) for i in state.items] == [
        ("Benne Masala Dosa", 2, 90.0, 180.0)
    ]


def test_food_cart_names_come_from_the_menu() -> None:
    menu = ("get_restaurant_menu", {"restaurantId": "23678"}, _fixture("food_get_restaurant_menu"))
    ack = {"success": True}
    request = {"restaurantId": "23678", "cartItems": [{"menu_item_id": "118830590", "quantity": 2}]}
    state = derive_cart(
        [connector_turn(menu), connector_turn(("update_food_cart", request, ack))], "foodorder"
    )
    assert [(i.name, i.unit_price, i.line_total) for i in state.items] == [
        ("Chilli Chicken", 279.0, 558.0)
    ]
    assert state.restaurant_name == "Meghana Foods"


def test_local_engine_pairs_tool_use_and_result_across_messages() -> None:
    messages = [
        ChatMessage(role="user", content="add milk"),
        *local_turn("search_products", {"query": "milk"}, _fixture("instamart_search_products")),
        *local_turn("update_cart", {"items": [MILK]}, {"success": True}),
        ChatMessage(role="assistant", content="Added."),
    ]
    assert _lines(derive_cart(messages, "food")) == [("Amul Taaza Toned Fresh Milk", 2)]


def test_unpaired_results_and_bad_messages_are_ignored() -> None:
    orphan = ChatMessage(
        role="user",
        content=[
            ToolResultBlock(tool_use_id="nope", content=json.dumps(_fixture("instamart_get_cart")))
        ],
    )
    as_dict = connector_turn(
        ("update_cart", {"items": [MILK]}, _fixture("instamart_update_cart"))
    ).model_dump()
    state = derive_cart([orphan, {"role": "robot"}, as_dict], "food")  # type: ignore[list-item]
    assert state.updated_from_tool == "update_cart" and not state.is_empty


CART_TOOLS = st.sampled_from(
    [
        "update_cart",
        "get_cart",
        "clear_cart",
        "add_item",
        "remove_item",
        "update_food_cart",
        "flush_food_cart",
        "checkout",
        "search_products",
    ]
)
PAYLOADS = st.sampled_from(
    [
        _fixture(name)
        for name in (
            "instamart_update_cart",
            "instamart_get_cart",
            "food_update_food_cart",
            "instamart_search_products",
            "instamart_checkout",
        )
    ]
    + [
        {"success": True},
        {"success": False, "error": "x"},
        "plain text",
        {"items": "wrong"},
        {"items": [None, 1, {"quantity": -3}]},
    ]
)
INPUTS = st.sampled_from(
    [
        {},
        {"items": [MILK]},
        {"items": [MILK, YOGURT]},
        {"items": "bad"},
        {"cartItems": [{"menu_item_id": 5, "quantity": "2"}], "restaurantId": 1},
    ]
)


@settings(max_examples=examples(150), deadline=timedelta(seconds=1))
@given(steps=st.lists(st.tuples(CART_TOOLS, INPUTS, PAYLOADS, st.booleans()), max_size=8))
def test_any_sequence_gives_a_cart(steps: list[tuple[str, dict[str, Any], Any, bool]]) -> None:
    messages = [
        connector_turn((name, tool_input, payload), is_error=err)
        for name, tool_input, payload, err in steps
    ]
    state = derive_cart(messages, "food")
    assert CartState.model_validate(state.model_dump()) == state
    assert all(line.quantity > 0 for line in state.items)


@settings(max_examples=examples(150), deadline=timedelta(seconds=2))
@given(
    steps=st.lists(
        st.tuples(CART_TOOLS, INPUTS, PAYLOADS, st.booleans(), st.booleans()), max_size=10
    ),
    grow_by=st.integers(min_value=1, max_value=4),
)
def test_a_cart_kept_while_the_chat_grows_is_the_cart_replayed_from_scratch(
    steps: list[tuple[str, dict[str, Any], Any, bool, bool]], grow_by: int
) -> None:
    messages: list[ChatMessage] = []
    for name, tool_input, payload, err, local in steps:
        if local:  # the result arrives in the next message: a growth may cut between them
            messages += local_turn(name, tool_input, payload)
        else:
            messages.append(connector_turn((name, tool_input, payload), is_error=err))
    progress = None
    for end in [*range(0, len(messages), grow_by), len(messages)]:
        kept, progress = derive_cart_after(messages[:end], "food", progress)
        assert kept == derive_cart(messages[:end], "food")


def test_a_grown_chat_replays_only_its_new_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    update = ("update_cart", {"items": [MILK]}, _fixture("instamart_update_cart"))
    chat = [connector_turn(SEARCH, update) for _ in range(30)]
    _, progress = derive_cart_after(chat, "food", None)
    replayed: list[str] = []
    real_apply = cart.apply_call

    def counted_apply(state: CartState, call: Any, *rest: Any) -> CartState:
        replayed.append(call.name)
        return real_apply(state, call, *rest)

    monkeypatch.setattr(cart, "apply_call", counted_apply)
    grown = [*chat, connector_turn(update)]
    kept, _ = derive_cart_after(grown, "food", progress)
    assert replayed == ["update_cart"]
    assert kept == derive_cart(grown, "food")
