"""The chat of one vertical: stored history with its cards, and a live turn as it streams.

Nothing here does bookkeeping: the core session stores every message; this module only
renders stored messages and the events of a running turn. Every text from the model, a
tool or the person goes through `safe_text` first (no images, no non-https links, nothing
that looks like the app's own cards).
"""

from __future__ import annotations

from collections.abc import Iterator

import streamlit as st
from streamlit.elements.lib.mutable_status_container import StatusContainer

from swiggy_core.actions import action_message, check_typed, typed_message, visible_text
from swiggy_core.constants import APPROVAL_TOOL_NAME
from swiggy_core.engine import StreamFailed, TextDelta, ToolFinished, ToolStarted
from swiggy_core.errors import InputError
from swiggy_core.models import (
    ChatMessage,
    McpToolResultBlock,
    TextBlock,
    ToolResultBlock,
    tool_pairs,
)
from swiggy_core.parsers import ParsedToolResult, parse_tool_result
from swiggy_core.turn_handle import HEARTBEAT_SECONDS, Heartbeat, TurnHandle
from swiggy_core.verticals import Vertical
from swiggy_ui import state
from swiggy_ui.cards import CardContext, render_result
from swiggy_ui.safe_text import markdown_text, plain

ASSISTANT_AVATAR = ":material/shopping_basket:"


def render_history(
    messages: list[ChatMessage], vertical: Vertical, *, image_origin: str | None = None
) -> None:
    """Every stored message: the person's words, replies with their cards, outcomes.

    `image_origin` is the running sandbox's own origin, whose images cards may show.
    """
    cards = _cards(messages, vertical)
    for index, message in enumerate(messages):
        key = f"m{index}"
        if message.role == "user" and _only_tool_results(message):
            _render_outcomes(message, cards, vertical, key=key, image_origin=image_origin)
        elif message.role == "user":
            with st.chat_message("user"):
                st.markdown(markdown_text(visible_text(message)))
        elif message.blocks():
            with st.chat_message("assistant", avatar=ASSISTANT_AVATAR):
                render_assistant(message, cards, vertical, key=key, image_origin=image_origin)


def _only_tool_results(message: ChatMessage) -> bool:
    blocks = message.blocks()
    return bool(blocks) and all(isinstance(block, ToolResultBlock) for block in blocks)


def _cards(messages: list[ChatMessage], vertical: Vertical) -> dict[str, ParsedToolResult]:
    """Cards by tool_use_id: parsed once when stored; older messages are parsed here."""
    cards: dict[str, ParsedToolResult] = {}
    for message in messages:
        cards.update(message.meta.cards)
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
    return cards


def render_assistant(
    message: ChatMessage,
    cards: dict[str, ParsedToolResult],
    vertical: Vertical,
    *,
    key: str,
    image_origin: str | None = None,
) -> None:
    """Text as markdown; each tool call as a collapsed details view plus its card."""
    uses = {pair.use.id: pair.use for pair in tool_pairs([message])}
    # Several cart snapshots in one reply (read, then update): only the last is current.
    results = [b for b in message.blocks() if isinstance(b, McpToolResultBlock)]
    carts = [b.tool_use_id for b in results if _is_cart(b, cards)]
    for index, block in enumerate(message.blocks()):
        if isinstance(block, TextBlock) and block.text.strip():
            st.markdown(markdown_text(block.text))
        elif isinstance(block, McpToolResultBlock):
            use = uses.get(block.tool_use_id)
            _tool_details(use.name if use else "", use.input if use else {}, block)
            card = cards.get(block.tool_use_id)
            if card is None or (card.type == "cart" and block.tool_use_id != carts[-1]):
                continue
            render_result(card, _context(f"{key}-{index}", vertical, image_origin))
    if message.meta.stopped:
        st.caption(":material/stop_circle: Stopped: the rest of this reply was not fetched.")


def _is_cart(block: McpToolResultBlock, cards: dict[str, ParsedToolResult]) -> bool:
    card = cards.get(block.tool_use_id)
    return card is not None and card.type == "cart"


