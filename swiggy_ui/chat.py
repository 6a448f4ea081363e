"""The chat of one vertical: stored history with its cards, and a live turn as it streams.

Nothing here does bookkeeping: the core session stores every message; this module only
renders stored messages and the events of a running turn. Every text from the model, a
tool or the person goes through `safe_text` first (no images, no non-https links, nothing
that looks like the app's own cards).
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from swiggy_core.actions import (
    visible_text,
    without_suggestions,
)
from swiggy_core.constants import APPROVAL_TOOL_NAME
from swiggy_core.formatting import asked_time
from swiggy_core.models import (
    ChatMessage,
    McpToolResultBlock,
    TextBlock,
    ToolResultBlock,
    tool_pairs,
)
from swiggy_core.parsers import CartResult, ParsedToolResult, parse_tool_result
from swiggy_core.verticals import Vertical
from swiggy_ui import state
from swiggy_ui.cards import CardContext, render_result
from swiggy_ui.live_turn import ASSISTANT_AVATAR

# The live turn lives in live_turn.py; the page reaches every part of the chat through here.
from swiggy_ui.live_turn import _stream_text as _stream_text
from swiggy_ui.live_turn import busy_input as busy_input
from swiggy_ui.live_turn import tool_label as tool_label
from swiggy_ui.live_turn import watch as watch
from swiggy_ui.safe_text import markdown_text, plain
from swiggy_ui.suggestion_chips import suggestion_chips as suggestion_chips
from swiggy_ui.turn_controls import render_user_message
from swiggy_ui.turn_states import unknown_outcome_link

# The newest turns are drawn in full; older ones wait behind "Show earlier messages",
# so a rerun costs the same at 10 turns as at 200 (every element is rebuilt each run).
TURNS_PAGE = 10
# Only the newest card of these kinds keeps its buttons: older ones hold stale numbers.
LIVE_KINDS = frozenset({"cart", "time_slots", "order_placed", "booking_confirmed"})


@dataclass(frozen=True, slots=True)
class _View:
    """What every message of one drawn history shares."""

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


def render_history(
    messages: list[ChatMessage],
    vertical: Vertical,
    *,
    image_origin: str | None = None,
    turns_shown: int = state.TURNS_SHOWN,
) -> None:
    """The newest `turns_shown` turns: the person's words, replies with cards, outcomes.

    Older turns stay one click away ("Show earlier messages"). `image_origin` is the
    running sandbox's own origin, whose images cards may show.
    """
    first = _first_shown(messages, turns_shown)
    if first > 0:
        _earlier_control(vertical, hidden=len(_turn_starts(messages[:first])))
    view = _view(messages, first, vertical, image_origin)
    for index in range(first, len(messages)):
        message, key = messages[index], f"m{index}"
        if message.role == "user" and _only_tool_results(message):
            _render_outcomes(message, view, key=key)
        elif message.role == "user":
            render_user_message(message)
        elif message.blocks():
            with st.chat_message("assistant", avatar=ASSISTANT_AVATAR):
                _render_assistant(message, view, key=key)


def _turn_starts(messages: list[ChatMessage]) -> list[int]:
    """Where each turn begins: a message the person wrote (or a card button sent)."""
    return [
        index
        for index, message in enumerate(messages)
        if message.role == "user" and not _only_tool_results(message)
    ]


def _first_shown(messages: list[ChatMessage], turns_shown: int) -> int:
    starts = _turn_starts(messages)
    return starts[-turns_shown] if len(starts) > turns_shown else 0


def _earlier_control(vertical: Vertical, *, hidden: int) -> None:
    page = state.vertical_chat(vertical.id)
    more = min(hidden, TURNS_PAGE)
    noun = "message" if hidden == 1 else "messages"
    st.caption(f":material/history: {hidden} earlier {noun} in this chat.")
    if st.button(
        f"Show {more} earlier",
        key=f"earlier-{vertical.id}",
        icon=":material/expand_less:",
        type="tertiary",
    ):
        page.turns_shown += more
        st.rerun()


def _view(
    messages: list[ChatMessage], first: int, vertical: Vertical, image_origin: str | None
) -> _View:
    """Cards as parsed when stored (the shown part of an old chat is parsed here once)."""
    cards: dict[str, ParsedToolResult] = {}
    for message in messages:
        cards.update(message.meta.cards)
    _parse_missing(messages[first:], cards, vertical)
    newest: dict[str, str] = {}
    previous: dict[str, CartResult] = {}
    last_cart: CartResult | None = None
    for use_id in _result_ids(messages):
        card = cards.get(use_id)
        if card is None or card.type not in LIVE_KINDS:
            continue
        newest[card.type] = use_id
        if isinstance(card, CartResult):
            if last_cart is not None:
                previous[use_id] = last_cart
            last_cart = card
    return _View(
        vertical=vertical,
        cards=cards,
        newest=frozenset(newest.values()),
        previous_carts=previous,
        asked_times=_asked_times(messages, cards),
        image_origin=image_origin,
        details=state.show_details(),
        media_parts=_media_parts(messages, cards),
    )


def _media_parts(
    messages: list[ChatMessage], cards: dict[str, ParsedToolResult]
) -> dict[str, tuple[object, ...]]:
    """The stored result parts of each media card: its images and files are read there."""
    media = {use_id for use_id, card in cards.items() if card.type == "media"}
    if not media:
        return {}
    return {
        pair.use.id: tuple(pair.result.content)
        for pair in tool_pairs(messages)
        if pair.use.id in media and pair.result and not isinstance(pair.result.content, str)
    }


def _asked_times(messages: list[ChatMessage], cards: dict[str, ParsedToolResult]) -> dict[str, str]:
    """Each slot card → the clock time the person's latest words before it asked for.

    Swiggy's slot tool takes only a date, so the picker learns the wanted time from here.
    """
    asked: dict[str, str] = {}
    wanted: str | None = None
    for message in messages:
        if message.role == "user" and not _only_tool_results(message):
            wanted = asked_time(visible_text(message)) or wanted
        for use_id in _result_ids([message]):
            card = cards.get(use_id)
            if wanted and card is not None and card.type == "time_slots":
                asked[use_id] = wanted
    return asked


def _result_ids(messages: list[ChatMessage]) -> list[str]:
    """The tool_use_id of every tool result, in the order the results arrived."""
    return [
        block.tool_use_id
        for message in messages
        for block in message.blocks()
        if isinstance(block, ToolResultBlock | McpToolResultBlock)
    ]


def _parse_missing(
    messages: list[ChatMessage], cards: dict[str, ParsedToolResult], vertical: Vertical
) -> None:
    for pair in tool_pairs(messages):
        # Approval answers show through their stored card only (see _render_outcomes).
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


def _only_tool_results(message: ChatMessage) -> bool:
    blocks = message.blocks()
    return bool(blocks) and all(isinstance(block, ToolResultBlock) for block in blocks)


def _render_assistant(message: ChatMessage, view: _View, *, key: str) -> None:
    """Text as markdown and each tool call's card (its raw call only with details on)."""
    uses = {pair.use.id: pair.use for pair in tool_pairs([message])}
    # Several cart snapshots in one reply (read, then update): only the last is shown.
    results = [b for b in message.blocks() if isinstance(b, McpToolResultBlock)]
    carts = [b.tool_use_id for b in results if _is_cart(b, view.cards)]
    for index, block in enumerate(message.blocks()):
        if isinstance(block, TextBlock) and block.text.strip():
            # Offered requests show as chips under the newest reply, not as tags in the text.
            st.markdown(markdown_text(without_suggestions(block.text)))
        elif isinstance(block, McpToolResultBlock):
            use = uses.get(block.tool_use_id)
            if view.details:
                _tool_details(use.name if use else "", use.input if use else {}, block)
            card = view.cards.get(block.tool_use_id)
            if card is None or (card.type == "cart" and block.tool_use_id != carts[-1]):
                continue
            render_result(card, view.context(f"{key}-{index}", block.tool_use_id))
    if message.meta.stopped:
        st.caption(":material/stop_circle: Stopped: the rest of this reply was not fetched.")
    if view.details and message.meta.usage is not None:
        usage = message.meta.usage
        st.caption(f"{usage.input_tokens:,} tokens in · {usage.output_tokens:,} out")


