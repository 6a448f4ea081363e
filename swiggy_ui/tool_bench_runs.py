"""The tool bench's runs this session: each with its card, raw result, time and copies.

Newest first; each run can be run again or put back in the form. A card is drawn as a chat
draws it, but read-only: the bench changes nothing you did not ask it to.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

import streamlit as st

from swiggy_core.mcp.tool_bench import BenchRun
from swiggy_core.parsers import parse_tool_result
from swiggy_core.verticals import Vertical
from swiggy_ui import state
from swiggy_ui.banners import support_code
from swiggy_ui.cards import CardContext, render_result
from swiggy_ui.safe_text import inline_code, plain

MAX_RUNS: Final = 20  # the session keeps this many runs; older ones drop off


@dataclass(frozen=True, slots=True)
class ShownRun:
    """One run as the history shows it: its number, the run, the tool's listing, the
    copies (made when it ran; neither ever holds a credential), the shop whose cards fit."""

    number: int
    run: BenchRun
    listing: Mapping[str, Any]
    curl: str | None
    body: str
    vertical: Vertical


def runs() -> list[ShownRun]:
    """This session's runs in this world, oldest first."""
    key = f"tool_bench_runs::{state.backend()}"
    if key not in st.session_state:
        st.session_state[key] = []
    kept: list[ShownRun] = st.session_state[key]
    return kept


def remember(shown: ShownRun) -> None:
    kept = runs()
    kept.append(shown)
    del kept[:-MAX_RUNS]


def next_number() -> int:
    kept = runs()
    return kept[-1].number + 1 if kept else 1


def render_history(
    *, image_origin: str | None, again: Callable[[ShownRun], None], edit: Callable[[ShownRun], None]
) -> None:
    """Every run of this session, newest first (the newest open)."""
    kept = runs()
    if not kept:
        st.caption("Your runs show here, newest first.")
        return
    st.subheader("Your runs this session")
    for index, shown in enumerate(reversed(kept)):
        with st.expander(_title(shown), expanded=index == 0):
            _run_body(shown, image_origin)
            again_col, edit_col = st.columns(2)
            again_col.button("Run again", key=f"bench-again-{shown.number}", width="stretch",
                             icon=":material/replay:", on_click=again, args=(shown,))  # fmt: skip
            edit_col.button("Put in the form", key=f"bench-edit-{shown.number}", width="stretch",
                            icon=":material/edit:", on_click=edit, args=(shown,))  # fmt: skip


def _title(shown: ShownRun) -> str:
    run = shown.run
    mark = "✓" if run.ok else "✗"
    return f"{mark} #{shown.number} · {run.server} · {run.tool} · {_duration(run)}"


def _duration(run: BenchRun) -> str:
    if run.output is None and run.duration_ms == 0:
        return "not run"
    return f"{run.duration_ms:,.0f} ms"


def _run_body(shown: ShownRun, image_origin: str | None) -> None:
    run = shown.run
    sent = inline_code(_compact(run.arguments))
    st.caption(f"{run.at:%H:%M:%S} UTC · {_duration(run)} · arguments {sent}")
    if run.output is None:
        st.error(plain(run.error or "This call did not run."), icon=":material/block:")
        support_code(run.error_code)
        return
    if not run.ok:
        st.warning(
            plain(run.error or "The server answered with an error."), icon=":material/error:"
        )
        support_code(run.error_code)
    card, raw, copy = st.tabs(["Card", "Raw result", "Copy"])
    with card:
        _card(shown, image_origin)
    with raw:
        _raw(run)
    with copy:
        _copies(shown)


def _card(shown: ShownRun, image_origin: str | None) -> None:
    output = shown.run.output
    assert output is not None
    parts = output.parts()
    parsed = parse_tool_result(shown.run.tool, parts, shown.vertical.id, dict(shown.run.arguments),
                               is_error=output.is_error)  # fmt: skip
    st.caption("As a chat shows it; its buttons work only in a chat.")
    context = CardContext(key=f"bench-card-{shown.number}", vertical=shown.vertical,
                          image_origin=image_origin, live=False, parts=parts)  # fmt: skip
    render_result(parsed, context)


def _raw(run: BenchRun) -> None:
    """structuredContent (when the result had it), then the text (as JSON when it is)."""
    output = run.output
    assert output is not None
    if output.structured is not None:
        st.json(output.structured, expanded=2)
    document = _as_json(output.text)
    if document is not None and document != output.structured:
        st.json(document, expanded=2)
    elif document is None and output.text:
        st.code(output.text, language=None, wrap_lines=True)
    if output.media:
        st.caption(f"{len(output.media)} image or file part(s), shown on the card.")


def _copies(shown: ShownRun) -> None:
    if shown.curl is not None:
        st.markdown("**curl**")
        st.code(shown.curl, language="bash", wrap_lines=True)
    else:
        st.caption("This server is not reached over HTTP: send the request body on its transport.")
    st.markdown("**JSON-RPC request body**")
    st.code(shown.body, language="json", wrap_lines=True)


def _as_json(text: str) -> Any | None:
    if not text.lstrip().startswith(("{", "[")):
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def _compact(arguments: Mapping[str, Any]) -> str:
    text = json.dumps(dict(arguments), ensure_ascii=False)
    return text if len(text) <= 160 else text[:159] + "…"
