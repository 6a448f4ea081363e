"""Small helpers for titled fact cards: readable statuses, amounts, item lists."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from swiggy_core.formatting import price_known, rupees
from swiggy_core.parsers._values import as_dict, as_list, money, pick, to_bool, to_int, to_str
from swiggy_core.parsers.plain_results import InfoResult

MAX_ENTRIES = 12
_MAX_ITEMS_LISTED = 8
_SEPARATOR = " · "


def status_words(value: Any) -> str | None:
    """`OUT_FOR_DELIVERY` → "Out for delivery"; other text as given."""
    text = to_str(value, 60)
    if text is None:
        return None
    if text.isupper() or "_" in text:
        return text.replace("_", " ").strip().capitalize()
    return text


def amount(value: Any, *, signed: bool = False) -> str | None:
    """A money value (number or "₹54.00") as ₹ text, or None when it is not a price."""
    number = money(value)
    if number is None or (number < 0 and not signed) or not price_known(abs(number)):
        return None
    return rupees(number, allow_negative=signed)


def yes_no(value: Any) -> str | None:
    """A flag as "yes" or "no"; None when the value is not a flag."""
    flag = to_bool(value)
    return None if flag is None else ("yes" if flag else "no")


def flagged_title(record: Mapping[str, Any], titles: Mapping[str, str]) -> str | None:
    """The title of the first flag in `titles` (in its order) that the record sets true."""
    return next((title for key, title in titles.items() if to_bool(record.get(key)) is True), None)


def joined(*parts: str | None) -> str:
    """The present parts joined with " · "."""
    return _SEPARATOR.join(part for part in parts if part)


def items_line(items: Any, price_keys: tuple[str, ...] = ()) -> str | None:
    """`2 × Milk ₹54, 1 × Curd (removed)` from a list of item dicts."""
    entries = [as_dict(item) for item in as_list(items)[:_MAX_ITEMS_LISTED]]
    parts = [_item_text(entry, price_keys) for entry in entries if entry]
    present = [part for part in parts if part]
    if not present:
        return None
    hidden = len(as_list(items)) - len(entries)
    return ", ".join(present) + (f" (+{hidden} more)" if hidden > 0 else "")


def _item_text(entry: dict[str, Any], price_keys: tuple[str, ...]) -> str | None:
    name = to_str(pick(entry, "name", "itemName", "item_name"), 80)
    if name is None:
        return None
    quantity = to_int(pick(entry, "quantity", "qty"))
    text = f"{quantity} × {name}" if quantity is not None else name
    if entry.get("removed") is True:
        return f"{text} (removed)"
    price = amount(pick(entry, *price_keys)) if price_keys else None
    return f"{text} {price}" if price else text


def info(title: str | None, fields: Mapping[str, str | None]) -> InfoResult | None:
    """A titled fact card of the fields that have a value (None when none has)."""
    present = {key: value for key, value in fields.items() if value}
    if not present and not title:
        return None
    return InfoResult(title=title, fields=present)
