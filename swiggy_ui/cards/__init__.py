"""Cards: one renderer per parsed result type, dispatched by `render_result`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from swiggy_core.parsers import ParsedToolResult
from swiggy_ui.cards.cart import render_cart
from swiggy_ui.cards.context import CardContext
from swiggy_ui.cards.media import render_media
from swiggy_ui.cards.outcomes import (
    render_addresses,
    render_booking_confirmed,
    render_info,
    render_order_placed,
    render_raw,
    render_status,
)
from swiggy_ui.cards.products import render_products
from swiggy_ui.cards.restaurants import render_restaurants
from swiggy_ui.cards.slots import render_time_slots

_RENDERERS: dict[str, Callable[[Any, CardContext], None]] = {
    "products": render_products,
    "restaurants": render_restaurants,
    "time_slots": render_time_slots,
    "addresses": render_addresses,
    "cart": render_cart,
    "order_placed": render_order_placed,
    "booking_confirmed": render_booking_confirmed,
    "status": render_status,
    "info": render_info,
    "media": render_media,
    "raw": render_raw,
}


def render_result(result: ParsedToolResult, ctx: CardContext) -> None:
    """Render one parsed tool result as its card (grid)."""
    _RENDERERS[result.type](result, ctx)


__all__ = ["CardContext", "render_cart", "render_result"]
