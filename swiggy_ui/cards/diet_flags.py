"""A card's diet flags: what may not suit the person's standing diet goes last, flagged.

The profile is the one the page read for this run (`swiggy_ui.diet_settings.use_diet`);
without one, cards are drawn exactly as stored.
"""

from __future__ import annotations

from typing import Final, TypeVar

import streamlit as st

from swiggy_core.diet import DietProfile
from swiggy_core.diet_conflicts import Card, conflicts
from swiggy_core.diet_order import diet_ordered
from swiggy_core.parsers import ProductsResult, RestaurantsResult

# Where the page keeps the profile it draws with (set once per run).
KEY_ACTIVE_DIET: Final = "diet_active_profile"

Result = TypeVar("Result", ProductsResult, RestaurantsResult)


def active_diet() -> DietProfile | None:
    """The profile the page is drawn with, when it can flag anything."""
    profile = st.session_state.get(KEY_ACTIVE_DIET)
    return profile if isinstance(profile, DietProfile) and profile.restricts else None


def diet_sorted(result: Result, noun: str) -> Result:
    """The card in diet order, with one line saying how many were moved and flagged."""
    profile = active_diet()
    if profile is None:
        return result
    ordered, order = diet_ordered(result, profile)
    if order.flagged:
        st.caption(f":material/no_food: {_summary(order.flagged, order.moved, noun)}")
    return ordered


def diet_badges(item: Card) -> None:
    """One badge per way the item may break the profile (the shop's own mark in red),
    each with what it rests on ("The name mentions groundnut.")."""
    profile = active_diet()
    if profile is None:
        return
    for conflict in conflicts(item, profile):
        # The badge stays short enough for a phone's card; what it rests on goes under it.
        if conflict.certain:
            st.badge(conflict.label, icon=":material/no_food:", color="red")
        else:
            st.badge(conflict.label, icon=":material/no_food:", color="orange")
        st.caption(conflict.basis[:1].upper() + conflict.basis[1:] + ".")


def _summary(flagged: int, moved: int, noun: str) -> str:
    """ "2 dishes may not suit your diet: moved to the end and flagged"."""
    plural = noun if flagged == 1 else f"{noun}es" if noun.endswith("sh") else f"{noun}s"
    verb = "moves" if flagged == 1 else "move"
    if moved == 0:
        return f"{flagged} {plural} may not suit your diet: flagged below."
    if moved == flagged:
        return f"{flagged} {plural} may not suit your diet: moved to the end and flagged."
    return f"{flagged} {plural} may not suit your diet: flagged, and {moved} {verb} to the end."
