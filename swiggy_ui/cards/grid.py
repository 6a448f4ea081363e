"""Column grids that adapt to the number of items, with a "Show more" for long lists."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

import streamlit as st

Item = TypeVar("Item")

INITIAL_ITEMS = 6
MAX_COLUMNS = 3


def columns_for(count: int) -> int:
    """One column per item up to three; wider grids squeeze cards unreadably."""
    return max(1, min(count, MAX_COLUMNS))


def card_grid(
    items: Sequence[Item],
    render: Callable[[Item, str], None],
    *,
    key: str,
    initial: int = INITIAL_ITEMS,
) -> None:
    """Render items in bordered columns; `render(item, item_key)` fills one card."""
    if not items:
        st.caption("Nothing to show.")
        return
    expanded_key = f"more::{key}"
    expanded = bool(st.session_state.get(expanded_key))
    visible = items if expanded else items[:initial]
    per_row = columns_for(len(visible))
    for start in range(0, len(visible), per_row):
        row = visible[start : start + per_row]
        for offset, (column, item) in enumerate(
            zip(st.columns(per_row, border=True), row, strict=False)
        ):
            with column:
                render(item, f"{key}-{start + offset}")
    hidden = len(items) - len(visible)
    if hidden > 0 and st.button(f"Show {hidden} more", key=f"{key}-more", type="tertiary"):
        st.session_state[expanded_key] = True
        st.rerun()
