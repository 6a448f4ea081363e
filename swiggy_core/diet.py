"""A person's standing diet: what they eat, what they are allergic to, what they dislike,
and a daily goal; validated and size-limited, set once and applied by every shop.

The profile reaches the model each turn as one line of the turn context (never in the
cached system prompt: changing it must not rewrite the cache); the offline planner reads
the same line back with `read_diet_note`.
"""

from __future__ import annotations

import json
from typing import Annotated, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from swiggy_core.errors import ErrorCode, UsageError

DietName = Literal["any", "vegetarian", "eggetarian", "jain", "vegan"]
Allergen = Literal["peanuts", "tree nuts", "gluten", "dairy", "soy", "shellfish", "egg", "fish"]

DIETS: Final[tuple[DietName, ...]] = ("any", "vegetarian", "eggetarian", "jain", "vegan")
ALLERGENS: Final[tuple[Allergen, ...]] = (
    "peanuts",
    "tree nuts",
    "gluten",
    "dairy",
    "soy",
    "shellfish",
    "egg",
    "fish",
)
DIET_LABELS: Final[dict[DietName, str]] = {
    "any": "Anything",
    "vegetarian": "Vegetarian",
    "eggetarian": "Eggetarian (veg and eggs)",
    "jain": "Jain (no onion, garlic or roots)",
    "vegan": "Vegan",
}
MAX_DISLIKES: Final = 20
MAX_DISLIKE_CHARS: Final = 40
MAX_PROTEIN_G: Final = 400
MIN_CALORIES_KCAL: Final = 500
MAX_CALORIES_KCAL: Final = 6000
# The preference the profile is stored under (one JSON value per person).
DIET_PREFERENCE: Final = "diet"
# Opens the profile's line in the turn context; the offline planner finds it by it.
DIET_NOTE_FOR_MODEL: Final = (
    "Standing diet profile the person set (apply it to every search and pick; put what "
    "may break it last and say why; Swiggy lists no allergens or nutrition, so a match "
    "by name is only likely, never certain): "
)

Dislike = Annotated[
    str,
    StringConstraints(
        strip_whitespace=True, to_lower=True, min_length=1, max_length=MAX_DISLIKE_CHARS
    ),
]


class DietProfileError(UsageError):
    """A diet profile outside its limits: nothing is saved, what was typed stays."""

    code = ErrorCode.DIET_PROFILE_INVALID


class DietProfile(BaseModel):
    """One person's standing diet (all parts optional; empty means "no profile")."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    diet: DietName = "any"
    allergies: tuple[Allergen, ...] = Field(default=(), max_length=len(ALLERGENS))
    dislikes: tuple[Dislike, ...] = Field(default=(), max_length=MAX_DISLIKES)
    protein_goal_g: int | None = Field(default=None, ge=1, le=MAX_PROTEIN_G)
    calorie_goal_kcal: int | None = Field(default=None, ge=MIN_CALORIES_KCAL, le=MAX_CALORIES_KCAL)

    @property
    def is_empty(self) -> bool:
        """True when nothing is set: no line for the model, no flags on cards."""
        return self == DietProfile()

    @property
    def restricts(self) -> bool:
        """True when some card could conflict with it (a goal alone restricts nothing)."""
        return self.diet != "any" or bool(self.allergies or self.dislikes)


def diet_profile(raw: object) -> DietProfile:
    """A profile from stored or submitted values, or a DietProfileError saying what is wrong."""
    try:
        return DietProfile.model_validate(raw)
    except ValidationError as error:
        raise DietProfileError(_what_is_wrong(error)) from error


def split_dislikes(text: str) -> list[str]:
    """ "Karela, baingan; mushrooms" → each word or phrase, in order, once."""
    parts = (part.strip().lower() for part in text.replace(";", ",").split(","))
    return list(dict.fromkeys(part for part in parts if part))


def diet_note_for_model(profile: DietProfile) -> str | None:
    """The turn context's line for the profile (None when nothing is set)."""
    if profile.is_empty:
        return None
    fields = profile.model_dump(mode="json", exclude_defaults=True)
    return DIET_NOTE_FOR_MODEL + json.dumps(fields, ensure_ascii=False, separators=(",", ":"))


def read_diet_note(*texts: str) -> DietProfile | None:
    """The profile a request's turn context carries (None when there is none or it is bad)."""
    for text in texts:
        start = text.find(DIET_NOTE_FOR_MODEL)
        if start < 0:
            continue
        line = text[start + len(DIET_NOTE_FOR_MODEL) :].split("\n", 1)[0]
        try:
            return DietProfile.model_validate_json(line)
        except ValidationError:
            return None
    return None


def _what_is_wrong(error: ValidationError) -> str:
    """The first broken limit, said to the person."""
    first = error.errors()[0]
    field = str(first["loc"][0]) if first["loc"] else ""
    return _LIMITS.get(field, "Your diet profile could not be read: set it again.")


_LIMITS: Final[dict[str, str]] = {
    "diet": "Choose one of the diets offered.",
    "allergies": "Choose allergies from the list offered.",
    "dislikes": f"Keep dislikes to {MAX_DISLIKES} words or phrases of up to "
    f"{MAX_DISLIKE_CHARS} letters each.",
    "protein_goal_g": f"A daily protein goal is between 1 and {MAX_PROTEIN_G} g.",
    "calorie_goal_kcal": f"A daily calorie goal is between {MIN_CALORIES_KCAL:,} and "
    f"{MAX_CALORIES_KCAL:,} kcal.",
}
