"""The chat of one vertical: stored history with its cards, and a live turn as it streams.

Nothing here does bookkeeping: the core session stores every message; this module only
renders stored messages and the events of a running turn. Every text from the model, a
tool or the person goes through `safe_text` first (no images, no non-https links, nothing
that looks like the app's own cards).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import streamlit as st

from swiggy_core.actions import without_suggestions
from swiggy_core.basket_records import BasketReview
from swiggy_core.models import (
    ChatMessage,
    McpToolResultBlock,
    TextBlock,
    ToolResultBlock,
    tool_pairs,
)
from swiggy_core.parsers import ParsedToolResult, StatusResult
from swiggy_core.parsers.confirmations import PENDING_PAYMENT
from swiggy_core.verticals import Vertical
from swiggy_ui import state
from swiggy_ui.cards import CardContext, render_result
from swiggy_ui.chat_view import HistoryView, first_shown, history_view, turn_starts_of
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

# Draws one approval's UPI payment as its card: (approval id, the card's context).
PaymentDrawer = Callable[[str, CardContext], None]
# Draws a shopping list's basket review: (the review, its message's key, added already).
BasketDrawer = Callable[[BasketReview, str, bool], None]
# The newest turns are drawn in full; older ones wait behind "Show earlier messages",
# so a rerun costs the same at 10 turns as at 200 (every element is rebuilt each run).
TURNS_PAGE = 10


def render_history(
    messages: Sequence[ChatMessage],
    vertical: Vertical,
    *,
    image_origin: str | None = None,
    turns_shown: int = state.TURNS_SHOWN,
    turn_starts: Sequence[int] | None = None,
    payment: PaymentDrawer | None = None,
    basket: BasketDrawer | None = None,
) -> None:
    """The newest `turns_shown` turns: the person's words, replies with cards, outcomes.

    Older turns stay one click away ("Show earlier messages"). `image_origin` is the
    running sandbox's own origin, whose images cards may show. `turn_starts`: where each
    turn begins, as the stored history keeps it (without it every message is read).
    `payment` draws a UPI order's payment (live, or its outcome) in place of its card;
    `basket` a shopping list's review in place of the app's words about it for the model.
    """
    starts = turn_starts_of(messages) if turn_starts is None else turn_starts
    first = first_shown(starts, turns_shown)
    if first > 0:
        _earlier_control(vertical, hidden=len(starts) - turns_shown)
    view = history_view(
        messages, first, vertical, image_origin=image_origin, details=state.show_details()
    )
    added = _added_reviews(messages[first:]) if basket is not None else set()
    for index in range(first, len(messages)):
        message, key = messages[index], f"m{index}"
        if message.role == "user" and not message.opens_turn():
            _render_outcomes(message, view, key=key, payment=payment)
        elif message.role == "user":
            render_user_message(message)
        elif message.meta.basket is not None:
            with st.chat_message("assistant", avatar=ASSISTANT_AVATAR):
                review_key = message.meta.turn_id or key
                if basket is not None:
                    basket(message.meta.basket, review_key, review_key in added)
        elif message.blocks():
            with st.chat_message("assistant", avatar=ASSISTANT_AVATAR):
                _render_assistant(message, view, key=key)


def _added_reviews(messages: Sequence[ChatMessage]) -> set[str]:
    """The basket reviews whose Add all was sent (its action names the review)."""
    actions = [message.meta.action for message in messages if message.meta.action]
    return {str(action.ids["review"]) for action in actions if "review" in action.ids}


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


def _render_assistant(message: ChatMessage, view: HistoryView, *, key: str) -> None:
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


def _render_outcomes(
    message: ChatMessage, view: HistoryView, *, key: str, payment: PaymentDrawer | None = None
) -> None:
    """An approval's outcome (the order or booking card), as the app's own reply."""
    answers = [b for b in message.blocks() if isinstance(b, ToolResultBlock)]
    shown = [b.tool_use_id for b in answers if b.tool_use_id in view.cards]
    approval_id = message.meta.approval_id
    if not shown or approval_id is None:
        return
    with st.chat_message("assistant", avatar=ASSISTANT_AVATAR):
        for index, use_id in enumerate(shown):
            card, ctx = view.cards[use_id], view.context(f"{key}-{index}", use_id)
            if payment is not None and _awaits_payment(card):
                payment(approval_id, ctx)
            else:
                render_result(card, ctx)
        for answer in answers:
            unknown_outcome_link(answer.content if isinstance(answer.content, str) else "")


def _awaits_payment(card: ParsedToolResult) -> bool:
    """A UPI order's answer: the payment panel (or its outcome) is drawn instead."""
    return isinstance(card, StatusResult) and card.code == PENDING_PAYMENT


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