def _is_cart(block: McpToolResultBlock, cards: dict[str, ParsedToolResult]) -> bool:
    card = cards.get(block.tool_use_id)
    return card is not None and card.type == "cart"


def _render_outcomes(message: ChatMessage, view: _View, *, key: str) -> None:
    """An approval's outcome (the order or booking card), as the app's own reply."""
    answers = [b for b in message.blocks() if isinstance(b, ToolResultBlock)]
    shown = [b.tool_use_id for b in answers if b.tool_use_id in view.cards]
    if not shown or message.meta.approval_id is None:
        return
    with st.chat_message("assistant", avatar=ASSISTANT_AVATAR):
        for index, use_id in enumerate(shown):
            render_result(view.cards[use_id], view.context(f"{key}-{index}", use_id))
        for answer in answers:
            unknown_outcome_link(answer.content if isinstance(answer.content, str) else "")


def _tool_details(name: str, tool_input: dict, block: McpToolResultBlock) -> None:
    icon = ":material/error:" if block.is_error else ":material/build:"
    with st.expander(plain(name) or "tool", expanded=False, icon=icon):
        st.caption("Input")
        st.json(tool_input, expanded=False)
        st.caption("Output")
        text = block.content if isinstance(block.content, str) else "".join(
            part.text for part in block.content
        )  # fmt: skip
        st.code(text[:4000], language="json", wrap_lines=True)
