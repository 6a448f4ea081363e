"""The Instamart MCP server (`/im`): Swiggy's 19 documented tools over the sandbox shop."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import Context
from mcp_types import ToolAnnotations
from pydantic import BaseModel, ConfigDict, Field

from swiggy_core.constants import MCP_SERVERS
from swiggy_sandbox.servers.addresses import ADDRESS_WRITE_TOOLS, AddressId, register_address_tools
from swiggy_sandbox.servers.auth import DEMO_USER
from swiggy_sandbox.servers.envelope import SandboxServer, ok
from swiggy_sandbox.servers.payments import (
    INTENT_APP_DOC,
    PAYMENT_METHOD_DOC,
    PAYMENT_WRITE_TOOLS,
    UPI_QR_DOC,
    register_payment_tools,
)
from swiggy_sandbox.servers.spend_faults import stall_after_spend
from swiggy_sandbox.shop import CartLine, Shop
from swiggy_sandbox.shop.common import amount_text

READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)
WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
SPEND = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False)
WRITE_TOOLS = (
    frozenset({"update_cart", "clear_cart", "apply_coupon", "checkout"})
    | ADDRESS_WRITE_TOOLS
    | PAYMENT_WRITE_TOOLS
)

OrderId = Annotated[str, Field(description="Order id from checkout or get_orders.")]
Offset = Annotated[int, Field(description="nextOffset of the previous page (default 0).")]


class CartItem(BaseModel):
    """One cart line: a pack (spinId, skuId) and how many."""

    model_config = ConfigDict(extra="ignore")
    spinId: str = Field(description="variations[].spinId from search_products.")
    skuId: str | None = Field(default=None, description="variations[].skuId of the same pack.")
    quantity: int = Field(description="Units wanted; 0 removes the line.")


def _cart_message(cart: dict[str, Any]) -> str:
    if not cart["items"]:
        return "Your cart is empty."
    count = sum(item["quantity"] for item in cart["items"])
    notes = [
        f"{r['itemName']}: {r['cappedQuantity']} instead of {r['requestedQuantity']} "
        f"({r.get('reason', 'limited')})"
        for r in cart.get("reducedQuantityItems", [])
    ]
    notes += [f"{r['itemName']} is out of stock" for r in cart.get("removedOutOfStockItems", [])]
    if warning := cart.get("cartWarning"):
        notes.append(str(warning["message"]))
    changed = f" Changed: {'; '.join(notes)}." if notes else ""
    to_pay = cart["billBreakdown"]["toPay"]["value"]
    return f"Cart has {count} item(s); to pay {to_pay}.{changed}"


def _checkout_message(order: dict[str, Any]) -> str:
    total = amount_text(order["cartTotal"])
    if order["status"] == "PENDING_PAYMENT":
        return (
            f"Order {order['orderId']} awaits a UPI payment of {total}: it is not placed yet. "
            "Poll check_payment_status, then call confirm_order once it succeeds."
        )
    return (
        f"Instamart order placed successfully! Order {order['orderId']}: {total} to pay in "
        f"cash on delivery to {order['deliveryLabel']}. "
        "It cannot be cancelled here (call 080-67466729 for help)."
    )


def _products_message(data: dict[str, Any], what: str) -> str:
    more = f" More with offset {data['nextOffset']}." if data["nextOffset"] else ""
    return f"Found {len(data['products'])} product(s) {what}.{more}"


def build_instamart_server(shop: Shop, *, default_user: str | None = DEMO_USER) -> SandboxServer:
    """Instamart's tools over `shop`; `default_user` serves calls without an HTTP identity."""
    server = SandboxServer(
        MCP_SERVERS["instamart"].name,
        default_user,
        instructions="Swiggy Instamart (sandbox): groceries, household and beauty in minutes. "
        "update_cart REPLACES the whole cart. Orders are paid by cash on delivery or UPI and "
        "cannot be cancelled.",
    )
    im = shop.instamart
    register_address_tools(server, shop)
    register_payment_tools(server, shop, "im")

    @server.tool(annotations=READ, structured_output=False)
    def search_products(
        ctx: Context,
        addressId: AddressId,
        query: Annotated[str, Field(description="Product, category or brand; not empty.")],
        offset: Offset = 0,
    ) -> str:
        """Search products at the address; each has variations (packs) with spinId, skuId,
        price and stock."""
        data = im.search(server.user_of(ctx), addressId, query, offset)
        return ok(data, _products_message(data, f"for '{query}'"))

    @server.tool(annotations=READ, structured_output=False)
    def your_go_to_items(ctx: Context, addressId: AddressId, offset: Offset = 0) -> str:
        """Products the user orders most often (popular staples for new users)."""
        data = im.go_to_items(server.user_of(ctx), addressId, offset)
        return ok(data, _products_message(data, "you order often"))

    @server.tool(annotations=READ, structured_output=False)
    def get_cart(ctx: Context) -> str:
        """The cart: items and billBreakdown (line items and toPay, as strings in rupees)."""
        cart = im.cart(server.user_of(ctx))
        return ok(cart, _cart_message(cart))

    @server.tool(annotations=WRITE, structured_output=False)
    def update_cart(
        ctx: Context,
        selectedAddressId: AddressId,
        items: Annotated[list[CartItem], Field(description="EVERY line the cart should hold.")],
    ) -> str:
        """Replace the whole cart with `items` (send current lines too); returns the cart."""
        lines = [CartLine(i.spinId, i.skuId, i.quantity) for i in items]
        cart = im.update_cart(server.user_of(ctx), selectedAddressId, lines)
        return ok(cart, _cart_message(cart))

    @server.tool(annotations=WRITE, structured_output=False)
    def clear_cart(ctx: Context) -> str:
        """Remove everything from the cart."""
        return ok(im.clear_cart(server.user_of(ctx)), "Cart cleared.")

    @server.tool(annotations=READ, structured_output=False)
    def list_coupons(ctx: Context, addressId: AddressId) -> str:
        """Coupons for the current cart (needs items in the cart)."""
        data = im.coupons(server.user_of(ctx), addressId)
        usable = sum(1 for c in data["availableCoupons"] if c["isApplicable"])
        return ok(data, f"{usable} of {len(data['availableCoupons'])} coupon(s) apply.")

    @server.tool(annotations=WRITE, structured_output=False)
    def apply_coupon(
        ctx: Context,
        couponCode: Annotated[str, Field(description="A couponCode from list_coupons.")],
    ) -> str:
        """Apply a coupon to the cart; the discount shows in billBreakdown.lineItems."""
        cart = im.apply_coupon(server.user_of(ctx), couponCode)
        return ok(cart, f"Coupon {couponCode.strip().upper()} applied. {_cart_message(cart)}")

    @server.tool(annotations=SPEND, structured_output=False)
    def checkout(
        ctx: Context,
        addressId: AddressId,
        paymentMethod: Annotated[
            str | None,
            Field(description=PAYMENT_METHOD_DOC),
        ] = None,
        intentApp: Annotated[
            str | None,
            Field(description=INTENT_APP_DOC),
        ] = None,
        generateUPIQR: Annotated[bool, Field(description=UPI_QR_DOC)] = False,
    ) -> str:
        """Order the whole cart; it cannot be cancelled. Cash places it now. UPI answers
        PENDING_PAYMENT: poll check_payment_status, then confirm_order once paid."""
        order = im.checkout(server.user_of(ctx), addressId, paymentMethod, intentApp, generateUPIQR)
        stall_after_spend()
        return ok(order, _checkout_message(order))

    @server.tool(annotations=READ, structured_output=False)
    def track_order(
        ctx: Context,
        orderId: OrderId,
        lat: Annotated[float, Field(description="Latitude of the delivery address.")],
        lng: Annotated[float, Field(description="Longitude of the delivery address.")],
    ) -> str:
        """Live status, ETA, store, rider location and items of an order."""
        data = im.track(server.user_of(ctx), orderId, lat, lng)
        return ok(data, f"{data['status']['statusMessage']} ({data['status']['etaText']}).")

    @server.tool(annotations=READ, structured_output=False)
    def get_delivery_status(ctx: Context, orderId: OrderId, addressId: AddressId) -> str:
        """A short delivery status of an order."""
        data = im.delivery_status(server.user_of(ctx), orderId, addressId)
        return ok(data, f"{data['statusMessage']} ({data['etaText']}).")

    @server.tool(annotations=READ, structured_output=False)
    def get_orders(
        ctx: Context,
        count: Annotated[int, Field(description="How many orders (default 10).")] = 10,
        orderType: Annotated[str, Field(description="'DASH' (default) or 'INSTAMART'.")] = "DASH",
        activeOnly: Annotated[bool, Field(description="Only orders on their way.")] = False,
    ) -> str:
        """Recent Instamart orders, newest first, with status and bill."""
        data = im.orders(server.user_of(ctx), count, orderType, activeOnly)
        return ok(data, f"{len(data['orders'])} order(s).")

    @server.tool(annotations=READ, structured_output=False)
    def get_order_details(ctx: Context, orderId: OrderId) -> str:
        """One order's items and bill."""
        data = im.order_details(server.user_of(ctx), orderId)
        return ok(data, f"Order {orderId}: {data['bill']['grandTotal']} ({data['status']}).")

    return server
