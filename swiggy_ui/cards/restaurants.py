"""Restaurant cards: identity, rating, cost for two, delivery time, Menu / Slots buttons.

Dineout deals show under the restaurant; a paid prebook says it is not bookable here.
A Food search that also matched dishes shows them first, above the restaurants.
"""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from swiggy_core.actions import CardAction
from swiggy_core.formatting import date_time_label, distance_label, price_known, rupees
from swiggy_core.parsers import ProductsResult, RestaurantDeal, RestaurantItem, RestaurantsResult
from swiggy_ui.cards.context import CardContext
from swiggy_ui.cards.diet_flags import diet_badges, diet_sorted
from swiggy_ui.cards.images import card_image
from swiggy_ui.cards.products import render_products
from swiggy_ui.cards.ranked import ranked_grid
from swiggy_ui.safe_text import plain
from swiggy_ui.state import queue_action

_NOT_TAKING_ORDERS = {"CLOSED": "Closed now", "UNAVAILABLE": "Not taking orders"}
MAX_DEALS_SHOWN = 4


def render_restaurants(result: RestaurantsResult, ctx: CardContext) -> None:
    dining = ctx.vertical.books_tables
    if result.dishes:
        # Dishes first, each with its Add: a named dish is ordered without opening a menu
        # (the Swiggy app opens a dish search on its Dishes tab too).
        st.markdown("**Dishes**")
        dishes = ProductsResult(kind="menu", items=result.dishes, tool_name=result.tool_name)
        render_products(dishes, replace(ctx, key=f"{ctx.key}-dishes"))
        st.markdown("**Restaurants**")
    result = diet_sorted(result, "restaurant")
    ranked_grid(
        result.items,
        lambda item, key: _restaurant_card(item, key, dining, ctx.image_origin),
        key=ctx.key,
        fitting=result.fitting,
        fit_less_why=result.fit_less_why,
    )


def _restaurant_card(
    item: RestaurantItem, key: str, dining: bool, image_origin: str | None
) -> None:
    card_image(item.image_url, image_origin, "restaurant")
    st.markdown(f"**{plain(item.name)}**")
    if item.cuisines:
        st.caption(", ".join(plain(cuisine) for cuisine in item.cuisines[:4]))
    facts = []
    if item.rating is not None:
        facts.append(f":orange[:material/star:] {item.rating:.1f}")
    if price_known(item.cost_for_two):
        facts.append(f"{rupees(item.cost_for_two)} for two")
    if item.delivery_time_minutes is not None and not dining:
        facts.append(f"{item.delivery_time_minutes} min")
    elif item.locality:
        facts.append(plain(item.locality))
    distance = distance_label(item.distance_km)  # None when unknown or 0
    if distance:
        facts.append(distance)
    if facts:
        st.markdown(" · ".join(facts))
    if item.offer:
        st.caption(f":orange[{plain(item.offer)}]")
    _deals(item.deals)
    diet_badges(item)
    if item.is_open is False:
        label = _NOT_TAKING_ORDERS.get((item.availability or "").upper(), "Closed now")
        st.badge(label, color="gray")  # the menu can still be browsed
        if item.next_open:
            st.caption(plain(_opens(item.next_open)))
    if not item.restaurant_id:
        return
    ids = {"restaurantId": item.restaurant_id, "restaurantName": item.name}
    if dining:
        action = CardAction(kind="show_slots", label=f"Show free slots at {item.name}", ids=ids)
        label, icon = "Slots", ":material/event_available:"
    else:
        action = CardAction(kind="show_menu", label=f"Show me the menu of {item.name}", ids=ids)
        label, icon = "Menu", ":material/restaurant_menu:"
    st.button(label, key=f"{key}-open", icon=icon, on_click=queue_action, args=(action,))


def _opens(next_open: str) -> str:
    """ "Opens 11:00 AM" for a bare time or date-time ("11:00"); a sentence as given."""
    return f"Opens {date_time_label(next_open)}" if next_open[:1].isdigit() else next_open


def _deals(deals: list[RestaurantDeal]) -> None:
    """Each deal on its own line; a paid prebook is marked as not bookable here."""
    for deal in deals[:MAX_DEALS_SHOWN]:
        if deal.paid:
            price = f" ({rupees(deal.price)})" if price_known(deal.price) else ""
            st.caption(f"{plain(deal.title)}{price} · paid prebook — not bookable here")
        else:
            st.caption(f":green[{plain(deal.title)}]")
