"""Turn one user message (typed or a card button) into an intent the flows act on."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal

from swiggy_core.verticals import get_vertical
from swiggy_sandbox.planner import phrasing
from swiggy_sandbox.planner import text as en

IntentKind = Literal[
    "search",
    "routine",
    "add",
    "set_quantity",
    "remove",
    "view_cart",
    "clear_cart",
    "checkout",
    "confirm",
    "cancel",
    "choose",
    "pick_slot",
    "addresses",
    "choose_address",
    "help",
    "track",
    "reorder",
]

# Card action kinds and the intent each one means.
_ACTION_INTENTS: dict[str, IntentKind] = {
    "add_to_cart": "add",
    "set_quantity": "set_quantity",
    "remove_from_cart": "remove",
    "view_cart": "view_cart",
    "request_checkout": "checkout",
    "show_menu": "choose",
    "show_slots": "choose",
    "pick_slot": "pick_slot",
    "confirm": "confirm",
    "cancel": "cancel",
    "choose_address": "choose_address",
    "clear_cart": "clear_cart",
    "reorder": "reorder",
}

_TRACK = re.compile(r"\b(where'?s|where is|track|status of)\b.*\border\b")
# "My usual", "same as last week", "order it again": a past order back into the cart.
_REORDER = re.compile(
    r"\b(my usual|the usual|same as last (week|time)|same again|order (it|that|this) again"
    r"|order again|reorder|repeat (my|the) (last )?order|my last order again)\b"
)
_ADDRESSES = re.compile(r"\b(address|addresses|saved locations?|delivery location)\b")
_YES = re.compile(r"^(yes|yep|yeah|ya|sure|ok(ay)?|confirm(ed)?|go ahead|do it|please do)\b")
_NO = re.compile(r"^(no|nope|nah|cancel|don'?t|do not|stop|never ?mind)\b")
_REMOVE = re.compile(r"\b(remove|delete|drop|take out|take off|get rid of)\b")
_SET = re.compile(r"\b(make it|change|set|update)\b.*?\b(\d+)\b")
_CART = re.compile(r"\b(cart|basket|bag)\b")
_CHECKOUT = re.compile(
    r"\b(place|checkout|check out|pay|order (it|them|now|this)|confirm (the |my )?order"
    r"|buy (it|them|now))\b"
)
_ADD = re.compile(r"\b(add|put|include|i'?ll (take|have)|throw in)\b")
_ROUTINE = re.compile(r"\b(routine|regime|regimen)\b")
_CHOOSE = re.compile(
    r"\b(go with|order from|open|menu|slots?|that one|this one|choose|pick|select|check)\b"
)
_BOOK_SLOT = re.compile(r"\b(book|reserve)\b")
_HELP = re.compile(
    r"^(hi|hello|hey|help|thanks|thank you|what can you do|who are you)\b|\?$|^what\b|^how\b"
)
_SEARCH = re.compile(
    r"\b(find|search|look(ing)? for|show me|want|need|get me|suggest|recommend|craving|"
    r"hungry|buy|order|any|table|book|dinner|lunch|snacks?|breakfast|brunch|ingredients?|"
    r"recipe|cook|dandruff|scalp|hair|skin|spicy)\b"
)
_FILLER = re.compile(
    r"\b(please|can you|could you|i want|i'?d like|i need|i am|i'm|looking for|look for|"
    r"search for|search|find me|find|show me|get me|suggest|recommend|some|a|an|the|me|"
    r"to eat|to order|order|buy|craving|hungry for|for delivery|deliver(ed)?|any|something|"
    r"anything|stuff|good|nice|really|very|we need|we want)\b"
)


@dataclass(frozen=True)
class Intent:
    """What the person asked for, with whatever details the words or ids gave."""

    kind: IntentKind
    query: str = ""
    position: int | None = None
    quantity: int | None = None
    name_words: list[str] = field(default_factory=list)
    # The words the person used for the item, as typed ("the chips").
    phrase: str = ""
    ids: dict[str, Any] = field(default_factory=dict)
    tool_name: str = ""


def read_intent(text: str, action: dict[str, Any] | None, vertical: str) -> Intent:
    """The intent of this turn's message; a card action wins over the words."""
    if action and action.get("kind") in _ACTION_INTENTS:
        return Intent(
            kind=_ACTION_INTENTS[action["kind"]],
            ids=dict(action.get("ids") or {}),
            tool_name=str(action.get("tool_name") or ""),
        )
    return _typed_intent(text.lower().strip(), vertical)


