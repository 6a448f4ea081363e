"""The Spending page's charts: stacked bars of spent, unclear and pending money (Altair).

Bars are drawn in rupees (paise / 100, for the axis only); every label and tooltip is
the exact amount as the app writes money. Legends sit below the bars and labels are
slanted, so a phone's narrow column keeps the bars readable.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import altair as alt

from swiggy_core.approval.limits import show_paise
from swiggy_core.constants import PAISE_PER_RUPEE
from swiggy_core.spending_report import KIND_LABELS, SpendKind, Total

_COLOURS: Final = {
    SpendKind.SPENT: "#fc8019",  # Swiggy orange
    SpendKind.UNCLEAR: "#e03e3e",
    SpendKind.PENDING: "#9aa0a6",
}
_LIMIT_COLOUR: Final = "#5b5b5b"
CHART_HEIGHT: Final = 280


def period_chart(
    totals: Sequence[Total], daily_limit: int | None = None
) -> alt.LayerChart | alt.FacetChart:
    """Bars per day, week or month, oldest on the left; a dashed line at the daily limit."""
    order = [total.label for total in totals]
    bars = _bars(totals).encode(
        x=alt.X("label:N", sort=order, title=None, axis=alt.Axis(labelAngle=-45, labelLimit=90)),
        y=alt.Y("rupees:Q", title="₹", stack=True),
    )
    layers: list[Any] = [bars]
    if daily_limit is not None:
        layers.append(_limit_rule(daily_limit))
    return alt.layer(*layers).properties(height=CHART_HEIGHT)


def shop_chart(totals: Sequence[Total]) -> alt.Chart:
    """One horizontal bar per shop, the largest at the top."""
    order = [total.label for total in totals]
    return (
        _bars(totals)
        .encode(
            y=alt.Y("label:N", sort=order, title=None, axis=alt.Axis(labelLimit=120)),
            x=alt.X("rupees:Q", title="₹", stack=True),
        )
        .properties(height=max(120, 48 * len(totals)))
    )


def _bars(totals: Sequence[Total]) -> alt.Chart:
    rows = [
        {
            "label": total.label,
            "status": KIND_LABELS[kind],
            "rupees": paise / PAISE_PER_RUPEE,
            "amount": show_paise(paise),
        }
        for total in totals
        for kind, paise in total.by_kind().items()
        if paise
    ]
    kinds = list(_COLOURS)
    colour = alt.Color(
        "status:N",
        title=None,
        scale=alt.Scale(
            domain=[KIND_LABELS[kind] for kind in kinds], range=[_COLOURS[kind] for kind in kinds]
        ),
        legend=alt.Legend(orient="bottom", direction="vertical", labelLimit=260),
    )
    tooltip = [
        alt.Tooltip("label:N", title="When"),
        alt.Tooltip("status:N", title="Status"),
        alt.Tooltip("amount:N", title="Amount"),
    ]
    return alt.Chart(alt.Data(values=rows)).mark_bar().encode(color=colour, tooltip=tooltip)


def _limit_rule(daily_limit: int) -> alt.Chart:
    label = f"Your daily limit: {show_paise(daily_limit)}"
    values = [{"rupees": daily_limit / PAISE_PER_RUPEE, "label": label}]
    return (
        alt.Chart(alt.Data(values=values))
        .mark_rule(strokeDash=[6, 4], color=_LIMIT_COLOUR, size=2)
        .encode(y="rupees:Q", tooltip=[alt.Tooltip("label:N", title="Limit")])
    )
