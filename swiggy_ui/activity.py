"""Activity: this person's latest tool calls in this world, filtered, paged, as CSV.

Every tool call either engine makes is in the audit (arguments already redacted by the
store). The list is newest first; each line opens to show the call's arguments. The CSV
holds what the filters select, built only when the button is pressed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

import streamlit as st

from swiggy_core.constants import SWIGGY_TZ
from swiggy_core.export import local_day
from swiggy_core.store import StoreError
from swiggy_core.store.tool_audit import ToolCallEntry, tool_calls_csv
from swiggy_core.verticals import VERTICALS
from swiggy_ui import state
from swiggy_ui.banners import coded_error
from swiggy_ui.chat_import import render_chat_import
from swiggy_ui.runtime import Runtime, get_runtime
from swiggy_ui.safe_text import plain

# The newest this many calls are searched and exported; the page shows them PAGE_SIZE at a time.
LOADED: Final = 500
PAGE_SIZE: Final = 20
ALL: Final = ""
OUTCOMES: Final = ("ok", "error", "denied")
OUTCOME_MARKS: Final = {
    "ok": ":green[:material/check_circle:]",
    "error": ":red[:material/error:]",
    "denied": ":orange[:material/block:]",
}


@dataclass(frozen=True, slots=True)
class Filters:
    server: str | None = None
    tool: str | None = None
    outcome: str | None = None


def render_activity_page() -> None:
    """The Activity page (the page script calls only this)."""
    runtime = get_runtime()
    st.title("Activity")
    st.caption(
        "Every tool call made for you in this world, newest first: which server and tool, "
        "how it went, how long it took. Arguments are stored with secrets removed."
    )
    _tool_calls(runtime)
    st.divider()
    render_chat_import(runtime)


def _tool_calls(runtime: Runtime) -> None:
    try:
        everything = runtime.store.tool_calls(runtime.user_id, limit=LOADED)
    except StoreError as error:
        coded_error(error.message, error.code, icon=":material/database:")
        return
    if not everything:
        st.info(
            "No tool calls yet. Ask a shop something and they show here.", icon=":material/history:"
        )
        return
    filters = _filter_row(everything)
    entries = _selected(runtime, everything, filters)
    if entries is None:
        return
    _download(entries)
    _entries(entries)


def _filter_row(entries: Sequence[ToolCallEntry]) -> Filters:
    servers = sorted({entry.server for entry in entries})
    tools = sorted({entry.tool for entry in entries})
    server_col, tool_col, outcome_col = st.columns(3)
    return Filters(
        server=_choose(server_col, "All servers", servers, "act-server"),
        tool=_choose(tool_col, "All tools", tools, "act-tool"),
        outcome=_choose(outcome_col, "Any outcome", OUTCOMES, "act-outcome"),
    )


def _choose(column: Any, everything: str, options: Sequence[str], key: str) -> str | None:
    """One filter; its first choice (`everything`) is no filter at all."""
    chosen: str = column.selectbox(
        everything,
        (ALL, *options),
        key=key,
        format_func=lambda value: value or everything,
        label_visibility="collapsed",
        on_change=_first_page,
    )
    return chosen or None


def _selected(
    runtime: Runtime, everything: list[ToolCallEntry], filters: Filters
) -> list[ToolCallEntry] | None:
    if filters == Filters():
        return everything
    try:
        return runtime.store.tool_calls(
            runtime.user_id,
            limit=LOADED,
            server=filters.server,
            tool=filters.tool,
            outcome=filters.outcome,
        )
    except StoreError as error:
        coded_error(error.message, error.code, icon=":material/database:")
        return None


def _download(entries: list[ToolCallEntry]) -> None:
    noun = "call" if len(entries) == 1 else "calls"
    count, button = st.columns([3, 1], vertical_alignment="center")
    count.caption(f"{len(entries)} {noun}" + (" (the newest)" if len(entries) >= LOADED else ""))
    button.download_button(
        "Download CSV",
        data=_csv(entries),
        file_name=f"tool-calls-{datetime.now(UTC):%Y%m%d-%H%M}.csv",
        mime="text/csv",
        key="act-csv",
        icon=":material/download:",
        width="stretch",
        on_click="ignore",
    )


def _csv(entries: list[ToolCallEntry]) -> Callable[[], str]:
    # Runs on the download request, not on every page run.
    return lambda: tool_calls_csv(entries)


def _entries(entries: list[ToolCallEntry]) -> None:
    pages = max(1, -(-len(entries) // PAGE_SIZE))
    page = min(int(st.session_state.get(_page_key(), 0)), pages - 1)
    for entry in entries[page * PAGE_SIZE : (page + 1) * PAGE_SIZE]:
        _entry(entry)
    if pages > 1:
        _pager(page, pages)


def _entry(entry: ToolCallEntry) -> None:
    mark = OUTCOME_MARKS.get(entry.outcome, ":gray[:material/help:]")
    local = entry.at.astimezone(SWIGGY_TZ)
    code = f" · {entry.error_code}" if entry.error_code else ""
    label = (
        f"{mark} {local:%H:%M:%S} · {plain(_page_name(entry.vertical_id))} · "
        f"{plain(entry.server)} · **{plain(entry.tool)}** · {entry.duration_ms:,.0f} ms{code}"
    )
    with st.expander(label):
        st.caption(f"{local_day(entry.at)}, {local:%H:%M:%S %Z} · {entry.outcome}{code}")
        if entry.arguments:
            st.code(
                json.dumps(entry.arguments, ensure_ascii=False, indent=2),
                language="json",
                wrap_lines=True,
            )
        else:
            st.caption("No arguments.")


def _page_name(vertical_id: str) -> str:
    vertical = VERTICALS.get(vertical_id)
    return vertical.display_name if vertical is not None else vertical_id or "—"


def _pager(page: int, pages: int) -> None:
    newer, where, older = st.columns([1, 2, 1], vertical_alignment="center")
    newer.button("Newer", key="act-newer", icon=":material/chevron_left:", width="stretch",
                 disabled=page == 0, on_click=_turn, args=(page - 1,))  # fmt: skip
    where.caption(f"Page {page + 1} of {pages}")
    older.button("Older", key="act-older", icon=":material/chevron_right:", width="stretch",
                 disabled=page >= pages - 1, on_click=_turn, args=(page + 1,))  # fmt: skip


def _page_key() -> str:
    return f"activity_page::{state.backend()}"


def _turn(page: int) -> None:
    st.session_state[_page_key()] = max(0, page)


def _first_page() -> None:
    _turn(0)
