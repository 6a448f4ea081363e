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
# Axis labels as money (₹1,200); the exact amounts are in the tooltips and the table.
_RUPEE_AXIS: Final = alt.Axis(format=",.0f", labelExpr="'₹' + datum.label")


def period_chart(
    totals: Sequence[Total], daily_limit: int | None = None
) -> alt.LayerChart | alt.FacetChart:
    """Bars per day, week or month, oldest on the left; a dashed line at the daily limit."""
    layers: list[Any] = [_columns(totals, label_angle=-45)]
    if daily_limit is not None:
        layers.extend(_limit_rule(daily_limit))
    return alt.layer(*layers).properties(height=CHART_HEIGHT)


def shop_chart(totals: Sequence[Total]) -> alt.Chart:
    """One bar per shop, the largest on the left."""
    return _columns(totals, label_angle=0).properties(height=CHART_HEIGHT)


def _columns(totals: Sequence[Total], *, label_angle: int) -> alt.Chart:
    order = [total.label for total in totals]
    axis = alt.Axis(labelAngle=label_angle, labelLimit=90)
    return _bars(totals).encode(
        x=alt.X("label:N", sort=order, title=None, axis=axis),
        y=alt.Y("rupees:Q", title=None, stack=True, axis=_RUPEE_AXIS),
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


def _limit_rule(daily_limit: int) -> list[alt.Chart]:
    """A dashed line at the limit, named at its right end."""
    label = f"Your daily limit: {show_paise(daily_limit)}"
    values = [{"rupees": daily_limit / PAISE_PER_RUPEE, "label": label}]
    base = alt.Chart(alt.Data(values=values)).encode(y=alt.Y("rupees:Q", axis=_RUPEE_AXIS))
    rule = base.mark_rule(strokeDash=[6, 4], color=_LIMIT_COLOUR, size=2).encode(
        tooltip=[alt.Tooltip("label:N", title="Limit")]
    )
    text = base.mark_text(align="right", baseline="bottom", dy=-3, x="width", color=_LIMIT_COLOUR)
    return [rule, text.encode(text="label:N")]
