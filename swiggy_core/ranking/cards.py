"""A reply's search cards put in the order of what was asked (stored that way, once).

A card set is ranked against its own search (the tool call's `query`) and the person's
latest words; what fits less goes to the end of the same list, so every item stays in
the stored result (the cart still finds names and prices there) and in reach on screen.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from swiggy_core.parsers.catalog_results import ItemGroup, ProductsResult, RestaurantsResult
from swiggy_core.parsers.results import ParsedToolResult
from swiggy_core.ranking.lexicon import Diet, lexicon
from swiggy_core.ranking.rank import Ranked, rank
from swiggy_core.ranking.wants import Wants, read_wants
from swiggy_core.verticals.catalog import find_vertical

_QUERY_KEYS = ("query", "searchQuery", "search_query", "q", "keyword")
_ON = (1, "1", True, "true")
_PEOPLE_PER_COST = 2  # Swiggy prices restaurants "for two"


def fit_cards(
    cards: Mapping[str, ParsedToolResult],
    inputs: Mapping[str, dict[str, Any] | None],
    vertical_id: str,
    request: str | None = None,
) -> dict[str, ParsedToolResult]:
    """Each search card (by tool_use_id) ranked against its query and the request.

    Results of calls without a query (a restaurant's whole menu, the go-to items) keep
    the shop's order. Several searches in one reply ("eggs", then "bread") each get a
    heading: one group per thing asked for.
    """
    fitted = {
        use_id: fit_card(card, inputs.get(use_id), vertical_id, request)
        for use_id, card in cards.items()
    }
    searches = [
        (use_id, card, query)
        for use_id, card in fitted.items()
        if isinstance(card, ProductsResult) and card.items and not card.groups
        if (query := search_query(inputs.get(use_id)))
    ]
    if len(searches) > 1:
        for use_id, card, query in searches:
            size = card.fitting if card.fitting is not None else len(card.items)
            group = ItemGroup(label=query[:1].upper() + query[1:], size=size)
            fitted[use_id] = card.model_copy(update={"groups": [group]})
    return fitted


def fit_card(
    card: ParsedToolResult,
    tool_input: dict[str, Any] | None,
    vertical_id: str,
    request: str | None = None,
) -> ParsedToolResult:
    """One card ranked, or the card as it was when it is no search or names nothing."""
    if not isinstance(card, ProductsResult | RestaurantsResult) or not card.items:
        return card
    query = search_query(tool_input)
    if query is None:
        return card
    wants = read_wants(query, request)
    if _veg_filter(tool_input) and wants.diet is None:
        wants = replace(wants, diet=_diet("veg"))
    if wants.empty:
        return card
    if isinstance(card, ProductsResult):
        return _fit_products(card, wants)
    return _fit_restaurants(card, wants, vertical_id)


def search_query(tool_input: dict[str, Any] | None) -> str | None:
    """What the call searched for, when it searched."""
    if not isinstance(tool_input, dict):
        return None
    for key in _QUERY_KEYS:
        value = tool_input.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def _fit_products(card: ProductsResult, wants: Wants) -> ProductsResult:
    ranked = rank(card.items, wants)
    groups = [ItemGroup(label=group.label, size=group.size) for group in ranked.groups]
    return card.model_copy(update={**_ranked_fields(ranked), "groups": groups})


def _fit_restaurants(card: RestaurantsResult, wants: Wants, vertical_id: str) -> RestaurantsResult:
    # A budget means a meal's cost to a restaurant search only when it says for how many
    # (TableScout's always does: a table's price is for two); otherwise it is a dish's.
    vertical = find_vertical(vertical_id)
    per_table = vertical is not None and vertical.price_unit == "table_for_two"
    party = wants.party or (_PEOPLE_PER_COST if per_table else None)
    budget = wants.budget * _PEOPLE_PER_COST / party if wants.budget and party else None
    ranked = rank(card.items, replace(wants, budget=budget, quantity=None))
    update = _ranked_fields(ranked)
    if card.dishes:
        dishes = rank(card.dishes, wants)
        update["dishes"] = [*dishes.items, *dishes.dropped]
    return card.model_copy(update=update)


def _ranked_fields(ranked: Ranked[Any]) -> dict[str, Any]:
    return {
        "items": [*ranked.items, *ranked.dropped],
        "fitting": len(ranked.items) if ranked.dropped else None,
        "fit_less_why": ranked.reasons,
    }


def _veg_filter(tool_input: dict[str, Any] | None) -> bool:
    """Food's search_menu takes `vegFilter: 1` for vegetarian dishes only."""
    return isinstance(tool_input, dict) and tool_input.get("vegFilter") in _ON


def _diet(name: str) -> Diet:
    return next(diet for diet in lexicon().diets if diet.name == name)
