"""Where the money went: a person's spends grouped by day, ISO week, month and shop, in
integer paise, and as CSV.

Days are the India dates the ledger stamps on each spend (`swiggy_core.store.spending`),
so a week starts on an India Monday and a month on an India 1st. Each spend is one of:

- spent: the order or booking went through ("done");
- unclear: it may have gone through ("unknown"): the ledger counts it against the limits
  until it is settled, and the person should check the Swiggy app;
- pending: anything else still open (a confirmation running, a payment not made yet):
  never spent, counted against the limits only when the ledger counts it;
- not placed (failed, refused and the like): never shown, never counted.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from enum import StrEnum
from typing import Any, Final

from swiggy_core.constants import PAISE_PER_RUPEE, SWIGGY_TZ
from swiggy_core.spreadsheet import spreadsheet_cell
from swiggy_core.store.spend_history import SpendRecord


class SpendKind(StrEnum):
    SPENT = "spent"
    UNCLEAR = "unclear"
    PENDING = "pending"
    NOT_PLACED = "not placed"


class Period(StrEnum):
    DAY = "day"
    WEEK = "week"
    MONTH = "month"


KIND_LABELS: Final = {
    SpendKind.SPENT: "Spent",
    SpendKind.UNCLEAR: "Unclear — check the Swiggy app",
    SpendKind.PENDING: "Pending",
}
# Outcomes (or approval statuses) of a spend that never happened.
NOT_PLACED_OUTCOMES: Final = frozenset({"failed", "refused", "declined", "expired", "superseded"})
CSV_COLUMNS: Final = ("Day", "Shop", "What", "Amount (₹)", "Status", "Counts against your limits")
_WHAT_ITEMS: Final = 3


@dataclass(frozen=True, slots=True)
class SpendLine:
    """One spend as the page and the CSV show it."""

    day: date | None
    shop: str
    what: str
    amount_paise: int
    kind: SpendKind
    counted: bool


@dataclass(frozen=True, slots=True)
class Total:
    """Paise of one day, week, month or shop, by kind; `counted`: against the limits."""

    label: str
    start: date | None
    spent: int = 0
    unclear: int = 0
    pending: int = 0
    counted: int = 0

    def by_kind(self) -> dict[SpendKind, int]:
        return {
            SpendKind.SPENT: self.spent,
            SpendKind.UNCLEAR: self.unclear,
            SpendKind.PENDING: self.pending,
        }


def kind_of(outcome: str) -> SpendKind:
    if outcome == "done":
        return SpendKind.SPENT
    if outcome == "unknown":
        return SpendKind.UNCLEAR
    if outcome in NOT_PLACED_OUTCOMES:
        return SpendKind.NOT_PLACED
    return SpendKind.PENDING


def india_today(now: datetime) -> date:
    """The India date of `now`: what "today", "this week" and "this month" mean here."""
    return now.astimezone(SWIGGY_TZ).date()


def spend_lines(records: Iterable[SpendRecord], shops: Mapping[str, str]) -> list[SpendLine]:
    """The spends that happened or may have (`shops`: vertical id → the shop's name)."""
    lines = [_line(record, shops) for record in records]
    return [line for line in lines if line.kind is not SpendKind.NOT_PLACED]


def _line(record: SpendRecord, shops: Mapping[str, str]) -> SpendLine:
    shop = shops.get(record.vertical_id or "", record.vertical_id or "Unknown shop")
    return SpendLine(
        day=_date(record.day),
        shop=shop,
        what=what_of(record.view) or shop,
        amount_paise=record.amount_paise,
        kind=kind_of(record.outcome),
        counted=record.counted,
    )


def what_of(view: Mapping[str, Any]) -> str:
    """What was bought, as the Confirm dialog showed it: the restaurant, then the items."""
    parts = [str(view["restaurant_name"])] if view.get("restaurant_name") else []
    lines = view.get("lines")
    names = (
        [_item(line) for line in lines if isinstance(line, dict)] if isinstance(lines, list) else []
    )
    names = [name for name in names if name]
    if names:
        more = f" and {len(names) - _WHAT_ITEMS} more" if len(names) > _WHAT_ITEMS else ""
        parts.append(", ".join(names[:_WHAT_ITEMS]) + more)
    return ": ".join(parts)


def _item(line: dict[str, Any]) -> str:
    name = str(line.get("name") or "").strip()
    quantity = line.get("quantity")
    return f"{quantity} × {name}" if name and isinstance(quantity, int) and quantity > 1 else name


def _date(day: str | None) -> date | None:
    try:
        return date.fromisoformat(day) if day else None
    except ValueError:
        return None


def period_start(day: date, period: Period) -> date:
    """The first India date of the day's week (Monday, ISO) or month."""
    if period is Period.WEEK:
        return day - timedelta(days=day.weekday())
    if period is Period.MONTH:
        return day.replace(day=1)
    return day


def period_label(start: date, period: Period) -> str:
    if period is Period.WEEK:
        return f"Week of {start.day} {start:%b}"
    if period is Period.MONTH:
        return f"{start:%b %Y}"
    return f"{start.day} {start:%b}"


def totals_by_period(
    lines: Iterable[SpendLine], period: Period, since: date | None = None
) -> list[Total]:
    """One total per day, week or month holding a spend (from `since`'s on), oldest
    first; spends that name no day are in none."""
    first = period_start(since, period) if since is not None else None
    groups: dict[date, list[SpendLine]] = {}
    for line in lines:
        start = period_start(line.day, period) if line.day is not None else None
        if start is not None and (first is None or start >= first):
            groups.setdefault(start, []).append(line)
    return [_total(period_label(start, period), start, groups[start]) for start in sorted(groups)]


def totals_by_shop(lines: Iterable[SpendLine]) -> list[Total]:
    """One total per shop, the largest first."""
    groups: dict[str, list[SpendLine]] = {}
    for line in lines:
        groups.setdefault(line.shop, []).append(line)
    totals = [_total(shop, None, group) for shop, group in groups.items()]
    return sorted(totals, key=lambda total: (-(total.spent + total.unclear), total.label))


def _total(label: str, start: date | None, lines: list[SpendLine]) -> Total:
    def of_kind(wanted: SpendKind) -> int:
        return sum(line.amount_paise for line in lines if line.kind is wanted)

    return Total(
        label=label,
        start=start,
        spent=of_kind(SpendKind.SPENT),
        unclear=of_kind(SpendKind.UNCLEAR),
        pending=of_kind(SpendKind.PENDING),
        counted=sum(line.amount_paise for line in lines if line.counted),
    )


def counted_on(lines: Iterable[SpendLine], day: date) -> int:
    """Paise of `day` the ledger counts against the daily limit."""
    return sum(line.amount_paise for line in lines if line.counted and line.day == day)


def rupee_text(amount_paise: int) -> str:
    """Paise as a plain number of rupees for a spreadsheet (1234.50), exact."""
    whole, paise = divmod(amount_paise, PAISE_PER_RUPEE)
    return f"{whole}.{paise:02d}"


def spends_csv(lines: Iterable[SpendLine]) -> str:
    """The spends as CSV (header first), safe to open in a spreadsheet."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for line in lines:
        row = (
            line.day.isoformat() if line.day else "",
            line.shop,
            line.what,
            rupee_text(line.amount_paise),
            KIND_LABELS.get(line.kind, str(line.kind)),
            "yes" if line.counted else "no",
        )
        writer.writerow([spreadsheet_cell(value) for value in row])
    return buffer.getvalue()
