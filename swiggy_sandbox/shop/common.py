"""Small rules shared by the Instamart and Food shops: cash on delivery, money, quantities."""

from __future__ import annotations

from typing import Any

from swiggy_sandbox.shop.errors import ShopError

PAYMENT_METHOD = "COD"
_COD_SPELLINGS = frozenset(
    {"", "cod", "cash", "cash on delivery", "cash_on_delivery", "cashondelivery"}
)
PAGE_SIZE = 10


def require_cod(payment_method: str | None) -> str:
    """Accept only cash on delivery (the real MCP servers place COD orders only)."""
    if (payment_method or "").strip().lower() not in _COD_SPELLINGS:
        raise ShopError(
            f"Invalid paymentMethod '{payment_method}': only cash on delivery (COD) is supported."
        )
    return PAYMENT_METHOD


def require_quantity(quantity: int, what: str, maximum: int) -> None:
    """Reject negative or excessive quantities with a helpful message."""
    if quantity < 0:
        raise ShopError(f"Invalid quantity {quantity} for {what}: use 0 to remove an item.")
    if quantity > maximum:
        raise ShopError(f"Invalid quantity {quantity} for {what}: at most {maximum} allowed.")


def require_offset(offset: int) -> None:
    """Pagination offsets start at 0."""
    if offset < 0:
        raise ShopError(f"Invalid offset {offset}: use 0 or the nextOffset of a previous page.")


def money(value: float) -> float:
    """Round rupees to paise precision (int when whole, for tidy JSON)."""
    rounded = round(value, 2)
    return int(rounded) if rounded == int(rounded) else rounded


def amount_text(value: float) -> str:
    """Rupees as Swiggy's bills and payment options write them: "₹54.00", "-₹20.00"."""
    sign = "-" if value < 0 else ""
    return f"{sign}₹{abs(value):,.2f}".replace(",", "")


def bill_line(label: str, value: float, **extra: Any) -> dict[str, Any]:
    """One `billBreakdown.lineItems` entry (rupees)."""
    return {"label": label, "value": money(value), **extra}


def page(items: list[Any], offset: int, size: int = PAGE_SIZE) -> tuple[list[Any], int | None]:
    """A page of items and the next offset (None on the last page)."""
    chunk = items[offset : offset + size]
    return chunk, (offset + size if offset + size < len(items) else None)
