"""The verticals, looked up by id: each one's entry is the only place it is named."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from types import MappingProxyType

from swiggy_core.errors import UnknownVerticalError
from swiggy_core.verticals.profile import compile_prompt_profile
from swiggy_core.verticals.profiles_instamart import NUTRICART_PROFILE, STYLEKIT_PROFILE
from swiggy_core.verticals.profiles_restaurants import FEEDME_PROFILE, TABLESCOUT_PROFILE
from swiggy_core.verticals.vertical import SearchLists, Vertical


def _instamart_labels(shop: str) -> dict[str, str]:
    """Instamart's tools in the words of the shop the person chose (NutriCart, StyleKit).

    Specific patterns first: update_cart must not fall through to the generic "cart" label.
    """
    return {
        r"search": f"Searching {shop}…",
        r"update_cart|clear_cart": "Updating your cart…",
        r"cart": "Checking your cart…",
        r"checkout": "Placing your order…",
        r"go_to_items": "Fetching your usual items…",
        r"address": "Loading your addresses…",
        r"order": "Checking your orders…",
    }


NUTRICART = Vertical(
    id="food",
    display_name="NutriCart",
    slug="nutricart",
    tagline="Groceries in minutes, with a nutritionist's eye",
    icon=":material/nutrition:",
    server_key="instamart",
    profile=NUTRICART_PROFILE,
    starter_prompts=(
        "Find high-protein snacks under ₹200",
        "Add Amul Taaza milk 1 L to my cart",
        "Plan 3 high-protein veg dinners for two",
        "A healthy breakfast in 10 minutes",
    ),
    loading_labels=_instamart_labels("NutriCart"),
    slot_names=("goal",),
)

STYLEKIT = Vertical(
    id="style",
    display_name="StyleKit",
    slug="stylekit",
    tagline="Skincare, haircare and grooming, routine first",
    icon=":material/face_retouching_natural:",
    server_key="instamart",
    profile=STYLEKIT_PROFILE,
    starter_prompts=(
        "A skincare routine for oily skin",
        "Help with dandruff and a dry scalp",
        "Add Cetaphil Gentle Skin Cleanser",
        "Sunscreen for sensitive skin",
    ),
    loading_labels=_instamart_labels("StyleKit"),
    product_look="beauty",
    slot_names=("skin", "hair", "concern"),
)

TABLESCOUT = Vertical(
    id="dining",
    display_name="TableScout",
    slug="tablescout",
    tagline="Find a table nearby and book a free slot",
    icon=":material/table_restaurant:",
    server_key="dineout",
    profile=TABLESCOUT_PROFILE,
    starter_prompts=(
        "Book a table for 4 tomorrow at 8 pm",
        "Rooftop dinner for two on Saturday",
        "North Indian for 6 tonight",
        "Brunch this weekend",
    ),
    loading_labels={
        r"search": "Finding restaurants…",
        r"slot|avail": "Checking available slots…",
        r"booking_status|status": "Checking your booking…",
        r"book|reserve": "Booking your table…",
        r"detail": "Loading restaurant details…",
        r"location|address": "Loading your saved locations…",
    },
    search_lists="restaurants",
    price_unit="table_for_two",
    books_tables=True,
    tracks_restaurant=True,
    people_slot="party",
    slot_names=("cuisine", "vibe"),
    empty_search_tips=(
        "a cuisine or a dish instead of a restaurant's name",
        "another area nearby",
        "fewer filters (no rooftop, no price limit)",
    ),
)

FEEDME = Vertical(
    id="foodorder",
    display_name="FeedMe",
    slug="feedme",
    tagline="From craving to doorstep with Swiggy Food",
    icon=":material/delivery_dining:",
    server_key="food",
    profile=FEEDME_PROFILE,
    starter_prompts=(
        "I want a paneer biryani",
        "Something spicy under ₹300",
        "Best-rated pizza in 30 minutes",
        "Chinese for two tonight",
    ),
    loading_labels={
        r"search_restaurant": "Finding restaurants…",
        r"menu": "Reading the menu…",
        r"update_food_cart|flush": "Updating your cart…",
        r"cart": "Checking your cart…",
        r"coupon": "Checking coupons…",
        r"place_food_order": "Placing your order…",
        r"track|order": "Checking your order…",
        r"address": "Loading your addresses…",
    },
    search_lists="dishes",
    tracks_restaurant=True,
    slot_names=("craving", "cuisine"),
    empty_search_tips=(
        "a dish instead of a restaurant's name (\u201cbiryani\u201d, \u201cpizza\u201d)",
        "a shorter name, or another spelling",
        "a higher budget",
    ),
)

_REGISTERED: dict[str, Vertical] = {v.id: v for v in (NUTRICART, STYLEKIT, TABLESCOUT, FEEDME)}
# Read-only for everyone else; `register_vertical` is the one way in.
VERTICALS: Mapping[str, Vertical] = MappingProxyType(_REGISTERED)


def register_vertical(vertical: Vertical) -> None:
    """Add a vertical (its pages, prompt and tools follow from the entry alone).

    Ids key stored chats and slugs are URLs, so neither may repeat an existing one.
    """
    if vertical.id in _REGISTERED:
        raise ValueError(f"vertical id {vertical.id!r} is already registered")
    if any(v.slug == vertical.slug for v in _REGISTERED.values()):
        raise ValueError(f"page slug {vertical.slug!r} is already taken")
    _REGISTERED[vertical.id] = vertical


def unregister_vertical(vertical_id: str) -> None:
    """Remove a vertical added by `register_vertical` (tests clean up with this)."""
    _REGISTERED.pop(vertical_id, None)
    build_system_prompt.cache_clear()


def get_vertical(vertical_id: str) -> Vertical:
    """The vertical for `vertical_id`; raises UnknownVerticalError naming the valid ids."""
    try:
        return VERTICALS[vertical_id]
    except (KeyError, TypeError):
        valid = ", ".join(VERTICALS)
        raise UnknownVerticalError(
            f"Unknown vertical {vertical_id!r}; choose one of: {valid}."
        ) from None


def find_vertical(vertical_id: str) -> Vertical | None:
    """The vertical for `vertical_id`, or None: parsers read results under any id."""
    return VERTICALS.get(vertical_id)


def search_lists_of(vertical_id: str) -> SearchLists | None:
    """What the vertical's searches list first; None for an id no vertical has."""
    vertical = find_vertical(vertical_id)
    return vertical.search_lists if vertical is not None else None


@cache
def build_system_prompt(vertical_id: str) -> str:
    """The compiled system prompt of a vertical (stable text, so prompt caching hits)."""
    return compile_prompt_profile(get_vertical(vertical_id).profile)
