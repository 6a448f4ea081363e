"""Connections → Spending limits: per-order and per-day caps in rupees for this person."""

from __future__ import annotations

from datetime import UTC, datetime

import streamlit as st

from swiggy_core.approval.limits import SpendingLimits, budget_for, parse_limit, save_limits
from swiggy_core.errors import ErrorCode
from swiggy_core.store import StoreError
from swiggy_ui.banners import coded_error
from swiggy_ui.runtime import Runtime

_ORDER_LIMIT_FIELD = "form_limit_order"
_DAY_LIMIT_FIELD = "form_limit_day"


def render_limits(runtime: Runtime) -> None:
    """Per-order and per-day caps in rupees for this person in this world (empty = none)."""
    with st.container(border=True):
        st.subheader("Spending limits")
        st.caption(
            "The app refuses an order above these limits before you are asked to confirm, "
            "and checks again when you press Confirm. Leave a field empty for no limit."
        )
        try:
            budget = budget_for(runtime.store, runtime.user_id, datetime.now(UTC))
        except StoreError as error:
            coded_error(error.message, error.code, icon=":material/database:")
            return
        with st.form("spending-limits", border=False):
            order_col, day_col = st.columns(2)
            per_order = order_col.text_input(
                "Per order (₹)",
                value=_limit_text(budget.limits.per_order),
                placeholder="No limit",
                key=_ORDER_LIMIT_FIELD,
            )
            per_day = day_col.text_input(
                "Per day (₹)",
                value=_limit_text(budget.limits.per_day),
                placeholder="No limit",
                key=_DAY_LIMIT_FIELD,
            )
            saved = st.form_submit_button("Save limits", icon=":material/savings:")
        if saved:
            _save_limits(runtime, per_order, per_day)
        else:
            st.caption(f":material/savings: {budget.summary()}")


def _limit_text(amount: int | None) -> str:
    """A limit in paise as the rupees the person typed ("1500", "86.07")."""
    if amount is None:
        return ""
    whole, paise = divmod(amount, 100)
    return str(whole) if paise == 0 else f"{whole}.{paise:02d}"


def _save_limits(runtime: Runtime, per_order: str, per_day: str) -> None:
    try:
        limits = SpendingLimits(per_order=parse_limit(per_order), per_day=parse_limit(per_day))
    except ValueError:
        coded_error(
            "A limit is an amount in rupees, such as 1500; leave it empty for no limit. (The "
            "limits were not changed.)",
            ErrorCode.SETTING_INVALID,
            icon=":material/savings:",
        )
        return
    try:
        save_limits(runtime.store, runtime.user_id, limits)
        budget = budget_for(runtime.store, runtime.user_id, datetime.now(UTC))
    except StoreError as error:
        coded_error(error.message, error.code, icon=":material/database:")
        return
    st.success(f"Saved. {budget.summary()}", icon=":material/check:")
