"""A running turn as it streams: Stop, human status labels, the retry countdown, the text.

Every text from the model goes through `safe_text` as a whole each time (a directive or
link can span chunks).
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator

import streamlit as st
from streamlit.elements.lib.mutable_status_container import StatusContainer

from swiggy_core.engine import (
    RetryScheduled,
    StreamFailed,
    TextDelta,
    ToolFinished,
    ToolStarted,
)
from swiggy_core.turn.handle import HEARTBEAT_SECONDS, Heartbeat, TurnHandle
from swiggy_core.verticals import Vertical
from swiggy_ui import state
from swiggy_ui.chat_input import busy_input as busy_input
from swiggy_ui.safe_text import markdown_text, plain

ASSISTANT_AVATAR = ":material/shopping_basket:"
LATE_STOP_NOTE = "The reply had already finished when you pressed Stop: nothing was cut."
LATE_STOP_ICON = ":material/info:"
# The reply's text is redrawn this often at most while it streams (about 8 times a second).
REDRAW_SECONDS = 0.12


def watch(handle: TurnHandle, vertical: Vertical) -> list[StreamFailed]:
    """Render a running turn's events from its start until it ends; returns its failures."""
    failures: list[StreamFailed] = []
    with st.chat_message("assistant", avatar=ASSISTANT_AVATAR):
        st.button(
            "Stop",
            key=f"stop-{vertical.id}",
            icon=":material/stop_circle:",
            on_click=_press_stop,
            args=(handle,),
            help="End this reply now; what arrived is kept.",
        )
        statuses = st.container()
        pulse = st.empty()
        with st.spinner(vertical.default_loading_label):
            _stream_text(_text_of(handle, vertical, statuses, pulse, failures))
    return failures


def _press_stop(handle: TurnHandle) -> None:
    if not handle.press_stop():  # it ended between drawing Stop and the click
        note_late_stop()


def note_late_stop() -> None:
    """Say so on the next run when Stop came after the reply had come in whole."""
    state.queue_toast(LATE_STOP_NOTE, icon=LATE_STOP_ICON)


def tool_label(vertical: Vertical, name: str, tool_input: dict, *, details: bool) -> str:
    """A running tool in the words of the shop the person chose ("Searching StyleKit for
    sunscreen…"); the tool's own name only with details on."""
    label = vertical.loading_label(name)
    query = tool_input.get("query")
    if isinstance(query, str) and query.strip() and label.endswith("…"):
        label = f"{label.removesuffix('…')} for {plain(_shortened(query.strip()))}…"
    return f"{label} · {plain(name)}" if details else label


def _shortened(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _stream_text(chunks: Iterator[str]) -> str:
    """The reply as it streams, made safe as a whole each time (a directive or link can
    span chunks, so chunks are never escaped one by one); returns the raw text.

    Redrawn at most every `REDRAW_SECONDS`: each redraw sends the whole text so far and
    the browser lays it out again, so a redraw per chunk costs a phone more the longer
    the reply. An empty chunk is a tick (nothing new came): words waiting to be shown
    are drawn then, and the whole text always is at the end.
    """
    shown = st.empty()
    text = drawn = ""
    drawn_at = 0.0
    for chunk in chunks:
        text += chunk
        now = time.monotonic()
        if text != drawn and text.strip() and (not chunk or now - drawn_at >= REDRAW_SECONDS):
            shown.markdown(markdown_text(text))
            drawn, drawn_at = text, now
    if text != drawn and text.strip():
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
    labels: dict[str, str] = {}
    retry, retry_at = 0, 0.0  # the engine's wait before its next attempt, if any
    after_tool = False
    for event in handle.events(heartbeat=HEARTBEAT_SECONDS):
        if isinstance(event, Heartbeat):
            # Touch the page so a click (Stop, a card) is noticed while nothing streams.
            left = retry_at - time.monotonic()
            pulse.caption(_retry_text(left, retry) if left > 0 else "Working…")
            yield ""  # a tick: text held back by the redraw pace is drawn now
        elif isinstance(event, TextDelta):
            # A text block after a tool call is a new paragraph, not a continuation.
            yield ("\n\n" + event.text) if after_tool else event.text
            after_tool = False
        elif isinstance(event, ToolStarted):
            label = tool_label(vertical, event.name, event.input, details=state.show_details())
            running[event.tool_use_id] = statuses.status(label, state="running")
            labels[event.tool_use_id] = label
        elif isinstance(event, ToolFinished):
            after_tool = True
            box = running.pop(event.tool_use_id, None)
            if box is not None:
                done = labels.get(event.tool_use_id, "").removesuffix("…")
                box.update(
                    label=f"{done}: done",
                    state="error" if event.is_error else "complete",
                )
        elif isinstance(event, RetryScheduled):
            retry, retry_at = event.attempt, time.monotonic() + event.delay_seconds
            pulse.caption(_retry_text(event.delay_seconds, retry))
        elif isinstance(event, StreamFailed):
            failures.append(event)
    for box in running.values():  # the turn ended before these tools answered
        box.update(state="error")
    pulse.empty()


def _retry_text(seconds: float, retry: int) -> str:
    return (
        f":material/hourglass_top: Busy right now; trying again in {math.ceil(seconds)} s "
        f"(retry {retry})…"
    )


ELSEWHERE_PLACEHOLDER = "A reply is coming in another window…"
