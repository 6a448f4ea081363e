"""Everyday requests turned into searches a catalogue understands, with a short intro.

A model knows that paneer butter masala needs tomatoes and cream, that Andhra food is spicy and
that "a romantic rooftop dinner" is best searched as "rooftop"; this stand-in keeps that
knowledge in small tables.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from swiggy_sandbox.planner import numbers, phrasing
from swiggy_sandbox.planner import text as en
from swiggy_sandbox.planner.intents import search_query

# At most this many searches in one reply: more card grids than that is noise.
MAX_SEARCHES = 3


@dataclass(frozen=True)
class Wish:
    """What to search for (in order) and the sentence that introduces the results."""

    queries: tuple[str, ...]
    intro: str = ""


_RECIPES: dict[str, tuple[str, tuple[str, ...]]] = {
    "paneer": ("paneer butter masala", ("paneer", "tomato", "fresh cream")),
    "rajma": ("rajma chawal", ("rajma", "onion", "basmati rice")),
    "dal": ("dal tadka", ("toor dal", "tomato", "ghee")),
    "poha": ("kanda poha", ("thick poha", "onion", "peanuts")),
    "biryani": ("veg biryani", ("basmati rice", "garam masala", "curd")),
    "pasta": ("a quick pasta", ("pizza base", "mozzarella", "tomato")),
    "sandwich": ("a grilled sandwich", ("sandwich bread", "cheese slices", "butter")),
    "omelette": ("a masala omelette", ("eggs", "onion", "green chilli")),
    "chana": ("chole", ("kabuli chana", "onion", "tomato")),
    "tofu": ("a tofu stir-fry", ("tofu", "capsicum", "hakka noodles")),
}
_COOK = re.compile(r"\b(ingredients?|recipe|cook|make|making|prepare)\b")
_PLAN = re.compile(
    r"\b(plan|meal ?plan|ideas?)\b.*\b(dinners?|lunch(es)?|meals?)\b"
    r"|\b(dinners?|lunch(es)?|meals?)\s+(plan|ideas?|for the week)\b"
)
_BREAKFAST = re.compile(r"\bbreakfast\b")
_SPLIT = re.compile(r"\s*(?:,|\band\b|\bplus\b|&(?=\s))\s*")
_MEAL_WORDS = re.compile(
    r"\b(for|breakfast|lunch|dinner|tonight|today|tomorrow|snack time|this week|"
    r"quick|healthy|some|also)\b"
)

# A plan reads as headed lists: a heading, one line per meal, then the heading over the
# ingredients' cards (never the meals and their ingredients run into one paragraph).
_DINNER_PLAN = (
    "**Three high-protein vegetarian dinners for two**\n\n"
    "1. **Paneer bhurji** with multigrain toast: about 28 g protein each\n"
    "2. **Tofu and capsicum stir-fry** with noodles: about 22 g\n"
    "3. **Soya chunk curry** with rice: about 25 g\n\n"
    "**What you'll need**"
)
_BREAKFAST_IDEAS = (
    "**Healthy breakfasts in 10 minutes**\n\n"
    "- **Overnight oats** with banana\n"
    "- **A two-egg omelette** on toast\n"
    "- **Greek yogurt** with muesli\n\n"
    "**What you'll need**"
)

_HAIR: dict[str, tuple[str, tuple[str, ...]]] = {
    "dandruff": (
        "For dandruff and a dry scalp: wash two or three times a week with an anti-dandruff "
        "shampoo (leave it on for 3 minutes), oil the scalp lightly the night before, and "
        "skip very hot water.",
        ("anti dandruff shampoo", "hair oil"),
    ),
    "hair fall": (
        "For hair fall: a gentle strengthening shampoo, a conditioner on the lengths only, "
        "and a weekly oil massage.",
        ("hair fall shampoo", "conditioner"),
    ),
    "frizz": (
        "For frizzy hair: a sulphate-free shampoo, conditioner every wash and a light serum.",
        ("shampoo", "conditioner"),
    ),
}
_STYLE_PRODUCTS = (
    "face wash",
    "sunscreen",
    "moisturiser",
    "serum",
    "toner",
    "face mask",
    "shampoo",
    "conditioner",
    "hair oil",
    "lip",
    "body lotion",
    "deodorant",
    "razor",
    "beard",
)
_SKIN = re.compile(r"\b(oily|dry|sensitive|combination|normal|acne[- ]prone)\s+skin\b")


def grocery_wish(text: str) -> Wish | None:
    """NutriCart: a meal plan, a dish to cook, breakfast ideas or several items in one go."""
    text = text.lower()
    if _PLAN.search(text):
        return Wish(("paneer", "tofu", "soya chunks"), _DINNER_PLAN)
    if _COOK.search(text) and (dish := next((d for d in _RECIPES if _has(text, d)), None)):
        name, ingredients = _RECIPES[dish]
        return Wish(ingredients, f"For {name} you'll need {', '.join(ingredients)}:")
    items = _items(text)
    if len(items) > 1:
        return Wish(items[:MAX_SEARCHES], f"Here's {_joined(items[:MAX_SEARCHES])}:")
    if _BREAKFAST.search(text) and not items:
        return Wish(("oats", "eggs", "greek yogurt"), _BREAKFAST_IDEAS)
    return diet_wish(text)


def diet_wish(text: str) -> Wish | None:
    """A diet the shop has no label for ("low sugar"): what it marks healthy, said plainly."""
    named = phrasing.diet(text)
    if named is None:
        return None
    query = search_query(phrasing.without_diet(text))
    if query in ("", "healthy"):
        query = "healthy snacks"
    return Wish((query,), f"Nothing here is labelled “{named}”; these are marked healthy.")


def style_wish(text: str) -> Wish | None:
    """StyleKit: a hair concern, or a product named among descriptive words."""
    text = text.lower()
    for concern, (advice, queries) in _HAIR.items():
        if _has(text, concern):
            return Wish(queries, advice)
    items = _items(text)
    if len(items) > 1:
        return Wish(items[:MAX_SEARCHES], f"Here's {_joined(items[:MAX_SEARCHES])}:")
    product = next((p for p in _STYLE_PRODUCTS if _has(text.replace("-", " "), p)), None)
    skin = _SKIN.search(text)
    if product and skin:
        query = f"{product} for {skin.group(1)} skin"
        extra = [w for w in ("fragrance free", "matte", "tinted") if w in text.replace("-", " ")]
        note = f" Check the label for “{extra[0]}”." if extra else ""
        return Wish((query,), f"Here are {product}s for {skin.group(1)} skin.{note}")
    return None


def _items(text: str) -> tuple[str, ...]:
    """ "eggs and bread for breakfast" → ("eggs", "bread")."""
    if not _SPLIT.search(text):
        return ()
    parts = [_MEAL_WORDS.sub(" ", en.without_price(part)) for part in _SPLIT.split(text)]
    items = [search_query(part) for part in parts if part]
    return tuple(dict.fromkeys(item for item in items if item))


def _has(text: str, phrase: str) -> bool:
    return re.search(rf"\b{re.escape(phrase)}", text) is not None


def _joined(items: tuple[str, ...]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


_CRAVINGS = {
    "spicy": ("andhra", "Andhra kitchens are the spiciest around; these deliver to you."),
    "healthy": ("salad", "Something light and healthy: salads and bowls near you."),
    "sweet": ("desserts", "Something sweet: dessert places near you."),
}
_DISH_NOISE = re.compile(
    r"\b(best|top|highest|high)[- ]rated\b|\b((that|which)\s+)?((arrives?|delivers?|comes?|"
    r"reach(es)?)\s+)?(in|within|under)\s*\d+\s*min(ute)?s?\b"
    rf"|\bfor\s+(\d+|{numbers.SPELLED})\b(\s+(people|persons|guests|pax|of us))?"
    r"|\b(\d+|" + numbers.SPELLED + r")\s+(people|persons|guests|pax|of us)\b"
    r"|\b(quick(ly)?|fast|tonight|today|tomorrow|now|i'?m|hungry|something|anything|food|"
    r"meals?|dishes|(for |after |at )?(lunch|dinner|supper))\b"
)
_MINUTES = re.compile(r"\b(\d+)\s*min")


def food_wish(text: str) -> tuple[str, str]:
    """The dish or cuisine to search for ("" when none is named) and a sentence to open
    with ("" when plain)."""
    text = phrasing.without_diet(phrasing.without_day_parts(text))
    for craving, (search, intro) in _CRAVINGS.items():
        if _has(text, craving):
            return search, intro
    cleaned = search_query(_DISH_NOISE.sub(" ", phrasing.for_whom(en.without_price(text))))
    dishes = [part.strip() for part in _SPLIT.split(cleaned) if part.strip()]
    if len(dishes) > 1:
        # One restaurant per cart: find the first dish; the rest come from its menu.
        rest = _joined(tuple(dishes[1:]))
        return dishes[0], f"Starting with {dishes[0]}; pick a place and add {rest} from its menu."
    return cleaned, ""


def best_rated(restaurants: list[dict[str, object]], text: str) -> str:
    """The best-rated restaurant (within the minutes asked for), as a sentence; "" if not asked."""
    lowered = text.lower()
    if not restaurants or not re.search(r"\b(best|top|highest)[- ]rated\b", lowered):
        return ""  # nothing open to rank: the reply says so
    minutes = _MINUTES.search(lowered)
    limit = int(minutes.group(1)) if minutes else None
    fitting = [r for r in restaurants if limit is None or _fastest(r) <= limit]
    if not fitting:
        return f"None of these promises {limit} minutes; the quickest is listed with its time."
    best = max(fitting, key=lambda r: float(str(r.get("avgRating") or 0)))
    within = f" that arrives within {limit} minutes" if limit else ""
    return f"The best rated{within} is **{best.get('name')}** (★{best.get('avgRating')})."


def _fastest(restaurant: dict[str, object]) -> int:
    """The lower bound of "25-30 mins" (a large number when unknown)."""
    found = re.search(r"\d+", str(restaurant.get("deliveryTimeRange") or ""))
    return int(found.group(0)) if found else 10_000
