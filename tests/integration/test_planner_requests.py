"""Natural first requests in every shop: the offline planner answers with relevant cards.

Several items at once, a dish to cook, a budget, a cuisine for two, a party and a day; and
when a request is beyond a shop, what it can do with its starter prompts. Real SDK, the
emulator and the sandbox servers, through the same `Chat` as the main flows.
"""

from __future__ import annotations

from dataclasses import dataclass

import anthropic
import pytest
from test_planner_flows import Chat, client, names, sandbox, search_cards

from swiggy_core.actions import suggestions
from swiggy_core.verticals.catalog import VERTICALS
from swiggy_sandbox.servers import SandboxHttpServer

__all__ = ["client", "sandbox"]  # the module's fixtures, shared with the main flows


def _products(chat: Chat) -> list[list[str]]:
    """Names of the products each search of the reply found."""
    return [
        [str(p["displayName"]) for p in result["data"]["products"]]
        for result in chat.results("search_products")
    ]


def _searched(chat: Chat, said: str, tool: str = "search_products") -> list[str]:
    """Say `said` in the chat; the queries of the reply's `tool` calls."""
    return [str(tool_input["query"]) for name, tool_input in chat.say(said) if name == tool]


def test_several_items_in_one_request_are_each_searched(
    client: anthropic.Anthropic, sandbox: SandboxHttpServer
) -> None:
    chat = Chat(client, sandbox, "food", "several")
    assert _searched(chat, "eggs and bread for breakfast") == ["eggs", "bread"]
    eggs, bread = _products(chat)
    assert eggs and all("Egg" in name for name in eggs[:3])
    assert bread and all("Bread" in name for name in bread[:3])
    cards = search_cards(chat, "eggs and bread for breakfast")
    assert [card.groups[0].label for card in cards] == ["Eggs", "Bread"]  # a heading each
    assert not any(name in chat.text() for name in eggs + bread), "the cards say the names"


def test_a_dish_to_cook_finds_its_ingredients(
    client: anthropic.Anthropic, sandbox: SandboxHttpServer
) -> None:
    chat = Chat(client, sandbox, "food", "cook")
    assert _searched(chat, "ingredients for paneer tonight") == ["paneer", "tomato", "fresh cream"]
    assert all(found for found in _products(chat))
    assert "paneer butter masala" in chat.text()
    chat.say("add the first one")  # the cards act like any search's
    (line,) = chat.shop.instamart.cart("cook")["items"]
    assert "Cream" in line["itemName"]  # the latest search's first product


def test_a_budget_keeps_to_it(client: anthropic.Anthropic, sandbox: SandboxHttpServer) -> None:
    chat = Chat(client, sandbox, "food", "budget")
    assert _searched(chat, "snacks under ₹200") == ["snacks"]
    assert "under ₹200" in chat.text()
    (card,) = search_cards(chat, "snacks under ₹200")
    fitting = card.items[: card.fitting]
    assert fitting and all(item.price is not None and item.price <= 200 for item in fitting)
    assert all(item.price and item.price > 200 for item in card.items[len(fitting) :])
    assert fitting[0].name in chat.text() and "\n1. " not in chat.text()


def test_stylekit_several_products_and_a_concern(
    client: anthropic.Anthropic, sandbox: SandboxHttpServer
) -> None:
    chat = Chat(client, sandbox, "style", "style-several")
    assert _searched(chat, "shampoo and conditioner") == ["shampoo", "conditioner"]
    assert all(found for found in _products(chat))
    assert _searched(chat, "my hair is falling a lot, what helps with hair fall?") == [
        "hair fall shampoo",
        "conditioner",
    ]
    assert "hair fall" in chat.text().lower()


def test_feedme_a_cuisine_for_two_and_two_dishes(
    client: anthropic.Anthropic, sandbox: SandboxHttpServer
) -> None:
    chat = Chat(client, sandbox, "foodorder", "cuisine")
    assert _searched(chat, "chinese for two", "search_restaurants") == ["chinese"]
    found = chat.results("search_restaurants")[0]["data"]["restaurants"]
    assert found and "Mainland China" in chat.text()
    assert _searched(chat, "a biryani and a coke", "search_restaurants") == ["biryani"]
    assert "from its menu" in chat.text()


@dataclass(frozen=True)
class OneSearch:
    """One message that is one restaurant search: what it must search for and say."""

    vertical_id: str
    person: str
    said: str
    tool: str
    queries: list[str]
    finds: bool = False  # the search must list restaurants
    says: tuple[str, ...] = ()
    never_says: tuple[str, ...] = ()


ONE_SEARCH = {
    "feedme-best-rated-within-minutes": OneSearch(
        "foodorder",
        "fast",
        "best-rated pizza that arrives in 30 minutes",
        "search_restaurants",
        ["pizza"],
        says=("The best rated that arrives within 30 minutes is **",),
    ),
    "tablescout-a-party-and-a-day-without-a-cuisine": OneSearch(
        "dining",
        "party",
        "table for 4 on Saturday",
        "search_restaurants_dineout",
        ["family"],
        finds=True,
        says=("for 4 on Saturday",),
    ),
    # Burma Burma is ₹1,800 for two; Shiro is listed by the search, but above the budget.
    "tablescout-a-cuisine-for-two-with-a-budget": OneSearch(
        "dining",
        "asian",
        "chinese for two under ₹2000",
        "search_restaurants_dineout",
        ["asian"],
        says=("Burma Burma",),
        never_says=("Shiro",),
    ),
    "tablescout-two-vibes-search-the-place-feature": OneSearch(
        "dining",
        "vibes",
        "a romantic rooftop dinner for two this Saturday",
        "search_restaurants_dineout",
        ["rooftop"],
        finds=True,
    ),
}


@pytest.mark.parametrize("case", list(ONE_SEARCH.values()), ids=list(ONE_SEARCH))
def test_one_message_is_one_search_and_its_reply(
    client: anthropic.Anthropic, sandbox: SandboxHttpServer, case: OneSearch
) -> None:
    chat = Chat(client, sandbox, case.vertical_id, case.person)
    assert _searched(chat, case.said, case.tool) == case.queries
    if case.finds:
        assert chat.results(case.tool)[0]["data"]["restaurants"]
    for words in case.says:
        assert words in chat.text()
    for words in case.never_says:
        assert words not in chat.text()


def test_beyond_the_shop_it_says_what_it_can_do_and_offers_its_chips(
    client: anthropic.Anthropic, sandbox: SandboxHttpServer
) -> None:
    for vertical_id, user in (("food", "beyond-food"), ("dining", "beyond-dining")):
        chat = Chat(client, sandbox, vertical_id, user)
        assert chat.say("what's the weather like?") == []
        assert "Here I can " in chat.text()
        # Offered as chips to tap, not a list to read.
        assert suggestions(chat.text()) == list(VERTICALS[vertical_id].starter_prompts)
    assert names(chat.say("brunch this weekend")) == ["search_restaurants_dineout"]


@pytest.mark.parametrize("result_form", ["summary"], indirect=True)
def test_the_party_size_comes_from_the_core_session_summary(
    client: anthropic.Anthropic, sandbox: SandboxHttpServer
) -> None:
    """The local engine sends the session summary; "we are 6" is read there, not re-parsed."""
    chat = Chat(client, sandbox, "dining", "summary-party")
    assert chat.local  # the summary form runs through the local engine
    assert _searched(
        chat, "rooftop dinner on Saturday, we are 6", "search_restaurants_dineout"
    ) == ["rooftop"]
    assert "for 6 on Saturday" in chat.text()
    assert "how many people" not in chat.text()
