"""The cart's state and how one answered tool call changes it (see `swiggy_core.cart`).

A server snapshot replaces the cart, except a partial add-style one, which is merged; a
failed call changes nothing; clear/flush and a placed order empty it; a food cart holds
one restaurant; names and prices come from the products seen earlier in the chat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, Field

from swiggy_core.models import McpToolResultBlock, ToolResultBlock
from swiggy_core.parsers import (
    BillLine,
    CartLine,
    CartResult,
    OrderPlacedResult,
    ParsedToolResult,
    ProductsResult,
    StatusResult,
)
from swiggy_core.parsers.cart import parse_cart
from swiggy_core.parsers.confirmations import PENDING_PAYMENT
from swiggy_core.parsers.routing import (
    Route,
    is_add_tool,
    is_clear_tool,
    is_order_record_tool,
    is_read_tool,
    is_remove_tool,
    route_for,
)


class CartState(BaseModel):
    """The cart as the conversation last left it."""

    items: list[CartLine] = Field(default_factory=list)
    bill: list[BillLine] = Field(default_factory=list)
    to_pay: float | None = None
    restaurant_id: str | None = None
    restaurant_name: str | None = None
    payment_methods: list[str] = Field(default_factory=list)
    updated_from_tool: str | None = None
    # A UPI order holds the cart until it is paid (then Swiggy empties it) or not.
    held_for_payment: bool = False

    @property
    def is_empty(self) -> bool:
        """True when the cart has no lines."""
        return not self.items

    @property
    def item_count(self) -> int:
        """Units across all lines."""
        return sum(line.quantity for line in self.items)

    def as_result(self) -> CartResult:
        """The same cart as a card's result (for `CardContext.previous_cart`)."""
        return CartResult(
            items=self.items,
            bill=self.bill,
            to_pay=self.to_pay,
            restaurant_id=self.restaurant_id,
            restaurant_name=self.restaurant_name,
            payment_methods=self.payment_methods,
        )


@dataclass(frozen=True, slots=True)
class CartCall:
    """One answered tool call of the chat."""

    id: str
    name: str
    input: dict[str, Any]
    result: McpToolResultBlock | ToolResultBlock
    # The result as parsed when it was stored (an approval's outcome: the order placed).
    card: ParsedToolResult | None


def apply_call(
    state: CartState, call: CartCall, parsed: Any, catalog: dict[str, CartLine]
) -> CartState:
    route = route_for(call.name)
    if isinstance(parsed, StatusResult) and parsed.code == PENDING_PAYMENT:
        # Nothing is placed yet and the cart stays, but it is the UPI order's until that
        # is paid (Swiggy then empties it): nothing offers to order it twice meanwhile.
        return state.model_copy(update={"held_for_payment": True})
    if isinstance(parsed, StatusResult) and not parsed.success:
        return state
    if isinstance(parsed, OrderPlacedResult) or (route is Route.CART and is_clear_tool(call.name)):
        return CartState(updated_from_tool=call.name)
    if isinstance(parsed, CartResult) and not is_order_record_tool(call.name):
        return _from_snapshot(state, parsed, call.name, catalog)
    if route is not Route.CART:
        return state
    if is_read_tool(call.name):
        # A successful read with no cart in it: the server has nothing in the cart.
        return CartState(updated_from_tool=call.name) if isinstance(parsed, StatusResult) else state
    return _from_input(state, call, catalog)


def _from_snapshot(
    state: CartState, snapshot: CartResult, tool: str, catalog: dict[str, CartLine]
) -> CartState:
    lines = [_enrich(line, catalog) for line in snapshot.items]
    restaurant_id = snapshot.restaurant_id or next(
        (line.restaurant_id for line in lines if line.restaurant_id), None
    )
    partial = (
        is_add_tool(tool)
        and not is_read_tool(tool)
        and not snapshot.bill
        and snapshot.to_pay is None
        and _same_restaurant(state, restaurant_id)
    )
    if partial:
        return _merged(state, lines, tool, add=False)
    return CartState(
        items=lines,
        bill=snapshot.bill,
        to_pay=snapshot.to_pay,
        restaurant_id=restaurant_id,
        restaurant_name=snapshot.restaurant_name
        or next((line.restaurant_name for line in lines if line.restaurant_name), None),
        payment_methods=snapshot.payment_methods,
        updated_from_tool=tool,
    )


