"""`parse_tool_result`: unwrap, route on name then on meaning, parse, never raise."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from swiggy_core.parsers._values import CONTAINER_TYPES, compact
from swiggy_core.parsers.addresses import parse_addresses
from swiggy_core.parsers.cart import parse_cart
from swiggy_core.parsers.checkout_results import CartResult
from swiggy_core.parsers.confirmations import parse_confirmation
from swiggy_core.parsers.fallbacks import failure_status, raw_result, status_or_info, text_result
from swiggy_core.parsers.long_search import read_long_search
from swiggy_core.parsers.media import media_parts, text_content, with_media
from swiggy_core.parsers.orders_info import read_order_record
from swiggy_core.parsers.payments_info import read_payment_record
from swiggy_core.parsers.plain_results import StatusResult
from swiggy_core.parsers.products import parse_products
from swiggy_core.parsers.restaurants import parse_restaurants
from swiggy_core.parsers.results import ParsedToolResult
from swiggy_core.parsers.routing import (
    PayloadSignals,
    Route,
    food_search_signals,
    is_menu_tool,
    is_order_record_tool,
    prefer_products_for_food,
    route_for,
    scan_signals,
)
from swiggy_core.parsers.slots import parse_slots
from swiggy_core.parsers.summary_cards import summary_result
from swiggy_core.parsers.unwrap import (
    NOT_JSON,
    read_envelope,
    structured_envelope,
    unwrap_content,
)
from swiggy_core.verticals.catalog import search_lists_of

logger = logging.getLogger(__name__)
_MIN_SHAPE_SLOTS = 2
_Parser = Callable[[], ParsedToolResult | None]


def parse_tool_result(
    tool_name: str,
    content: Any,
    vertical_id: str,
    tool_input: dict[str, Any] | None = None,
    *,
    is_error: bool = False,
) -> ParsedToolResult:
    """Turn one tool result into a typed card model; never raises."""
    name = tool_name if isinstance(tool_name, str) else ""
    tool_input = tool_input if isinstance(tool_input, dict) else None
    try:
        found = media_parts(content)
        if found:  # the text alone is parsed; the media give way only to a richer card
            texts = text_content(content)
            parsed = _parse(name, texts, vertical_id, tool_input, is_error) if texts else None
            result = with_media(parsed, found)
        else:
            result = _parse(name, content, vertical_id, tool_input, is_error)
    except Exception:  # a parser bug must degrade to text, never break the chat
        logger.exception("parser failed for tool %r", name[:80])
        result = raw_result(_safe_text(content))
    result.tool_name = name[:120]
    return result


def _parse(
    name: str, content: Any, vertical: str, tool_input: dict[str, Any] | None, is_error: bool
) -> ParsedToolResult:
    # Reading order: structuredContent, then JSON in the text, then the text as a summary.
    unwrapped = read_long_search(name, content, vertical) or unwrap_content(content)
    if is_error or unwrapped.is_error:
        return failure_status(unwrapped)
    if unwrapped.value is NOT_JSON:
        return summary_result(name, unwrapped.text, vertical, tool_input) or text_result(
            unwrapped.text
        )
    if unwrapped.structured:
        envelope = structured_envelope(unwrapped.value)
    else:
        envelope = read_envelope(unwrapped.value)
    if envelope.ok is False:
        message = envelope.error or envelope.message or "The request failed."
        return StatusResult(success=False, message=message)
    payload = envelope.data
    route = route_for(name)
    if route is Route.CONFIRM:
        return parse_confirmation(name, envelope, payload)
    result = (
        read_order_record(name, payload)
        or read_payment_record(name, payload)
        or _by_route(route, name, payload, vertical, tool_input)
        or _by_shape(name, payload, vertical, tool_input)
    )
    if isinstance(result, CartResult) and result.message is None:
        result.message = envelope.message
    return result or status_or_info(envelope, payload, unwrapped.text)


def _by_route(
    route: Route, name: str, payload: Any, vertical: str, tool_input: dict[str, Any] | None
) -> ParsedToolResult | None:
    if payload is None:
        return None
    if route is Route.SEARCH:
        # Menu tools already say "dishes": the payload scan only settles the other names.
        needs_scan = search_lists_of(vertical) == "dishes" and not is_menu_tool(name)
        signals = food_search_signals(name, payload) if needs_scan else PayloadSignals()
        return _first(_search_order(name, payload, vertical, tool_input, signals))
    if route is Route.CART:
        return parse_cart(payload)
    if route is Route.SLOTS:
        return parse_slots(payload, tool_input)
    if route is Route.ADDRESS:
        return parse_addresses(payload)
    return None


def _by_shape(
    name: str, payload: Any, vertical: str, tool_input: dict[str, Any] | None
) -> ParsedToolResult | None:
    if not isinstance(payload, CONTAINER_TYPES) or not payload or is_order_record_tool(name):
        # Past orders and bookings hold items, bills and slots, yet they are records to
        # read (info), never a cart to change or a menu to order from.
        return None
    signals = scan_signals(payload)
    parsers: list[_Parser] = []
    if signals.cart:
        parsers.append(lambda: _nonempty_cart(parse_cart(payload)))
    if signals.products or signals.restaurants or signals.weak_restaurants:
        parsers.extend(_search_order(name, payload, vertical, tool_input, signals))
    # One time-bearing record is a booking or an order, not a list of slots to pick from.
    if signals.slots >= _MIN_SHAPE_SLOTS:
        parsers.append(lambda: parse_slots(payload, tool_input))
    if signals.addresses:
        parsers.append(lambda: parse_addresses(payload))
    return _first(parsers)


def _search_order(
    name: str,
    payload: Any,
    vertical: str,
    tool_input: dict[str, Any] | None,
    signals: PayloadSignals,
) -> list[_Parser]:
    """Products or restaurants first, by vertical and (for FeedMe) by payload signals."""

    def _products() -> ParsedToolResult | None:
        return parse_products(payload, vertical, tool_input)

    def _restaurants() -> ParsedToolResult | None:
        return parse_restaurants(payload, vertical)

    lists = search_lists_of(vertical)
    if lists == "dishes":
        products_first = prefer_products_for_food(name, signals) is not False
    elif lists == "restaurants":
        products_first = False
    elif signals.products or signals.restaurants:
        products_first = signals.products >= signals.restaurants
    else:
        products_first = True
    return [_products, _restaurants] if products_first else [_restaurants, _products]


def _first(parsers: list[_Parser]) -> ParsedToolResult | None:
    for parser in parsers:
        result = parser()
        if result is not None:
            return result
    return None


def _nonempty_cart(cart: CartResult | None) -> CartResult | None:
    if cart is None or not (cart.items or cart.bill or cart.to_pay is not None):
        return None
    return cart


def _safe_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    try:
        return compact(content)
    except Exception:  # the fallback of the fallback must not raise either
        return ""
