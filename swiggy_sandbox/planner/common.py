"""Steps and replies every vertical shares: addresses, failures, help."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from swiggy_core.actions import suggestion_markup
from swiggy_core.verticals import get_vertical
from swiggy_sandbox.connector import CallTool, Finish, Step
from swiggy_sandbox.planner import text as en
from swiggy_sandbox.planner.intents import Intent
from swiggy_sandbox.planner.tool_calls import ToolCall
from swiggy_sandbox.planner.view import ConversationView

_AUTH_RE = re.compile(r"\b(401|403|419)\b|unauthori[sz]ed|expired|invalid token|revoked", re.I)
_DISABLED_RE = re.compile(r"disabled by the toolset configuration", re.I)
# What a failed spending call leaves undone, said plainly so nobody assumes it happened.
_NOT_DONE = {
    "checkout": "No order was placed.",
    "place_food_order": "No order was placed.",
    "book_table": "No table was booked.",
}


@dataclass(frozen=True)
class ShopWords:
    """How the planner describes one vertical when asked what it can do."""

    # What the shop can do, said when a request is beyond it.
    can_do: str
    # A main flow as the person would type it; the first one is offered with the help.
    examples: tuple[str, ...]


# Keyed by vertical id: a vertical's offline words (its plan is in brain._PLANS).
SHOP_WORDS = {
    "food": ShopWords(
        "find groceries (several at once, a dish's ingredients or a meal plan), "
        "keep your Instamart cart and check out once you confirm",
        (
            "find high-protein snacks under 200",
            "add 2 of the first one",
            "show my cart",
        ),
    ),
    "style": ShopWords(
        "suggest a skin or hair routine, find the products for it, keep your cart "
        "and check out once you confirm",
        (
            "suggest a skincare routine for oily skin and find the products",
            "find a sunscreen for oily skin",
            "show my cart",
        ),
    ),
    "foodorder": ShopWords(
        "find restaurants that deliver a dish or cuisine, open their menus, fill your "
        "cart and order once you confirm",
        (
            "I want a paneer biryani",
            "order from the first restaurant",
            "place the order",
        ),
    ),
    "dining": ShopWords(
        "find restaurants for a cuisine, vibe or area, show free slots for your "
        "party and book a table once you confirm",
        (
            "book a table for 4 tomorrow at 8 pm near Indiranagar",
            "the first one",
            "book the 8 pm slot",
        ),
    ),
}


def call(view: ConversationView, name: str, tool_input: dict[str, Any], say: str = "") -> Step:
    """A call to this vertical's server."""
    return CallTool(view.server, name, tool_input, say_before=say)


# How a shop answers one kind of request.
Handler = Callable[[ConversationView, Intent], Step]


def plan_with(view: ConversationView, intent: Intent, handlers: Mapping[str, Handler]) -> Step:
    """A failed call explained first; else the intent's handler, or what the shop can do."""
    if failed := view.failure():
        return failure_reply(failed)
    handler = handlers.get(intent.kind)
    return handler(view, intent) if handler else help_reply(view)


def chosen_restaurant_id(view: ConversationView, intent: Intent, search_tool: str) -> str | None:
    """The restaurant the person named or pointed at in `search_tool`'s latest results."""
    search = view.latest(search_tool)
    found = list(search.data.get("restaurants") or []) if search else []
    restaurant = en.pick(found, intent.position) or en.best_match(
        intent.name_words, found, lambda r: str(r.get("name", ""))
    )
    return str(restaurant["id"]) if restaurant else None


def help_reply(view: ConversationView) -> Finish:
    """What this shop can do, the shape of a request, and its starter prompts as chips."""
    words = SHOP_WORDS[view.vertical]
    chips = suggestion_markup(list(starter_prompts(view.vertical)))
    return Finish(
        f"Here I can {words.can_do}. Try one of these, or say it your way, "
        f"like “{words.examples[0]}”.\n\n{chips}"
    )


def starter_prompts(vertical_id: str) -> tuple[str, ...]:
    """The vertical's own starter prompts (the chips on its page)."""
    return get_vertical(vertical_id).starter_prompts


def failure_reply(failed: ToolCall) -> Finish:
    """Explain a failed call plainly; never pretend it worked, never retry in a loop."""
    if _AUTH_RE.search(failed.error):
        return Finish(
            "Swiggy didn't accept the sign-in (your session may have expired). "
            "Please reconnect Swiggy and try again."
        )
    if _DISABLED_RE.search(failed.error):
        return Finish("That step needs your explicit confirmation first, so I didn't do it.")
    outcome = _NOT_DONE.get(failed.name, "Nothing else was changed.")
    return Finish(f"Swiggy couldn't do that: {failed.error.rstrip('.')}. {outcome}")


def address_or_step(view: ConversationView, tool: str) -> str | Step:
    """The active address id, or the step that finds one (`tool` lists addresses)."""
    if address := view.address_id():
        return address
    if view.called(tool) is None:
        return call(view, tool, {}, say="Let me check your saved addresses first.")
    return Finish("I couldn't find a saved address. Add one in the Swiggy app, then ask again.")


def addresses_step(view: ConversationView) -> Step:
    """List the saved addresses (the app turns them into "Use this address" cards)."""
    tool = "get_saved_locations" if get_vertical(view.vertical).books_tables else "get_addresses"
    done = view.called(tool)
    if done is None:
        return call(view, tool, {})
    if not done.ok:
        return failure_reply(done)
    found = done.data.get("addresses") or done.data.get("locations") or []
    if not found:
        return Finish("You have no saved addresses yet. Add one in the Swiggy app first.")
    lines = [f"{address_label(a)} — {a.get('addressLine') or a.get('address', '')}" for a in found]
    listed = "\n".join(f"{i}. {line}" for i, line in enumerate(lines, start=1))
    return Finish(f"Your saved addresses:\n{listed}\n\nTap “Use this address” on the one to use.")


def address_label(address: dict[str, Any]) -> str:
    """An address's name: Swiggy's addressTag (or its category), else an older `label`."""
    category = str(address.get("addressCategory") or "").replace("_", " ").capitalize()
    return str(address.get("addressTag") or address.get("label") or category or "Address")


def address_chosen(view: ConversationView, ids: dict[str, Any]) -> Finish:
    """Acknowledge an address picked on a card (the app puts it in the system prompt)."""
    label = ids.get("label") or ids.get("addressLabel") or "that address"
    return Finish(f"Got it — I'll use {label} from now on. What would you like?")