def _from_input(state: CartState, call: CartCall, catalog: dict[str, CartLine]) -> CartState:
    """A success without a snapshot: apply what was asked (the server accepted it)."""
    requested = parse_cart(call.input)
    if requested is None:
        return state
    lines = [_enrich(line, catalog) for line in requested.items]
    restaurant_id = requested.restaurant_id
    if is_remove_tool(call.name):
        return _removed(state, lines, call.name)
    if is_add_tool(call.name) and _same_restaurant(state, restaurant_id):
        return _merged(state, lines, call.name, add=True)
    # update-style tools replace the whole cart (Instamart `update_cart`, food carts).
    return CartState(
        items=lines,
        restaurant_id=restaurant_id,
        restaurant_name=requested.restaurant_name
        or next((line.restaurant_name for line in lines if line.restaurant_name), None)
        or _kept_name(state, restaurant_id),
        updated_from_tool=call.name,
    )


def _merged(state: CartState, lines: list[CartLine], tool: str, *, add: bool) -> CartState:
    """Earlier lines kept; incoming lines update theirs (by id) or are appended."""
    merged = {line.key: line for line in state.items}
    for line in lines:
        previous = merged.get(line.key)
        if add and previous is not None:
            line = _with_quantity(line, previous.quantity + line.quantity)
        merged[line.key] = line
    first = next(iter(lines), None)
    return CartState(
        items=[line for line in merged.values() if line.quantity > 0],
        restaurant_id=state.restaurant_id or (first.restaurant_id if first else None),
        restaurant_name=state.restaurant_name or (first.restaurant_name if first else None),
        updated_from_tool=tool,
    )


def _removed(state: CartState, lines: list[CartLine], tool: str) -> CartState:
    """Remove-style tools drop the named lines (the bill no longer applies)."""
    drop = {line.key for line in lines}
    kept = [line for line in state.items if line.key not in drop]
    return state.model_copy(
        update={"items": kept, "bill": [], "to_pay": None, "updated_from_tool": tool}
    )


def _with_quantity(line: CartLine, quantity: int) -> CartLine:
    total = None if line.unit_price is None else round(line.unit_price * quantity, 2)
    return line.model_copy(update={"quantity": quantity, "line_total": total})


def _same_restaurant(state: CartState, restaurant_id: str | None) -> bool:
    return (
        state.restaurant_id is None or restaurant_id is None or state.restaurant_id == restaurant_id
    )


def _kept_name(state: CartState, restaurant_id: str | None) -> str | None:
    return state.restaurant_name if restaurant_id and restaurant_id == state.restaurant_id else None


def remember_products(catalog: dict[str, CartLine], products: ProductsResult) -> None:
    """Names and prices seen in search results, to label lines the server didn't name."""
    for item in products.items:
        base = CartLine(
            name=item.name,
            unit_price=item.price,
            mrp=item.mrp,
            quantity_description=item.quantity_description,
            image_url=item.image_url,
            menu_item_id=item.menu_item_id,
            restaurant_id=item.restaurant_id or products.restaurant_id,
            restaurant_name=item.restaurant_name or products.restaurant_name,
        )
        for variation in item.variations:
            if variation.spin_id:
                catalog[variation.spin_id] = base.model_copy(
                    update={
                        "spin_id": variation.spin_id,
                        "sku_id": variation.sku_id,
                        "unit_price": variation.price,
                        "mrp": variation.mrp,
                        "quantity_description": variation.quantity_description,
                    }
                )
        for key in (item.spin_id, item.menu_item_id):
            if key and key not in catalog:
                catalog[key] = base.model_copy(
                    update={"spin_id": item.spin_id, "sku_id": item.sku_id}
                )


def _enrich(line: CartLine, catalog: dict[str, CartLine]) -> CartLine:
    known = catalog.get(line.key)
    if known is None:
        return line
    update: dict[str, Any] = {}
    if line.name == f"Item {line.key}":
        update["name"] = known.name
    for field in ("quantity_description", "image_url", "mrp", "restaurant_name"):
        if getattr(line, field) is None and getattr(known, field) is not None:
            update[field] = getattr(known, field)
    if line.unit_price is None and known.unit_price is not None:
        update["unit_price"] = known.unit_price
        update["line_total"] = round(known.unit_price * line.quantity, 2)
    return line.model_copy(update=update) if update else line
