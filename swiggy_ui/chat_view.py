"""What the drawn part of a chat needs: where it starts, its cards, what they compare with.

A rerun draws only the newest turns, so everything here reads from the first drawn
message on. The few facts that lie further back come without a scan of the rest: how
many turns are hidden from the turn starts the stored history keeps, and the cart before
the first drawn one and the time the person last asked for from a look back that stops
at the first hit and is remembered per first drawn message (what lies before it never
changes: stored messages are only appended).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, TypeVar

from swiggy_core.actions import visible_text
from swiggy_core.constants import APPROVAL_TOOL_NAME
from swiggy_core.formatting import asked_time
from swiggy_core.models import ChatMessage, McpToolResultBlock, ToolResultBlock, tool_pairs
from swiggy_core.parsers import CartResult, ParsedToolResult, parse_tool_result
from swiggy_core.verticals import Vertical
from swiggy_ui.cards import CardContext

# Only the newest card of these kinds keeps its buttons: older ones hold stale numbers.
LIVE_KINDS: Final = frozenset({"cart", "time_slots", "order_placed", "booking_confirmed"})
# Look-backs remembered (one or two per open chat); the oldest is dropped first.
_LOOK_BACKS_KEPT: Final = 256

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class HistoryView:
    """What every drawn message of one history shares."""

    vertical: Vertical
    cards: dict[str, ParsedToolResult]
    newest: frozenset[str]  # tool_use_ids of the newest card of each LIVE_KINDS kind
    previous_carts: dict[str, CartResult]
    asked_times: dict[str, str]  # slot cards → the time the person had asked for
    image_origin: str | None
    details: bool
    media_parts: dict[str, tuple[object, ...]]  # a media card's result parts (its bytes)

    def context(self, key: str, tool_use_id: str) -> CardContext:
        card = self.cards.get(tool_use_id)
        live = card is None or card.type not in LIVE_KINDS or tool_use_id in self.newest
        return CardContext(
            key=key,
            vertical=self.vertical,
            image_origin=self.image_origin,
            live=live,
            previous_cart=self.previous_carts.get(tool_use_id),
            requested_time=self.asked_times.get(tool_use_id),
            parts=self.media_parts.get(tool_use_id, ()),
        )


def turn_starts_of(messages: Sequence[ChatMessage]) -> list[int]:
    """Where each turn begins, for a list that does not keep them (reads every message)."""
    return [index for index, message in enumerate(messages) if message.opens_turn()]


def first_shown(turn_starts: Sequence[int], turns_shown: int) -> int:
    """The index of the first message of the newest `turns_shown` turns."""
    return turn_starts[-turns_shown] if len(turn_starts) > turns_shown else 0


def history_view(
    messages: Sequence[ChatMessage],
    first: int,
    vertical: Vertical,
    *,
    image_origin: str | None,
    details: bool,
) -> HistoryView:
    """Cards as parsed when stored (the drawn part of an old chat is parsed here once)."""
    shown = messages[first:]
    cards: dict[str, ParsedToolResult] = {}
    for message in shown:
        cards.update(message.meta.cards)
    _parse_missing(shown, cards, vertical)
    newest, previous = _live_cards(
        shown, cards, lambda: _looked_back(_cart_before, messages, first)
    )
    return HistoryView(
        vertical=vertical,
        cards=cards,
        newest=newest,
        previous_carts=previous,
        asked_times=_asked_times(
            shown, cards, lambda: _looked_back(_asked_before, messages, first)
        ),
        image_origin=image_origin,
        details=details,
        media_parts=_media_parts(shown, cards),
    )


def _live_cards(
    shown: Sequence[ChatMessage],
    cards: dict[str, ParsedToolResult],
    cart_before: Callable[[], CartResult | None],
) -> tuple[frozenset[str], dict[str, CartResult]]:
    """The newest card of each live kind (newer ones cannot be hidden: the drawn part ends
    the chat), and each cart's previous cart (the first one's may lie before it)."""
    newest: dict[str, str] = {}
    previous: dict[str, CartResult] = {}
    last_cart: CartResult | None = None
    looked = False
    for use_id in _result_ids(shown):
        card = cards.get(use_id)
        if card is None or card.type not in LIVE_KINDS:
            continue
        newest[card.type] = use_id
        if isinstance(card, CartResult):
            if not looked:
                last_cart, looked = cart_before(), True
            if last_cart is not None:
                previous[use_id] = last_cart
            last_cart = card
    return frozenset(newest.values()), previous


def _asked_times(
    shown: Sequence[ChatMessage],
    cards: dict[str, ParsedToolResult],
    asked_before: Callable[[], str | None],
) -> dict[str, str]:
    """Each slot card → the clock time the person's latest words before it asked for.

    Swiggy's slot tool takes only a date, so the picker learns the wanted time from here.
    """
    if not any(card.type == "time_slots" for card in cards.values()):
        return {}
    asked: dict[str, str] = {}
    wanted = asked_before()
    for message in shown:
        if message.opens_turn():
            wanted = asked_time(visible_text(message)) or wanted
        for use_id in _result_ids([message]):
            card = cards.get(use_id)
            if wanted and card is not None and card.type == "time_slots":
                asked[use_id] = wanted
    return asked


def _cart_before(messages: Sequence[ChatMessage], first: int) -> CartResult | None:
    """The newest stored cart card before `first`."""
    for index in range(first - 1, -1, -1):
        message = messages[index]
        for use_id in reversed(_result_ids([message])):
            card = message.meta.cards.get(use_id)
            if isinstance(card, CartResult):
                return card
    return None


def _asked_before(messages: Sequence[ChatMessage], first: int) -> str | None:
    """The clock time the person's newest words before `first` asked for."""
    for index in range(first - 1, -1, -1):
        message = messages[index]
        if message.opens_turn() and (wanted := asked_time(visible_text(message))):
            return wanted
    return None


