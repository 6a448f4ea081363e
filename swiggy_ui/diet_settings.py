"""Connections → Your diet: a standing profile every shop applies, and its use on a page.

Saved per person in the store; the shop pages read it once per visit (`use_diet`) so the
cards can flag what may not suit it (`cards.diet_flags`), and each turn tells the model.
"""

from __future__ import annotations

import streamlit as st

from swiggy_core.diet import (
    ALLERGENS,
    DIET_LABELS,
    DIETS,
    DietProfile,
    DietProfileError,
    diet_profile,
    split_dislikes,
)
from swiggy_core.errors import ErrorCode
from swiggy_core.store import StoreError
from swiggy_ui.banners import coded_error
from swiggy_ui.cards.diet_flags import KEY_ACTIVE_DIET
from swiggy_ui.runtime import Runtime

_FIELDS = {
    "diet": "form_diet_name",
    "allergies": "form_diet_allergies",
    "dislikes": "form_diet_dislikes",
    "protein": "form_diet_protein",
    "calories": "form_diet_calories",
}


def use_diet(runtime: Runtime) -> DietProfile:
    """This person's profile for the page being drawn (empty when it cannot be read)."""
    try:
        profile = runtime.visit.diet()
    except StoreError:  # the page's own store banner says why; cards go unflagged meanwhile
        profile = DietProfile()
    st.session_state[KEY_ACTIVE_DIET] = profile
    return profile


def render_diet_settings(runtime: Runtime) -> None:
    """The "Your diet" section of Connections."""
    with st.container(border=True):
        st.subheader("Your diet")
        st.caption(
            "Every shop puts what may not suit you last and flags it, and the chat keeps "
            "it in mind. Swiggy lists no allergens: a flag means the name or description "
            "suggests it, so check the pack before you eat."
        )
        try:
            current = runtime.visit.diet()
        except StoreError as error:
            coded_error(error.message, error.code, icon=":material/database:")
            return
        with st.form("diet-profile", border=False):
            submitted = _form(current)
        if submitted:
            _save(runtime)
        elif not current.is_empty:
            st.caption(f":material/restaurant: {_summary(current)}")


def _form(current: DietProfile) -> bool:
    st.radio(
        "You eat",
        DIETS,
        index=DIETS.index(current.diet),
        format_func=DIET_LABELS.__getitem__,
        horizontal=True,
        key=_FIELDS["diet"],
    )
    st.multiselect(
        "Allergies",
        ALLERGENS,
        default=list(current.allergies),
        placeholder="None",
        key=_FIELDS["allergies"],
    )
    st.text_input(
        "Foods you avoid (commas between them)",
        value=", ".join(current.dislikes),
        placeholder="karela, baingan",
        key=_FIELDS["dislikes"],
    )
    protein_col, calorie_col = st.columns(2)
    protein_col.text_input(
        "Daily protein goal (g)",
        value=_number_text(current.protein_goal_g),
        placeholder="No goal",
        key=_FIELDS["protein"],
    )
    calorie_col.text_input(
        "Daily calorie goal (kcal)",
        value=_number_text(current.calorie_goal_kcal),
        placeholder="No goal",
        key=_FIELDS["calories"],
    )
    return st.form_submit_button("Save my diet", icon=":material/restaurant:")


def _save(runtime: Runtime) -> None:
    """Validate what was typed; on a problem say so with its code and keep the form."""
    try:
        profile = diet_profile(
            {
                "diet": st.session_state[_FIELDS["diet"]],
                "allergies": st.session_state[_FIELDS["allergies"]],
                "dislikes": split_dislikes(st.session_state[_FIELDS["dislikes"]]),
                "protein_goal_g": _goal(st.session_state[_FIELDS["protein"]]),
                "calorie_goal_kcal": _goal(st.session_state[_FIELDS["calories"]]),
            }
        )
    except DietProfileError as error:
        coded_error(
            f"{error.message} (Your diet was not changed.)", error.code, icon=":material/error:"
        )
        return
    try:
        runtime.visit.save_diet(profile)
    except StoreError as error:
        coded_error(error.message, error.code, icon=":material/database:")
        return
    st.success(f"Saved. {_summary(profile)}", icon=":material/check:")


def _goal(text: str) -> int | None:
    """A goal as typed ("60", " 2,000 "); empty means none."""
    cleaned = text.strip().replace(",", "")
    if not cleaned:
        return None
    if not cleaned.isdigit():
        raise DietProfileError(
            "A daily goal is a whole number, such as 60; leave it empty for none.",
            code=ErrorCode.DIET_PROFILE_INVALID,
        )
    return int(cleaned)


def _number_text(value: int | None) -> str:
    return "" if value is None else str(value)


def _summary(profile: DietProfile) -> str:
    """ "You eat: Vegetarian · allergies: peanuts · you avoid: karela · goal: 60 g protein"."""
    if profile.is_empty:
        return "No diet set: the shops show everything as it comes."
    parts = [f"You eat: {DIET_LABELS[profile.diet]}"]
    if profile.allergies:
        parts.append("allergies: " + ", ".join(profile.allergies))
    if profile.dislikes:
        parts.append("you avoid: " + ", ".join(profile.dislikes))
    if profile.protein_goal_g:
        parts.append(f"goal: {profile.protein_goal_g} g protein a day")
    if profile.calorie_goal_kcal:
        parts.append(f"goal: {profile.calorie_goal_kcal:,} kcal a day")
    return " · ".join(parts)