def _context(key: str, vertical: Vertical, image_origin: str | None) -> CardContext:
    return CardContext(key=key, vertical=vertical, image_origin=image_origin)


def _render_outcomes(
    message: ChatMessage,
    cards: dict[str, ParsedToolResult],
    vertical: Vertical,
    *,
    key: str,
    image_origin: str | None,
) -> None:
    """An approval's outcome (the order or booking card), as the app's own reply."""
    answers = [b for b in message.blocks() if isinstance(b, ToolResultBlock)]
    shown = [cards[b.tool_use_id] for b in answers if b.tool_use_id in cards]
    if not shown or message.meta.approval_id is None:
        return
    with st.chat_message("assistant", avatar=ASSISTANT_AVATAR):
        for index, card in enumerate(shown):
            render_result(card, _context(f"{key}-{index}", vertical, image_origin))


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


def watch(handle: TurnHandle, vertical: Vertical) -> list[StreamFailed]:
    """Render a running turn's events from its start until it ends; returns its failures."""
    failures: list[StreamFailed] = []
    with st.chat_message("assistant", avatar=ASSISTANT_AVATAR):
        st.button(
            "Stop",
            key=f"stop-{vertical.id}",
            icon=":material/stop_circle:",
            on_click=handle.stop,
            help="End this reply now; what arrived is kept.",
        )
        statuses = st.container()
        pulse = st.empty()
        with st.spinner(vertical.default_loading_label):
            _stream_text(_text_of(handle, vertical, statuses, pulse, failures))
    return failures


def _stream_text(chunks: Iterator[str]) -> str:
    """The reply as it streams, made safe as a whole each time (a directive or link can
    span chunks, so chunks are never escaped one by one); returns the raw text."""
    shown = st.empty()
    text = ""
    for chunk in chunks:
        text += chunk
        if text.strip():
            shown.markdown(markdown_text(text))
    return text


def _text_of(
    handle: TurnHandle,
    vertical: Vertical,
    statuses: st.delta_generator.DeltaGenerator,
    pulse: st.delta_generator.DeltaGenerator,
    failures: list[StreamFailed],
) -> Iterator[str]:
    running: dict[str, StatusContainer] = {}
    after_tool = False
    for event in handle.events(heartbeat=HEARTBEAT_SECONDS):
        if isinstance(event, Heartbeat):
            # Touch the page so a click (Stop, a card) is noticed while nothing streams.
            pulse.caption("Working…")
        elif isinstance(event, TextDelta):
            # A text block after a tool call is a new paragraph, not a continuation.
            yield ("\n\n" + event.text) if after_tool else event.text
            after_tool = False
        elif isinstance(event, ToolStarted):
            running[event.tool_use_id] = statuses.status(
                vertical.loading_label(event.name), state="running"
            )
        elif isinstance(event, ToolFinished):
            after_tool = True
            box = running.pop(event.tool_use_id, None)
            if box is not None:
                box.update(
                    label=f"{vertical.loading_label(event.name)} done",
                    state="error" if event.is_error else "complete",
                )
        elif isinstance(event, StreamFailed):
            failures.append(event)
    for box in running.values():  # the turn ended before these tools answered
        box.update(state="error")
    pulse.empty()


def busy_input(vertical: Vertical) -> None:
    """The input while a reply streams: visibly busy, nothing typed can be lost."""
    st.chat_input(
        "Working on your last message… press Stop to end it.",
        key=f"input-{vertical.id}",
        disabled=True,
    )


def read_input(vertical: Vertical) -> ChatMessage | None:
    """The next message: a pressed card button's action, else what the person typed."""
    action = state.pop_action()
    if action is not None:
        return action_message(action)
    typed = st.chat_input(f"Ask {vertical.display_name}…", key=f"input-{vertical.id}")
    if not typed:
        return None
    try:
        check_typed(typed)
    except InputError as error:
        error.kept_text = typed  # the page keeps the words for "Send again"
        raise
    return typed_message(typed)


def show_user(message: ChatMessage) -> None:
    with st.chat_message("user"):
        st.markdown(markdown_text(visible_text(message)))
