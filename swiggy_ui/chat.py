"""The chat of one vertical: history with cards, live streaming, errors that keep text."""

from __future__ import annotations

import streamlit as st
from streamlit.elements.lib.mutable_status_container import StatusContainer

from swiggy_core.actions import CardAction, action_message, typed_message, visible_text
from swiggy_core.approval import audit_events, pending_confirmation
from swiggy_core.engine import StreamFailed, TextDelta, ToolFinished, ToolStarted, TurnDone
from swiggy_core.models import (
    ChatMessage,
    McpToolResultBlock,
    McpToolUseBlock,
    TextBlock,
    ToolResultBlock,
    ToolUseBlock,
    TurnResult,
    result_text,
)
from swiggy_core.parsers import ParsedToolResult, parse_tool_result
from swiggy_core.turns import stream_turn
from swiggy_core.verticals import Vertical
from swiggy_ui import state
from swiggy_ui.cards import CardContext, render_result
from swiggy_ui.runtime import Runtime

ASSISTANT_AVATAR = ":material/shopping_basket:"


def render_history(chat: state.VerticalChat, vertical: Vertical) -> None:
    for index, message in enumerate(chat.messages):
        if message.role == "user":
            if isinstance(message.content, list) and _only_tool_results(message):
                continue  # local-engine tool results are shown with their tool call
            with st.chat_message("user"):
                st.markdown(visible_text(message))
        else:
            with st.chat_message("assistant", avatar=ASSISTANT_AVATAR):
                render_assistant(message, vertical, key=f"m{index}")


def _only_tool_results(message: ChatMessage) -> bool:
    return all(isinstance(block, ToolResultBlock) for block in message.blocks())


def render_assistant(message: ChatMessage, vertical: Vertical, *, key: str) -> None:
    """Text as markdown; each tool call as a collapsed details view plus its cards."""
    calls = {b.id: b for b in message.blocks() if isinstance(b, McpToolUseBlock | ToolUseBlock)}
    parsed_by_index = _parsed_results(message, vertical, calls)
    # Several cart snapshots in one reply (read, then update): only the last is current.
    cart_indexes = [i for i, parsed in parsed_by_index.items() if parsed.type == "cart"]
    for index, block in enumerate(message.blocks()):
        if isinstance(block, TextBlock) and block.text.strip():
            st.markdown(block.text)
        elif isinstance(block, McpToolResultBlock | ToolResultBlock):
            call = calls.get(block.tool_use_id)
            name = call.name if call else ""
            _tool_details(name, call.input if call else {}, result_text(block), block.is_error)
            parsed = parsed_by_index[index]
            if parsed.type == "cart" and index != cart_indexes[-1]:
                continue
            render_result(parsed, CardContext(key=f"{key}-{index}", vertical=vertical))
    usage = message.meta.get("usage")
    if usage:
        cached = usage.get("cache_read_input_tokens", 0)
        st.caption(
            f"{usage.get('input_tokens', 0)} in · {usage.get('output_tokens', 0)} out"
            + (f" · {cached} cached" if cached else "")
        )


def _parsed_results(
    message: ChatMessage, vertical: Vertical, calls: dict[str, McpToolUseBlock | ToolUseBlock]
) -> dict[int, ParsedToolResult]:
    parsed: dict[int, ParsedToolResult] = {}
    for index, block in enumerate(message.blocks()):
        if isinstance(block, McpToolResultBlock | ToolResultBlock):
            call = calls.get(block.tool_use_id)
            parsed[index] = parse_tool_result(
                call.name if call else "",
                result_text(block),
                vertical.id,
                call.input if call else None,
                is_error=block.is_error,
            )
    return parsed


def _tool_details(name: str, tool_input: dict, output: str, is_error: bool) -> None:
    icon = ":material/error:" if is_error else ":material/build:"
    with st.expander(name or "tool", expanded=False, icon=icon):
        st.caption("Input")
        st.json(tool_input, expanded=False)
        st.caption("Output")
        st.code(output[:4000], language="json", wrap_lines=True)


def render_confirm_bar(chat: state.VerticalChat, vertical: Vertical) -> None:
    """Offer the explicit yes/no when the assistant is waiting to spend money."""
    tool = pending_confirmation(chat.messages, vertical.id)
    if tool is None:
        return
    with st.container(border=True):
        st.markdown(_CONFIRM_TERMS.get(tool, _CONFIRM_TERMS["checkout"]))
        yes, no = st.columns(2)
        yes.button(
            "Confirm",
            key=f"confirm-{vertical.id}",
            type="primary",
            icon=":material/check:",
            on_click=state.queue_action,
            args=(
                CardAction(kind="confirm", label=f"Yes, confirm {_what(tool)}.", tool_name=tool),
            ),
        )
        no.button(
            "Cancel",
            key=f"cancel-{vertical.id}",
            on_click=state.queue_action,
            args=(CardAction(kind="cancel", label="No, don't do it.", tool_name=tool),),
        )


_CONFIRM_TERMS = {
    "checkout": "**Place this order?** Cash on delivery; orders cannot be cancelled.",
    "place_food_order": "**Place this order?** Cash on delivery; orders cannot be cancelled.",
    "book_table": "**Book this table?** The booking is free; check the time and guests.",
}


def _what(tool: str) -> str:
    return "the booking" if "book" in tool else "the order"


def send(
    runtime: Runtime, chat: state.VerticalChat, vertical: Vertical, message: ChatMessage
) -> None:
    """Append the person's message first (never lost), then stream the reply."""
    history = list(chat.messages)
    chat.messages.append(message)
    chat.error = None
    chat.failed_message = None
    with st.chat_message("user"):
        st.markdown(visible_text(message))
    with st.chat_message("assistant", avatar=ASSISTANT_AVATAR):
        result = _stream_reply(runtime, vertical, history, message)
    reply = result.as_message()
    reply.meta["usage"] = result.usage.model_dump()
    if reply.blocks():
        chat.messages.append(reply)
    state.add_usage(result.usage)
    if result.error is not None:
        chat.error = result.error
        chat.failed_message = message
    runtime.persist(chat)
    for action, detail in audit_events(message, result.blocks, vertical.id):
        runtime.store.record_audit(runtime.user_id, action, detail)


def _stream_reply(
    runtime: Runtime, vertical: Vertical, history: list[ChatMessage], message: ChatMessage
) -> TurnResult:
    statuses = st.container()
    events = stream_turn(runtime.client(), runtime.setup(vertical.id), history, message)
    done: list[TurnResult] = []
    running: dict[str, StatusContainer] = {}

    def text_only():
        after_tool = False
        for event in events:
            if isinstance(event, TextDelta):
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
                pass  # shown as a banner after the rerun
            elif isinstance(event, TurnDone):
                done.append(event.result)
                for box in running.values():  # the turn ended before these tools answered
                    box.update(state="error")

    with st.spinner(vertical.default_loading_label):
        st.write_stream(text_only())
    return done[0]


def read_input(vertical: Vertical) -> ChatMessage | None:
    """The next message: a pressed card button's action, else what the person typed."""
    action = state.pop_action()
    if action is not None:
        return action_message(action)
    typed = st.chat_input(f"Ask {vertical.display_name}…", key=f"input-{vertical.id}")
    if typed and typed.strip():
        return typed_message(typed)
    return None
