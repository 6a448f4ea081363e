"""The reads behind "Order again", run by the app itself (no model turn): the past orders,
then, for one of them, what it costs now. Each read goes through the caller's `Reader`
(the audited path the app's own calls take)."""

from __future__ import annotations

from swiggy_core.mcp.client import McpCallError
from swiggy_core.parsers import CartLine, CartResult, ProductItem, ProductsResult, parse_tool_result
from swiggy_core.past_orders import (
    FOOD_ORDERS_TOOL,
    INSTAMART_DETAILS_TOOL,
    INSTAMART_ORDERS_TOOL,
    ORDERS_ASKED,
    PastOrder,
    envelope_data,
    food_orders,
    instamart_orders,
    with_paid_prices,
)
from swiggy_core.reorder import ReorderPlan, plan_food, plan_instamart
from swiggy_core.saved_addresses import Reader
from swiggy_core.verticals import Vertical

SEARCH_TOOL = "search_products"
CART_READ_TOOL = "get_cart"


def is_food(vertical: Vertical) -> bool:
    """True for the Food shop (its orders carry reorderMeta); else Instamart's."""
    return vertical.search_lists == "dishes"


def past_orders(read: Reader, vertical: Vertical, address_id: str | None) -> list[PastOrder]:
    """The person's recent orders in this shop, newest first. Raises McpCallError."""
    if is_food(vertical):
        if address_id is None:
            return []
        return food_orders(envelope_data(read(FOOD_ORDERS_TOOL, {"addressId": address_id})))
    return instamart_orders(envelope_data(read(INSTAMART_ORDERS_TOOL, {"count": ORDERS_ASKED})))


def review(read: Reader, vertical: Vertical, order: PastOrder, address_id: str) -> ReorderPlan:
    """What the order would put in the cart now: Food's reorderMeta as it is; Instamart's
    lines matched to one search per line, with the prices paid then (when the server
    offers get_order_details). Raises McpCallError."""
    if is_food(vertical):
        return plan_food(order)
    order = with_paid_prices(order, _details(read, order.order_id))
    products: list[ProductItem] = []
    for line in order.lines:
        arguments = {"addressId": address_id, "query": line.name}
        parsed = parse_tool_result(SEARCH_TOOL, read(SEARCH_TOOL, arguments), vertical.id)
        if isinstance(parsed, ProductsResult):
            products.extend(parsed.items)
    return plan_instamart(order, products)


def current_cart(read: Reader, vertical_id: str) -> list[CartLine]:
    """The Instamart cart as the server holds it now (a merged write keeps all of it).
    Raises McpCallError."""
    parsed = parse_tool_result(CART_READ_TOOL, read(CART_READ_TOOL, {}), vertical_id)
    return parsed.items if isinstance(parsed, CartResult) else []


def _details(read: Reader, order_id: str) -> dict[str, object]:
    """get_order_details' data ({} where it is not rolled out: no old prices then)."""
    try:
        return envelope_data(read(INSTAMART_DETAILS_TOOL, {"orderId": order_id}))
    except McpCallError:
        return {}
