"""A person's diet profile kept in the `preferences` table, as one validated JSON value."""

from __future__ import annotations

import logging

from swiggy_core.diet import DIET_PREFERENCE, DietProfile, DietProfileError, diet_profile
from swiggy_core.mcp.user_servers import PreferenceStore

logger = logging.getLogger(__name__)


def load_diet(store: PreferenceStore, user_id: str) -> DietProfile:
    """The person's profile; an empty one when none is stored or the stored one is unreadable
    (a value written by an older version is never applied half-read)."""
    stored = store.get_preference(user_id, DIET_PREFERENCE)
    if not stored:
        return DietProfile()
    try:
        return diet_profile(stored)
    except DietProfileError as error:
        logger.warning("a stored diet profile was not applied (%s)", error.code)
        return DietProfile()


def save_diet(store: PreferenceStore, user_id: str, profile: DietProfile) -> None:
    """Keep the profile (an empty profile is kept too: it switches everything off)."""
    store.set_preference(user_id, DIET_PREFERENCE, profile.model_dump(mode="json"))
