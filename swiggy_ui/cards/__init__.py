"""Cards: one renderer per card kind, dispatched by `render_result`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, Final, assert_never

from swiggy_core.parsers import CARD_KINDS, CardKind, ParsedToolResult
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

Renderer = Callable[[Any, CardContext], None]


def renderer_for(kind: CardKind) -> Renderer:
    """The renderer of one card kind; a kind with no case here fails mypy (`assert_never`)."""
    match kind:
        case "products":
            return render_products
        case "restaurants":
            return render_restaurants
        case "time_slots":
            return render_time_slots
        case "addresses":
            return render_addresses
        case "cart":
            return render_cart
        case "order_placed":
            return render_order_placed
        case "booking_confirmed":
            return render_booking_confirmed
        case "status":
            return render_status
        case "info":
            return render_info
        case "media":
            return render_media
        case "raw":
            return render_raw
        case _:
            assert_never(kind)


# Keyed by the canonical card kinds: a kind without a renderer fails here, at import.
RENDERERS: Final[Mapping[CardKind, Renderer]] = MappingProxyType(
    {kind: renderer_for(kind) for kind in CARD_KINDS}
)


def render_result(result: ParsedToolResult, ctx: CardContext) -> None:
    """Render one parsed tool result as its card (grid)."""
    RENDERERS[result.type](result, ctx)


__all__ = ["RENDERERS", "CardContext", "Renderer", "render_cart", "render_result", "renderer_for"]
