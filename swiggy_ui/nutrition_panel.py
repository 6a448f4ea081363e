"""The cart panel's nutrition estimate for a grocery cart: always labelled an estimate."""

from __future__ import annotations

import streamlit as st

from swiggy_core.cart import CartState
from swiggy_core.nutrition import estimate_cart, goal_share
from swiggy_core.verticals import Vertical
from swiggy_ui.cards.diet_flags import KEY_ACTIVE_DIET

ESTIMATE_BASIS = (
    "Swiggy lists no nutrition facts: these are typical values for such foods and the pack "
    "sizes shown, not the products' labels."
)


def render_nutrition(vertical: Vertical, cart: CartState) -> None:
    """Protein and calories of a grocery cart, estimated; nothing where there is no basis."""
    if vertical.server_key != "instamart" or vertical.product_look != "grocery":
        return
    estimate = estimate_cart(cart.items)
    if not estimate.any:
        return
    line = f"≈ {estimate.protein_g:,.0f} g protein · {estimate.kcal:,.0f} kcal"
    st.markdown(f":material/nutrition: **Nutrition estimate** · {line}")
    notes = []
    if estimate.without_basis:
        count = estimate.without_basis
        notes.append(f"No estimate for {count} item{'' if count == 1 else 's'}.")
    profile = st.session_state.get(KEY_ACTIVE_DIET)
    share = goal_share(estimate, profile) if profile is not None else None
    if share:
        notes.append(f"{share}.")
    notes.append(ESTIMATE_BASIS)
    st.caption(" ".join(notes))