_looked: dict[tuple[str, int], tuple[ChatMessage, object]] = {}
_looked_lock = threading.Lock()


def _looked_back(
    look: Callable[[Sequence[ChatMessage], int], T], messages: Sequence[ChatMessage], first: int
) -> T | None:
    """`look(messages, first)`, remembered per first drawn message (kept alive by its
    entry, so its id is not reused while remembered)."""
    if first <= 0:
        return None
    boundary = messages[first]
    key = (look.__name__, id(boundary))
    hit = _looked.get(key)  # a plain read: dict lookups are atomic, and every hit is checked
    if hit is not None and hit[0] is boundary:
        return hit[1]  # type: ignore[return-value]  # stored by this same `look`
    found = look(messages, first)
    with _looked_lock:
        _looked[key] = (boundary, found)
        while len(_looked) > _LOOK_BACKS_KEPT:
            _looked.pop(next(iter(_looked)))
    return found


def _media_parts(
    shown: Sequence[ChatMessage], cards: dict[str, ParsedToolResult]
) -> dict[str, tuple[object, ...]]:
    """The stored result parts of each media card: its images and files are read there."""
    media = {use_id for use_id, card in cards.items() if card.type == "media"}
    if not media:
        return {}
    return {
        pair.use.id: tuple(pair.result.content)
        for pair in tool_pairs(shown)
        if pair.use.id in media and pair.result and not isinstance(pair.result.content, str)
    }


def _result_ids(messages: Sequence[ChatMessage]) -> list[str]:
    """The tool_use_id of every tool result, in the order the results arrived."""
    return [
        block.tool_use_id
        for message in messages
        if not isinstance(message.content, str)
        for block in message.content
        if isinstance(block, ToolResultBlock | McpToolResultBlock)
    ]


def _parse_missing(
    shown: Sequence[ChatMessage], cards: dict[str, ParsedToolResult], vertical: Vertical
) -> None:
    for pair in tool_pairs(shown):
        # Approval answers show through their stored card only (see chat._render_outcomes).
        if pair.use.name == APPROVAL_TOOL_NAME:
            continue
        if pair.result is not None and pair.use.id not in cards:
            cards[pair.use.id] = parse_tool_result(
                pair.use.name,
                pair.result.content,
                vertical.id,
                pair.use.input,
                is_error=pair.result.is_error,
            )
