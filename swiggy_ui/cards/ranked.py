"""Ranked cards: those that fit the request (a heading per thing asked for), then the
rest behind "Show N more that fit less", never silently dropped."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import TypeVar

import streamlit as st

from swiggy_core.parsers import ItemGroup
from swiggy_ui.cards.grid import card_grid
from swiggy_ui.safe_text import plain

Item = TypeVar("Item")


def ranked_grid(
    items: Sequence[Item],
    render: Callable[[Item, str], None],
    *,
    key: str,
    fitting: int | None = None,
    groups: Sequence[ItemGroup] = (),
    fit_less_why: Sequence[str] = (),
) -> None:
    """The first `fitting` items (all when None), grouped; then the rest on request."""
    shown = list(items if fitting is None else items[:fitting])
    start = 0
    for index, group in enumerate(groups):
        run = shown[start : start + group.size]
        start += len(run)
        if run:
            st.markdown(f"**{plain(group.label)}**")
            card_grid(run, render, key=f"{key}-g{index}")
    if start < len(shown) or not shown:
        card_grid(shown[start:], render, key=key)
    rest = list(items[len(shown) :])
    if rest:
        _fit_less(rest, render, key=key, why=fit_less_why)


def _fit_less(
    rest: list[Item], render: Callable[[Item, str], None], *, key: str, why: Sequence[str]
) -> None:
    opened = _opened_key(rest, key)
    if st.session_state.get(opened):
        if why:
            st.caption(f"These fit your request less: {plain(' · '.join(why))}")
        card_grid(rest, render, key=f"{key}-less")
        return
    count = len(rest)
    st.button(
        f"Show {count} more that fit{'s' if count == 1 else ''} less",
        key=f"{key}-less",
        icon=":material/expand_more:",
        type="tertiary",
        help=f"Set aside: {' · '.join(why)}" if why else None,
        on_click=_open,
        args=(opened,),
    )


def _opened_key(rest: list[Item], key: str) -> str:
    """Where an opened "fit less" is remembered: this card's place and these items, so
    the same place in another chat does not open with it."""
    names = "|".join(str(getattr(item, "name", item)) for item in rest)
    digest = hashlib.blake2s(names.encode(), digest_size=8).hexdigest()
    return f"fitless::{key}::{digest}"


def _open(opened: str) -> None:
    st.session_state[opened] = True
