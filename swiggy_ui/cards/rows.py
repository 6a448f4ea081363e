"""A label and its amount on one line at every width (columns stack on phones)."""

from __future__ import annotations

import streamlit as st

from swiggy_core.formatting import rupees
from swiggy_core.parsers import BillLine
from swiggy_ui.safe_text import plain

_MAY_BE_NEGATIVE = frozenset({"discount", "fee", "other"})


def amount_row(label: str, amount: str, *, strong: bool = False, quiet: bool = False) -> None:
    """`label …… amount`, kept side by side even at 390 px.

    Both are Markdown as given: callers pass tool-derived words through `safe_text.plain`.
    """
    with st.container(horizontal=True, horizontal_alignment="distribute", wrap=False):
        if strong:
            st.markdown(f"**{label}**", width="content")
            st.markdown(f"**{amount}**", width="content")
        elif quiet:
            st.caption(label, width="content")
            st.caption(amount, width="content")
        else:
            st.markdown(label, width="content")
            st.markdown(amount, width="content")


def bill_rows(bill: list[BillLine], to_pay: float | None) -> None:
    """The server's bill as reported, then the amount to pay.

    A discount, waiver or adjustment may be negative (-₹40); a negative total, item total
    or tax, or any absurd amount, reads "price unknown" (see `rupees`).
    """
    for line in bill:
        amount = rupees(line.amount, allow_negative=line.kind in _MAY_BE_NEGATIVE)
        amount_row(plain(line.label), amount, quiet=True)
    if to_pay is not None:
        amount_row("To pay", rupees(to_pay), strong=True)
