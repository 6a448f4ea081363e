"""A reply's search cards are stored ranked: by their own query and the person's request."""

from __future__ import annotations

import json
from typing import Any

from swiggy_core.actions import CardAction, action_message, typed_message
from swiggy_core.models import (
    ChatMessage,
    McpToolResultBlock,
    McpToolUseBlock,
    TextBlock,
    ToolResultBlock,
    TurnResult,
)
from swiggy_core.parsers import (
    ProductsResult,
    RestaurantItem,
    RestaurantsResult,
    parse_tool_result,
    parsed_result_adapter,
)
from swiggy_core.parsers.cards import latest_request, parse_cards
from swiggy_core.ranking import fit_card
from swiggy_core.turn.approval_requests import reply_message
from swiggy_sandbox.catalog import load_catalog
from swiggy_sandbox.catalog.wire import product_wire

BASE = "http://127.0.0.1:1"


def _products(*queries: str) -> list[dict[str, Any]]:
    catalog = load_catalog()
    return [
        product_wire(product, BASE, lambda variation: 10)
        for query in queries
        for product in catalog.search_products(query)[:10]
    ]


def _call(use_id: str, name: str, tool_input: dict[str, Any], data: Any) -> list[Any]:
    text = json.dumps({"success": True, "data": data})
    return [
        McpToolUseBlock(id=use_id, name=name, server_name="swiggy-instamart", input=tool_input),
        McpToolResultBlock(tool_use_id=use_id, content=[{"type": "text", "text": text}]),
    ]


def _search(use_id: str, query: str, *pages: str) -> list[Any]:
    data = {"products": _products(*(pages or (query,)))}
    return _call(use_id, "search_products", {"addressId": "a1", "query": query}, data)


def test_search_cards_are_stored_best_fit_first_and_nothing_is_lost() -> None:
    blocks = _search("s1", "high protein snacks")
    card = parse_cards(blocks, "food")["s1"]
    assert isinstance(card, ProductsResult)
    shop_order = parse_tool_result("search_products", blocks[1].content, "food", blocks[0].input)
    assert isinstance(shop_order, ProductsResult) and "Milk Shake" in shop_order.items[0].name
    assert "Protein Bar" in card.items[0].name
    assert card.fitting is not None and 0 < card.fitting < len(card.items)
    assert sorted(i.name for i in card.items) == sorted(i.name for i in shop_order.items)
    assert not any("Shake" in item.name for item in card.items[: card.fitting])
    assert card.fit_less_why == ["other kinds of product"]


def test_the_request_adds_the_diet_and_budget_the_query_left_out() -> None:
    blocks = _search("s1", "momos")
    plain = parse_cards(blocks, "food")["s1"]
    veg = parse_cards(blocks, "food", request="veg momos please")["s1"]
    cheap = parse_cards(blocks, "food", request="momos under ₹150")["s1"]
    assert isinstance(plain, ProductsResult) and plain.fitting is None
    for card, why in ((veg, "not vegetarian"), (cheap, "over ₹150")):
        assert isinstance(card, ProductsResult)
        assert card.fitting == 2 and all("Veg" in item.name for item in card.items[:2])
        assert card.fit_less_why == [why]


def test_several_searches_in_one_reply_each_get_a_heading() -> None:
    blocks = [*_search("s1", "eggs"), TextBlock(text="and"), *_search("s2", "bread")]
    cards = parse_cards(blocks, "food", request="eggs and bread for breakfast")
    labels = [
        [(group.label, group.size) for group in card.groups]
        for card in cards.values()
        if isinstance(card, ProductsResult)
    ]
    assert labels == [[("Eggs", 3)], [("Bread", 10)]]


def test_one_search_for_several_things_groups_them_in_the_asked_order() -> None:
    blocks = _search("s1", "milk, eggs and bread", "bread", "eggs", "milk")
    card = parse_cards(blocks, "food")["s1"]
    assert isinstance(card, ProductsResult)
    assert [group.label for group in card.groups] == ["Milk", "Eggs", "Bread"]
    assert "Milk" in card.items[0].name


def test_a_result_without_a_query_keeps_the_shop_order() -> None:
    data = {"products": _products("high protein snacks")}
    blocks = _call("g1", "your_go_to_items", {"addressId": "a1"}, data)
    card = parse_cards(blocks, "food", request="high protein snacks")["g1"]
    assert isinstance(card, ProductsResult) and card.fitting is None
    assert "Milk Shake" in card.items[0].name


def test_a_veg_filter_on_a_menu_search_sets_non_veg_dishes_aside() -> None:
    dishes = [
        {"id": "1", "name": "Chicken Dum Biryani", "price": 34900, "isVeg": False},
        {"id": "2", "name": "Veg Dum Biryani", "price": 24900, "isVeg": True},
        {"id": "3", "name": "Egg Biryani", "price": 27900},
    ]
    tool_input = {"addressId": "a1", "query": "biryani", "vegFilter": 1}
    blocks = _call("m1", "search_menu", tool_input, {"items": dishes})
    card = parse_cards(blocks, "foodorder")["m1"]
    assert isinstance(card, ProductsResult)
    assert [item.name for item in card.items[: card.fitting]] == ["Veg Dum Biryani"]


def _restaurants(*costs: float) -> RestaurantsResult:
    return RestaurantsResult(
        items=[
            RestaurantItem(name=f"Place {cost:g}", cuisines=["Chinese"], cost_for_two=cost)
            for cost in costs
        ]
    )


def test_a_restaurant_budget_counts_only_when_it_says_for_how_many() -> None:
    card = _restaurants(600, 300, 450)
    query = {"query": "chinese"}
    for_two = fit_card(card, query, "foodorder", "chinese for two under 500")
    assert isinstance(for_two, RestaurantsResult)
    assert [item.name for item in for_two.items[: for_two.fitting]] == ["Place 300", "Place 450"]
    dish_budget = fit_card(card, query, "foodorder", "chinese under 500")
    assert isinstance(dish_budget, RestaurantsResult) and dish_budget.fitting is None
    table = fit_card(card, query, "dining", "chinese dinner under 400")
    assert isinstance(table, RestaurantsResult)
    assert [item.name for item in table.items[: table.fitting]] == ["Place 300"]
    four = fit_card(card, query, "dining", "chinese for 4 under 1000")
    assert isinstance(four, RestaurantsResult)
    assert [item.name for item in four.items[: four.fitting]] == ["Place 300", "Place 450"]


def test_ranked_cards_are_stored_with_the_reply_and_read_back_the_same() -> None:
    result = TurnResult(blocks=_search("s1", "high protein snacks"))
    reply = reply_message(result, "t1", "food", "high protein snacks")
    card = reply.meta.cards["s1"]
    again = parsed_result_adapter.validate_json(parsed_result_adapter.dump_json(card))
    assert again == card
    assert isinstance(again, ProductsResult) and again.fitting == card.fitting


def test_the_request_is_the_latest_thing_the_person_typed() -> None:
    history = [
        typed_message("high protein snacks under 200"),
        ChatMessage(role="assistant", content=[TextBlock(text="Here you go.")]),
        action_message(CardAction(kind="add_to_cart", label="Add 1 × Phab bar")),
        ChatMessage(role="user", content=[ToolResultBlock(tool_use_id="x", content="{}")]),
    ]
    assert latest_request(history) == "high protein snacks under 200"
    assert latest_request([history[1]]) is None
