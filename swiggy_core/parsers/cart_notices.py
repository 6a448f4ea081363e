"""What a cart answer says beside its lines: removed or capped items, warnings, payment methods."""

from __future__ import annotations

from typing import Any

from swiggy_core.parsers._values import as_dict, as_list, money, pick, to_int, to_str
from swiggy_core.parsers.checkout_results import BillLine

_MAX_NOTICES = 10
_NAME_KEYS = ("itemName", "name", "displayName", "item_name")
_WARNING_KEYS = ("cartWarning", "addressWarning", "warning")
_NOTICE_KEYS = frozenset(
    {"removedOutOfStockItems", "unserviceableItems", "reducedQuantityItems", *_WARNING_KEYS}
)


def notices(node: dict[str, Any], outer: dict[str, Any]) -> list[str]:
    """Lines the person must know: dropped, capped or unserviceable items, warnings."""
    found: list[str | None] = []
    for holder in _holders(node, outer):
        if holder.keys().isdisjoint(_NOTICE_KEYS):
            continue
        found += _removed(holder.get("removedOutOfStockItems"), "Removed (out of stock)")
        found += _removed(holder.get("unserviceableItems"), "Not deliverable here")
        found += [_capped(as_dict(e) or {}) for e in as_list(holder.get("reducedQuantityItems"))]
        found += [_warning(holder.get(key)) for key in _WARNING_KEYS]
    unique = list(dict.fromkeys(text for text in found if text))
    return unique[:_MAX_NOTICES]


def payment_methods(node: dict[str, Any], outer: dict[str, Any]) -> list[str]:
    """`availablePaymentMethods` of the cart answer (e.g. ["Cash", "UPI"])."""
    for holder in _holders(node, outer):
        methods = [to_str(m, 40) for m in as_list(holder.get("availablePaymentMethods"))[:10]]
        present = [m for m in methods if m]
        if present:
            return present
    return []


def coupon_line(node: dict[str, Any]) -> list[BillLine]:
    """The food cart's applied coupon as a discount line when its pricing omits it."""
    offers = as_dict(node.get("offers")) or {}
    pricing = as_dict(node.get("pricing")) or {}
    discount = money(offers.get("coupon_discount"))
    code = to_str(offers.get("coupon_applied"), 40)
    if not code or not discount or "coupon_discount" in pricing:
        return []
    return [BillLine(label=f"Coupon {code}", amount=-abs(discount), kind="discount")]


def _holders(node: dict[str, Any], outer: dict[str, Any]) -> list[dict[str, Any]]:
    return [node] if node is outer else [node, outer]


def _removed(entries: Any, what: str) -> list[str]:
    names = [to_str(pick(as_dict(e) or {}, *_NAME_KEYS), 80) for e in as_list(entries)[:10]]
    present = [name for name in names if name]
    return [f"{what}: {', '.join(present)}"] if present else []


def _capped(entry: dict[str, Any]) -> str | None:
    name = to_str(pick(entry, *_NAME_KEYS), 80)
    capped = to_int(entry.get("cappedQuantity"))
    if name is None or capped is None:
        return None
    asked = to_int(entry.get("requestedQuantity"))
    reason = to_str(entry.get("reason"), 120)
    text = f"{name}: {capped} in the cart" + (f", not {asked}" if asked is not None else "")
    return f"{text} ({reason})" if reason else text


def _warning(value: Any) -> str | None:
    if isinstance(value, dict):
        return to_str(pick(value, "message", "statusMessage", "title"), 200)
    return to_str(value, 200)
