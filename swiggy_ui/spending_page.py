"""Spending: where the person's money went, from the ledger, against their limits.

Everything here is read from the app's own records of what the person confirmed (the
`spends` rows and the confirmations still running), in this world. Totals are integer
paise until they are written as money. "Today" is the India date of the clock the ledger
stamps spends with (the sandbox's in the sandbox), so today's bar matches the limit check.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta
from typing import Final

import altair as alt
import streamlit as st

from swiggy_core.approval.limits import SpendingLimits, load_limits, show_paise
from swiggy_core.formatting import day_label
from swiggy_core.spending_report import (
    KIND_LABELS,
    Period,
    SpendKind,
    SpendLine,
    counted_on,
    india_today,
    period_start,
    spend_lines,
    spends_csv,
    totals_by_period,
    totals_by_shop,
)
from swiggy_core.store import StoreError
from swiggy_core.verticals import VERTICALS
from swiggy_ui.banners import CONNECTIONS_PAGE, coded_error
from swiggy_ui.home import shop_page
from swiggy_ui.runtime import Runtime, get_runtime
from swiggy_ui.spending_charts import period_chart, shop_chart

# How far back the page reads: this month and the eleven before it.
MONTHS_SHOWN: Final = 12
DAYS_CHARTED: Final = 30
WEEKS_CHARTED: Final = 12
SHOP_NAMES: Final = {vertical.id: vertical.display_name for vertical in VERTICALS.values()}


def render_spending_page() -> None:
    """The Spending page (the page script calls only this)."""
    runtime = get_runtime()
    st.title("Spending")
    st.caption(
        "What you ordered and booked here, by day, week, month and shop, from the app's own "
        "record of what you confirmed, against your spending limits."
    )
    today = india_today(_now(runtime))
    try:
        records = runtime.store.spend_history(
            runtime.user_id, since_day=first_month_shown(today).isoformat()
        )
        limits = load_limits(runtime.store, runtime.user_id)
    except StoreError as error:
        coded_error(error.message, error.code, icon=":material/database:")
        return
    lines = spend_lines(records, SHOP_NAMES)
    if not lines:
        _empty()
        return
    _summary(lines, limits, today)
    _notes(lines)
    _charts(lines, limits, today)
    _table(lines)


def first_month_shown(today: date) -> date:
    """The first day of the oldest month the page reads."""
    month = today.year * 12 + today.month - 1 - (MONTHS_SHOWN - 1)
    return date(month // 12, month % 12 + 1, 1)


def _now(runtime: Runtime) -> datetime:
    sandbox = runtime.app.running_sandbox()
    return sandbox.clock() if sandbox is not None else datetime.now(UTC)


def _empty() -> None:
    st.info(
        "You have not ordered or booked anything here yet. Once you confirm an order or a "
        "booking, you can see here where your money went.",
        icon=":material/savings:",
    )
    columns = st.columns(len(VERTICALS))
    for column, vertical in zip(columns, VERTICALS.values(), strict=True):
        with column:
            st.page_link(shop_page(vertical), label=f"Shop at {vertical.display_name}")


def _summary(lines: Sequence[SpendLine], limits: SpendingLimits, today: date) -> None:
    def spent_since(start: date) -> int:
        return sum(
            line.amount_paise
            for line in lines
            if line.kind is SpendKind.SPENT and line.day is not None and line.day >= start
        )

    used_today = counted_on(lines, today)
    today_col, week_col, month_col = st.columns(3)
    # Today as the limit check counts it: what is unclear or still open counts too.
    today_label = "Today, against your daily limit" if limits.per_day is not None else "Today"
    today_col.metric(today_label, show_paise(used_today), border=True)
    week_col.metric(
        "Spent this week", show_paise(spent_since(period_start(today, Period.WEEK))), border=True
    )
    month_col.metric(
        "Spent this month", show_paise(spent_since(period_start(today, Period.MONTH))), border=True
    )
    st.caption(_limits_text(limits, used_today))


def _limits_text(limits: SpendingLimits, used_today: int) -> str:
    if not limits.any:
        return "You have set no spending limits. You can set them on the Connections page."
    parts = []
    if limits.per_day is not None:
        left = max(0, limits.per_day - used_today)
        parts.append(f"{show_paise(limits.per_day)} a day ({show_paise(left)} left today)")
    if limits.per_order is not None:
        parts.append(f"{show_paise(limits.per_order)} an order")
    return "Your limits: " + " · ".join(parts) + "."


def _notes(lines: Sequence[SpendLine]) -> None:
    unclear = sum(line.amount_paise for line in lines if line.kind is SpendKind.UNCLEAR)
    pending = sum(line.amount_paise for line in lines if line.kind is SpendKind.PENDING)
    if unclear:
        st.warning(
            f"{show_paise(unclear)} is unclear: the app could not tell whether it went "
            "through. Check your orders in the Swiggy app; until then it counts against "
            "your limits.",
            icon=":material/help:",
        )
    if pending:
        st.caption(
            f"{show_paise(pending)} is pending (not placed or not paid yet), so it is not "
            "counted as spent."
        )


def _charts(lines: Sequence[SpendLine], limits: SpendingLimits, today: date) -> None:
    days, weeks, months, shops = st.tabs(["By day", "By week", "By month", "By shop"])
    with days:
        st.caption(f"The last {DAYS_CHARTED} days; the dashed line is your daily limit.")
        since = today - timedelta(days=DAYS_CHARTED - 1)
        _draw(period_chart(totals_by_period(lines, Period.DAY, since), limits.per_day))
    with weeks:
        st.caption(f"The last {WEEKS_CHARTED} weeks, Monday to Sunday.")
        since = today - timedelta(weeks=WEEKS_CHARTED - 1)
        _draw(period_chart(totals_by_period(lines, Period.WEEK, since)))
    with months:
        st.caption(f"The last {MONTHS_SHOWN} months.")
        _draw(period_chart(totals_by_period(lines, Period.MONTH)))
    with shops:
        st.caption("This month, by shop.")
        _draw(shop_chart(totals_by_shop(_since(lines, period_start(today, Period.MONTH)))))


def _draw(chart: alt.Chart | alt.LayerChart | alt.FacetChart) -> None:
    st.altair_chart(chart, width="stretch")


def _since(lines: Sequence[SpendLine], start: date) -> list[SpendLine]:
    return [line for line in lines if line.day is not None and line.day >= start]


def _table(lines: Sequence[SpendLine]) -> None:
    newest = list(reversed(lines))
    st.subheader("Your spends")
    rows = [
        {
            "Day": day_label(line.day.isoformat()) if line.day else "—",
            "Amount": show_paise(line.amount_paise),
            "Status": KIND_LABELS.get(line.kind, str(line.kind)),
            "Shop": line.shop,
            "What": line.what,
        }
        for line in newest
    ]
    columns = {
        "Day": st.column_config.TextColumn(width=96),
        "Amount": st.column_config.TextColumn(width="small"),
        "Status": st.column_config.TextColumn(width="medium"),
        "Shop": st.column_config.TextColumn(width="small"),
        "What": st.column_config.TextColumn(width="large"),
    }
    st.dataframe(rows, hide_index=True, width="stretch", column_config=columns)
    st.download_button(
        "Download CSV",
        data=lambda: spends_csv(newest),
        file_name=f"spending-{datetime.now(UTC):%Y%m%d-%H%M}.csv",
        mime="text/csv",
        key="spending-csv",
        icon=":material/download:",
        on_click="ignore",
    )
    st.page_link(CONNECTIONS_PAGE, label="Change your spending limits", icon=":material/tune:")
