"""The server's bill breakdown, kept exactly as reported (never recomputed)."""

from __future__ import annotations

import re
from typing import Any

from swiggy_core.parsers._values import as_dict, as_list, money, pick, to_str
from swiggy_core.parsers.checkout_results import BillKind, BillLine

BILL_KEYS = (
    "billBreakdown",
    "bill_breakdown",
    "billDetails",
    "bill_details",
    "bill",
    "pricing",
    "priceDetails",
    "price_details",
    "charges",
    "lineItems",
    "line_items",
)
TO_PAY_KEYS = (
    "toPay",
    "to_pay",
    "amountToPay",
    "amount_to_pay",
    "netPayable",
    "net_payable",
    "grandTotal",
    "grand_total",
    "totalPayable",
    "billTotal",
    "bill_total",
    "totalAmount",
    "total_amount",
    "finalAmount",
)
_NESTED_LINE_KEYS = ("lineItems", "line_items", "items", "breakdown", "charges", "lines")
_LABEL_KEYS = ("label", "name", "title", "key", "type", "description")
_AMOUNT_KEYS = ("value", "amount", "price", "total", "finalValue")
_MAX_BILL_LINES = 30
_LIST_OR_BOOL = (list, bool)
_TOTAL_WORDS = ("to pay", "topay", "grand total", "payable", "bill total", "total amount", "final")
# `delivery_charge_strikeoff` is the fee before a waiver: shown struck, never charged.
_NOT_MONEY_WORDS = frozenset(
    {"id", "count", "quantity", "qty", "currency", "percent", "percentage", "strikeoff"}
)
_ITEM_TOTAL_WORDS = (
    "item total",
    "items total",
    "itemtotal",
    "subtotal",
    "sub total",
    "cart total",
)
_DISCOUNT_WORDS = ("discount", "coupon", "saving", "offer")
_TAX_WORDS = ("tax", "gst")
_FEE_WORDS = ("fee", "charge", "delivery", "handling", "packaging", "platform", "surge", "tip")


def parse_bill(source: Any) -> list[BillLine]:
    """Bill lines from a list of `{label, value}` dicts or a `{deliveryFee: 25, ...}` dict."""
    found: list[BillLine | None]
    if isinstance(source, list):
        found = [_line_from_dict(as_dict(entry) or {}) for entry in source[:_MAX_BILL_LINES]]
    elif isinstance(source, dict):
        nested: list[Any] = next(
            (source[k] for k in _NESTED_LINE_KEYS if looks_like_bill_list(source.get(k))), []
        )
        if nested:
            # The server's own line list is the breakdown; sibling keys (`itemTotal`,
            # `taxes`, `savings`) restate or annotate it.
            return parse_bill(nested)
        pairs = list(source.items())[: _MAX_BILL_LINES * 2]
        found = [_line_from_pair(key, value) for key, value in pairs]
    else:
        return []
    return _unique([line for line in found if line is not None])[:_MAX_BILL_LINES]


def _unique(lines: list[BillLine]) -> list[BillLine]:
    """A total given both as a line and as a key (`toPay`) is shown once."""
    seen: set[tuple[str, float]] = set()
    unique = []
    for line in lines:
        key = (line.label.lower(), line.amount)
        if key not in seen:
            seen.add(key)
            unique.append(line)
    return unique


def find_to_pay(node: dict[str, Any], bill_source: Any, bill: list[BillLine]) -> float | None:
    """The amount to pay as the server reported it, or None when it reported none."""
    for holder in (as_dict(bill_source) or {}, node):
        amount = money(pick(holder, *TO_PAY_KEYS))
        if amount is not None:
            return amount
    totals = [line.amount for line in bill if line.kind == "total"]
    return totals[-1] if totals else None


def looks_like_bill_list(value: Any) -> bool:
    """A list of label/amount dicts without quantities (bill lines, not cart items)."""
    entries = [e for e in as_list(value)[:5] if isinstance(e, dict)]
    if not entries:
        return False
    return all(
        "quantity" not in e
        and pick(e, *_LABEL_KEYS) is not None
        and pick(e, *_AMOUNT_KEYS) is not None
        for e in entries
    )


def _line_from_dict(entry: dict[str, Any]) -> BillLine | None:
    label = to_str(pick(entry, *_LABEL_KEYS), 80)
    amount = money(pick(entry, *_AMOUNT_KEYS))
    if label is None or amount is None:
        return None
    return BillLine(label=label, amount=amount, kind=_kind(label))


def _line_from_pair(key: Any, value: Any) -> BillLine | None:
    if isinstance(value, dict):
        entry = {"label": _humanize(str(key)), **value}
        return _line_from_dict(entry)
    if isinstance(value, _LIST_OR_BOOL) or value is None:
        return None
    if not isinstance(key, str) or _not_money_key(key):
        return None
    amount = money(value)
    if amount is None:
        return None
    label = _humanize(key)
    return BillLine(label=label, amount=amount, kind=_kind(label))


def _not_money_key(key: str) -> bool:
    """Counts, ids and currency codes sit next to amounts in bill dicts (`itemCount`)."""
    return bool(set(_humanize(key).lower().split()) & _NOT_MONEY_WORDS)


def _humanize(key: str) -> str:
    """`deliveryFee` / `delivery_fee` → "Delivery fee"."""
    spaced = "".join(f" {ch}" if ch.isupper() else ch for ch in key[:60]).replace("_", " ")
    words = spaced.split()
    return " ".join(words).capitalize() if words else key[:60]


def _words(words: tuple[str, ...]) -> re.Pattern[str]:
    """One scan for any of `words` (plain alternatives, no nesting: linear)."""
    return re.compile("|".join(map(re.escape, words)))


_KIND_PATTERNS: tuple[tuple[BillKind, re.Pattern[str]], ...] = (
    ("item_total", _words(_ITEM_TOTAL_WORDS)),
    ("discount", _words(_DISCOUNT_WORDS)),
    ("tax", _words(_TAX_WORDS)),
    ("fee", _words(_FEE_WORDS)),
)
_TOTAL_RE = _words(_TOTAL_WORDS)


def _kind(label: str) -> BillKind:
    lowered = label.lower()
    if _TOTAL_RE.search(lowered) or lowered.strip() == "total":
        return "total"
    for kind, pattern in _KIND_PATTERNS:
        if pattern.search(lowered):
            return kind
    return "other"
