"""When a search finds nothing, or a request is too vague to search: one line, then chips.

The chips are the nearest things the shop can do (see `nearest`), so the person taps on
instead of reading how to rephrase.
"""

from __future__ import annotations

from swiggy_sandbox.connector import Finish
from swiggy_sandbox.planner import text as en
from swiggy_sandbox.planner.nearest import nearest, with_chips

# The first few things a hungry person with no idea yet usually picks.
_FOOD_IDEAS = ["Biryani", "Pizza", "South Indian"]
# The kinds of place people book most when they name none.
_VENUE_IDEAS = ["Rooftop", "North Indian", "Family"]


def product_miss(vertical: str, query: str) -> Finish:
    """Nothing in the shop answers to `query`."""
    text = f"I couldn't find “{query}” here. The nearest I have:"
    return Finish(with_chips(text, nearest(vertical, query)))


def over_budget(reply: str, query: str) -> Finish:
    """Everything found costs more than the budget: the reply, and the search without it."""
    return Finish(with_chips(reply, [query[:1].upper() + query[1:]]))


def restaurant_miss(vertical: str, query: str, closed_reply: str = "") -> Finish:
    """No open restaurant near the person delivers `query` (`closed_reply` when some are shut)."""
    missing = f"No restaurant near you delivers “{query}” right now. The nearest I can find:"
    text = closed_reply or missing
    return Finish(with_chips(text, nearest(vertical, query)))


def venue_miss(vertical: str, query: str, details: str) -> Finish:
    """No place near the person matches `query`; the chips keep their party and day."""
    return Finish(
        with_chips(
            f"No place near you matches “{query}”. The nearest I can book:",
            nearest(vertical, query, details, [f"{i}{details}" for i in _VENUE_IDEAS]),
        )
    )


def vague_food() -> Finish:
    """Hungry, but for nothing in particular."""
    return Finish(with_chips("What are you in the mood for?", _FOOD_IDEAS))


def vague_venue(details: str) -> Finish:
    """A table, but no cuisine, style or area to look for."""
    ideas = [f"{idea}{details}" for idea in _VENUE_IDEAS]
    return Finish(with_chips("What kind of place: a cuisine, a style or an area?", ideas))


def budget(text: str, prices: list[float]) -> float | None:
    """The budget asked for: an amount ("under two hundred"), or "cheap" read as the cheaper
    half of what was found."""
    if (cap := en.price_cap(text)) is not None:
        return cap
    return en.cheap_cap(prices) if en.wants_cheap(text) else None
