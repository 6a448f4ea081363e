"""Card grids: three cards a row on a desktop, two on a phone, and "Show more".

`st.columns` stacks below 640 px, which made one search four phone screens of single
cards. A grid is one wrapping horizontal container instead; the style below fixes each
card's share of the row: a third, or half on a narrow screen. A card never grows, so a
lone result keeps a normal card's width instead of stretching across the page.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import TypeVar

import streamlit as st

Item = TypeVar("Item")

# Two rows on a desktop, three on a phone: about one screen of cards before "Show more".
INITIAL_ITEMS = 6
MAX_COLUMNS = 3
GRID_KEY_PREFIX = "card-grid-"

# The gap is set here too, so the shares add up to the row whatever Streamlit's default.
_GRID_STYLE = f"""<style>
.stHorizontalBlock[class*="st-key-{GRID_KEY_PREFIX}"] {{
  --card-gap: 0.75rem;
  gap: var(--card-gap);
}}
.stHorizontalBlock[class*="st-key-{GRID_KEY_PREFIX}"] > div {{
  flex: 0 0 calc((100% - {MAX_COLUMNS - 1} * var(--card-gap)) / {MAX_COLUMNS});
  min-width: 0;
}}
@media (max-width: 639.98px) {{
  .stHorizontalBlock[class*="st-key-{GRID_KEY_PREFIX}"] > div {{
    flex-basis: calc((100% - var(--card-gap)) / 2);
  }}
}}
</style>"""


def card_grid(
    items: Sequence[Item],
    render: Callable[[Item, str], None],
    *,
    key: str,
    initial: int = INITIAL_ITEMS,
) -> None:
    """Render items as bordered cards; `render(item, item_key)` fills one card."""
    if not items:
        st.caption("Nothing to show.")
        return
    expanded_key = _expanded_key(items, key)
    visible = items if st.session_state.get(expanded_key) else items[:initial]
    st.html(_GRID_STYLE)  # style only: Streamlit keeps it out of the layout
    with st.container(key=f"{GRID_KEY_PREFIX}{key}", horizontal=True, wrap=True):
        for index, item in enumerate(visible):
            with st.container(border=True):
                render(item, f"{key}-{index}")
    hidden = len(items) - len(visible)
    if hidden > 0:
        st.button(
            f"Show {hidden} more",
            key=f"{key}-more",
            icon=":material/expand_more:",
            type="tertiary",
            on_click=_expand,
            args=(expanded_key,),
        )


def _expanded_key(items: Sequence[object], key: str) -> str:
    """Where "Show more" is remembered for this result.

    `key` is the card's place in its chat ("m3-1"), the same in every chat and shop;
    the items' digest keeps one chat's choice from opening another chat's result.
    """
    digest = hashlib.blake2s(repr(list(items)).encode(), digest_size=8).hexdigest()
    return f"more::{key}::{digest}"


def _expand(expanded_key: str) -> None:
    st.session_state[expanded_key] = True