def _typed_intent(text: str, vertical_id: str) -> Intent:
    vertical = get_vertical(vertical_id)
    short = len(text.split()) <= 6
    if short and _YES.search(text):
        return Intent("confirm")
    if short and _NO.search(text):
        return Intent("cancel")
    if _REORDER.search(text) and not vertical.books_tables:
        # "Add my usual to the cart" writes it; the first ask only shows it.
        return Intent("reorder", ids={"add": True} if _ADD.search(text) else {})
    if _ADDRESSES.search(text):
        return Intent("addresses")
    if _TRACK.search(text):
        return Intent("track")
    if vertical.books_tables:
        return _dining_intent(text)
    if _REMOVE.search(text):
        phrase = _REMOVE.split(text)[-1]
        return Intent("remove", name_words=_item_words(phrase), phrase=_phrase(phrase))
    if (match := _SET.search(text)) and not _ADD.search(text):
        name = text[: match.start(2)]
        return Intent("set_quantity", quantity=int(match.group(2)), name_words=_item_words(name))
    if _CHECKOUT.search(text):
        return Intent("checkout")
    if _CART.search(text) and not _ADD.search(text):
        return Intent("view_cart")
    if _ADD.search(text):
        return _add_intent(text)
    if vertical.product_look == "beauty" and _ROUTINE.search(text):
        return Intent("routine", query=text)
    if (position := en.ordinal(text)) is not None and (short or _CHOOSE.search(text)):
        return Intent("choose", position=position, name_words=_item_words(text))
    # Where searches are for products, a count means "put that many in the cart".
    products = vertical.search_lists == "products"
    if products and (en.quantity(text) or 0) > 1 and search_query(text):
        # "I want two Amul butter": a count of a named product is an order for that many.
        return _add_intent(text)
    return _search_or_help(text)


def _dining_intent(text: str) -> Intent:
    has_place_or_party = en.place(text) is not None or en.party_size(text) is not None
    if _BOOK_SLOT.search(text) and not has_place_or_party and not re.search(r"\btable\b", text):
        return Intent("pick_slot", query=text)
    if en.clock_time(text) and not has_place_or_party and not _SEARCH.search(text):
        return Intent("pick_slot", query=text)
    position = en.ordinal(text)
    if position is not None and (len(text.split()) <= 6 or _CHOOSE.search(text)):
        return Intent("choose", position=position, name_words=_item_words(text))
    return _search_or_help(text)


def _add_intent(text: str) -> Intent:
    said = _ADD.split(text)[-1] if _ADD.search(text) else search_query(text)
    phrase = phrasing.without_counts(phrasing.for_whom(said))
    size = en.pack_size(phrase)  # kept whole: "1 l" picks the 1 L pack
    named = _phrase(en.without_size(phrase)) + (f" {size}" if size else "")
    return Intent(
        "add",
        position=en.ordinal(text),
        quantity=en.quantity(text),
        name_words=_item_words(en.without_size(phrase)),
        phrase=named.strip(),
    )


def _search_or_help(text: str) -> Intent:
    if not text or (_HELP.search(text) and not _SEARCH.search(text)):
        return Intent("help")
    query = search_query(text)
    if not query:
        return Intent("help")
    return Intent("search", query=query)


def search_query(text: str) -> str:
    """The words worth sending as a search query ("high protein snacks")."""
    cleaned = phrasing.plain_wish(text).replace("-", " ")
    cleaned = phrasing.without_counts(_FILLER.sub(" ", cleaned))
    cleaned = re.sub(r"[^a-z0-9%&' ]", " ", cleaned)
    return " ".join(cleaned.split())


def _phrase(text: str) -> str:
    """The item as the person named it, minus counts and cart words ("the chips")."""
    counts = r"\d+|x|one|two|three|four|five|six|seven|eight|nine|ten|an?"
    cleaned = re.sub(rf"\b({counts}|of|to|from|my|the|cart|basket|bag|please)\b", " ", text)
    return " ".join(re.sub(r"[^a-z0-9%&' -]", " ", cleaned).split())


def _item_words(text: str) -> list[str]:
    """The words that name an item ("the chips from my cart" → ["chip"])."""
    cleaned = re.sub(r"\b(\d+|x|of|first|second|third|last|cart|basket|bag)\b", " ", text)
    return en.words(cleaned)
