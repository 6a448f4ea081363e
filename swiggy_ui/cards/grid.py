"""Column grids that adapt to the number of items, with a "Show more" for long lists."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

import streamlit as st

Item = TypeVar("Item")

INITIAL_ITEMS = 6
MAX_COLUMNS = 3


def columns_for(count: int) -> int:
    """Always three columns, however few the items.

    A lone result sits in a normal-width column instead of stretching across the page;
    wider grids squeeze cards unreadably. Streamlit stacks the columns on a phone.
    """
    return MAX_COLUMNS


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
        # The border is on each card, not the column: a part-filled last row leaves its
        # spare columns blank instead of drawing empty frames.
        columns = st.columns(per_row)
        for offset, (column, item) in enumerate(zip(columns, row, strict=False)):
            with column, st.container(border=True):
                render(item, f"{key}-{start + offset}")
    hidden = len(items) - len(visible)
    if hidden > 0 and st.button(f"Show {hidden} more", key=f"{key}-more", type="tertiary"):
        st.session_state[expanded_key] = True
        st.rerun()
