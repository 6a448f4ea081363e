"""The Instamart MCP server (`/im`): groceries, household, beauty."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import Context
from mcp_types import ToolAnnotations
from pydantic import BaseModel, ConfigDict, Field

from swiggy_core.constants import MCP_SERVERS
from swiggy_sandbox.catalog.wire import address_wire
from swiggy_sandbox.servers.auth import DEMO_USER
from swiggy_sandbox.servers.envelope import SandboxServer, ok
from swiggy_sandbox.shop import CartLine, Shop

READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)
WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
SPEND = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False)
WRITE_TOOLS = frozenset(
    {"update_cart", "clear_cart", "checkout", "create_address", "delete_address"}
)

AddressId = Annotated[str, Field(description="Address id from get_addresses.")]


class CartItem(BaseModel):
    """One cart line: a pack (spinId) and how many."""

    model_config = ConfigDict(extra="ignore")
    spinId: str = Field(description="variations[].spinId from search_products.")
    skuId: str | None = Field(default=None, description="variations[].skuId (optional check).")
    quantity: int = Field(description="Units wanted; 0 removes the line.")


def _cart_message(cart: dict[str, Any]) -> str:
    if not cart["items"]:
        return "Your cart is empty."
    return f"Cart has {cart['itemCount']} item(s); to pay ₹{cart['billBreakdown']['toPay']}."


def build_instamart_server(shop: Shop, *, default_user: str | None = DEMO_USER) -> SandboxServer:
    """Instamart's tools over `shop`; `default_user` serves calls without an HTTP identity."""
    server = SandboxServer(
        MCP_SERVERS["instamart"].name,
        default_user,
        instructions="Swiggy Instamart (sandbox): groceries, household and beauty in minutes. "
        "update_cart REPLACES the whole cart. Orders are cash on delivery and cannot be cancelled.",
    )
    im = shop.instamart

    @server.tool(annotations=READ, structured_output=False)
    def get_addresses(ctx: Context) -> str:
        """List the user's saved delivery addresses (ids for addressId)."""
        addresses = [address_wire(a) for a in shop.saved_addresses(server.user_of(ctx))]
        return ok({"addresses": addresses}, f"{len(addresses)} saved address(es).")

    @server.tool(annotations=READ, structured_output=False)
    def search_products(
        ctx: Context,
        addressId: AddressId,
        query: Annotated[str, Field(description="What to find, e.g. 'Amul butter 500 g'.")],
        offset: Annotated[int, Field(description="nextOffset of the previous page.")] = 0,
    ) -> str:
        """Search Instamart products; each has variations (packs) with spinId, price and stock."""
        data = im.search(server.user_of(ctx), addressId, query, offset)
        return ok(data, f"{data['totalResults']} product(s) match '{query}'.")

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

    @server.tool(annotations=READ, structured_output=False)
    def get_cart(ctx: Context) -> str:
        """The cart: items and billBreakdown (item total, fees, toPay, in rupees)."""
        cart = im.cart(server.user_of(ctx))
        return ok(cart, _cart_message(cart))

    @server.tool(annotations=WRITE, structured_output=False)
    def clear_cart(ctx: Context) -> str:
        """Remove everything from the cart."""
        return ok(im.clear_cart(server.user_of(ctx)), "Cart cleared.")

    @server.tool(annotations=SPEND, structured_output=False)
    def checkout(
        ctx: Context,
        addressId: AddressId,
        paymentMethod: Annotated[str | None, Field(description="Only 'COD' is supported.")] = None,
    ) -> str:
        """Place the order for the whole cart (cash on delivery; cannot be cancelled)."""
        order = im.checkout(server.user_of(ctx), addressId, paymentMethod)
        return ok(order, f"Order {order['orderId']} placed. Pay ₹{order['toPay']} in cash.")

    @server.tool(annotations=READ, structured_output=False)
    def your_go_to_items(ctx: Context, addressId: AddressId | None = None) -> str:
        """Products the user orders most often (popular staples for new users)."""
        return ok(im.go_to_items(server.user_of(ctx)))

    @server.tool(annotations=WRITE, structured_output=False)
    def create_address(
        ctx: Context,
        addressLine: Annotated[str, Field(description="Full street address.")],
        lat: float,
        lng: float,
        label: Annotated[str, Field(description="Home, Work or Other.")] = "Other",
        locality: str = "",
    ) -> str:
        """Save a new delivery address (Bengaluru only in the sandbox)."""
        address = shop.addresses.create(server.user_of(ctx), addressLine, label, lat, lng, locality)
        return ok({"address": address_wire(address)}, f"Saved address {address.id}.")

    @server.tool(annotations=WRITE, structured_output=False)
    def delete_address(ctx: Context, addressId: AddressId) -> str:
        """Delete a saved address."""
        address = shop.addresses.delete(server.user_of(ctx), addressId)
        return ok({"deletedAddressId": address.id}, f"Deleted address {address.id}.")

    @server.tool(annotations=READ, structured_output=False)
    def get_orders(ctx: Context) -> str:
        """Past Instamart orders, newest first, with status."""
        return ok(im.orders(server.user_of(ctx)))

    @server.tool(annotations=READ, structured_output=False)
    def track_order(ctx: Context, orderId: str, lat: float, lng: float) -> str:
        """Live status, ETA and delivery partner location of an order."""
        data = im.track(server.user_of(ctx), orderId, lat, lng)
        return ok(data, data["statusMessage"])

    return server
