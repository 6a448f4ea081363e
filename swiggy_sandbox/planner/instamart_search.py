"""Instamart searches for NutriCart and StyleKit: one product, several, a routine, a budget."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from swiggy_core.verticals import get_vertical
from swiggy_sandbox.connector import CallClientTool, CallTool, Finish, Step
from swiggy_sandbox.planner import instamart_replies as say
from swiggy_sandbox.planner import misses, wishes
from swiggy_sandbox.planner.common import address_or_step, call
from swiggy_sandbox.planner.intents import Intent
from swiggy_sandbox.planner.view import ConversationView


def search(view: ConversationView, intent: Intent) -> Step:
    """A wish (several items, a dish, a concern) as its searches, else one plain search."""
    address = address_or_step(view, "get_addresses")
    if not isinstance(address, str):
        return address
    grocery = get_vertical(view.vertical).product_look == "grocery"
    read = wishes.grocery_wish if grocery else wishes.style_wish
    if (wish := read(view.text)) is not None:
        return _search_each(view, address, wish)
    return search_one(view, intent)


def search_one(view: ConversationView, intent: Intent) -> Step:
    """One search for the intent's own query, then the reply about its results."""
    address = address_or_step(view, "get_addresses")
    if not isinstance(address, str):
        return address
    query = qualified(view, intent.query)
    done = view.searched("search_products", query)
    if done is not None:
        cap = budget(view.text, done.data)
        asked = str(done.input.get("query") or query)
        grocery = get_vertical(view.vertical).product_look == "grocery"
        reply = say.products_reply(done.data, asked, cap, nutrition=grocery)
        if say.shown_products(done.data, cap):
            return Finish(reply)
        if cap is not None and done.data.get("products"):
            return misses.over_budget(reply, asked)
        return misses.product_miss(view.vertical, asked)
    return call(view, "search_products", {"addressId": address, "query": query})


def _search_each(view: ConversationView, address: str, wish: wishes.Wish) -> Step:
    """One search per query of the wish (each shows its cards), then one short summary."""
    queries = [qualified(view, query) for query in wish.queries]
    done = {str(c.input.get("query")): c for c in view.turn_calls() if c.name == "search_products"}
    for query in queries:
        if query not in done:
            say_before = wish.intro if not done else ""
            return call(view, "search_products", {"addressId": address, "query": query}, say_before)
    found = [(query, done[query].data) for query in queries]
    if not any(data.get("products") for _query, data in found):
        return misses.product_miss(view.vertical, " and ".join(queries))
    every = {"products": [p for _query, data in found for p in data.get("products") or []]}
    return Finish(say.several_reply(found, budget(view.text, every)))


def routine(view: ConversationView, intent: Intent) -> Step:
    """A skincare routine for the person's skin, with the search for its first product."""
    skin = say.skin_type(view.text) or known_skin(view) or "normal"
    query = f"face wash for {skin} skin"
    search = search_one(view, Intent("search", query=query))
    if view.called("search_products") is None and view.called("get_addresses") is None:
        # The routine comes first, in the same message as the search it leads to.
        return with_intro(search, say.routine_reply(skin))
    if isinstance(search, Finish):
        return Finish(f"{search.text}\n\nWant me to find the moisturiser or the sunscreen next?")
    return search


def budget(text: str, data: dict[str, Any]) -> float | None:
    """The budget the words ask for, "cheap" read against the prices found."""
    prices = [say.price_of(product) or 0.0 for product in data.get("products") or []]
    return misses.budget(text, prices)


def qualified(view: ConversationView, query: str) -> str:
    """Beauty searches (StyleKit) always name the skin or hair type when one is known."""
    if get_vertical(view.vertical).product_look != "beauty" or " for " in query:
        return query
    if skin := known_skin(view):
        return f"{query} for {skin} skin"
    return query


def known_skin(view: ConversationView) -> str | None:
    """The skin type: the session summary's, else read from the person's words."""
    return view.slot("skin") or view.remembered(say.skin_type)


def with_intro(step: Step, intro: str) -> Step:
    """The step with `intro` said first."""
    if isinstance(step, Finish):
        return Finish(f"{intro}\n\n{step.text}")
    if isinstance(step, CallTool | CallClientTool):
        return replace(step, say_before=f"{intro}\n\n{step.say_before}".strip())
    return step
