"""The Food MCP server (`/food`): restaurant delivery."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import Context
from pydantic import BaseModel, ConfigDict, Field

from swiggy_core.constants import MCP_SERVERS
from swiggy_sandbox.catalog.wire import address_wire
from swiggy_sandbox.servers.auth import DEMO_USER
from swiggy_sandbox.servers.envelope import SandboxServer, ok
from swiggy_sandbox.servers.instamart import READ, SPEND, WRITE
from swiggy_sandbox.shop import Shop

WRITE_TOOLS = frozenset(
    {"update_food_cart", "flush_food_cart", "apply_food_coupon", "place_food_order"}
)

AddressId = Annotated[str, Field(description="Address id from get_addresses.")]
Selection = list[dict[str, Any]]


class FoodCartItem(BaseModel):
    """One dish with its customisation (use the variant format the dish has)."""

    model_config = ConfigDict(extra="ignore")
    menu_item_id: str | int = Field(description="card.info.id from the menu or search_menu.")
    quantity: int = Field(default=1, description="How many; 0 removes the dish.")
    variants: Selection | None = Field(default=None, description="[{group_id, variation_id}]")
    variantsV2: Selection | None = Field(default=None, description="[{group_id, variation_id}]")
    addons: Selection | None = Field(default=None, description="[{group_id, choice_id}]")


def _cart_message(cart: dict[str, Any], prefix: str = "") -> str:
    if not cart["items"]:
        return (prefix + " Your cart is empty.").strip()
    total = cart["billBreakdown"]["toPay"]
    summary = f"{cart['itemCount']} item(s) from {cart['restaurantName']}; to pay ₹{total}."
    return f"{prefix} {summary}".strip()


def build_food_server(shop: Shop, *, default_user: str | None = DEMO_USER) -> SandboxServer:
    """Food's tools over `shop`; `default_user` serves calls without an HTTP identity."""
    server = SandboxServer(
        MCP_SERVERS["food"].name,
        default_user,
        instructions="Swiggy Food (sandbox): restaurant delivery. Menu prices are in paise; cart "
        "and bill amounts are in rupees. A cart holds dishes from ONE restaurant: adding from "
        "another replaces it. Orders are cash on delivery and cannot be cancelled.",
    )
    food = shop.food

    @server.tool(annotations=READ, structured_output=False)
    def get_addresses(ctx: Context) -> str:
        """List the user's saved delivery addresses (ids for addressId)."""
        addresses = [address_wire(a) for a in shop.saved_addresses(server.user_of(ctx))]
        return ok({"addresses": addresses}, f"{len(addresses)} saved address(es).")

    @server.tool(annotations=READ, structured_output=False)
    def search_restaurants(
        ctx: Context,
        addressId: AddressId,
        query: Annotated[str, Field(description="Dish, cuisine or restaurant name.")],
        offset: int = 0,
        collection: Annotated[
            str | None, Field(description="Optional: pure veg, top rated, fast delivery, open now.")
        ] = None,
    ) -> str:
        """Restaurants that deliver to the address (check availabilityStatus before ordering)."""
        data = food.search_restaurants(server.user_of(ctx), addressId, query, offset, collection)
        return ok(data, f"{data['totalResults']} restaurant(s) deliver '{query}' here.")

    @server.tool(annotations=READ, structured_output=False)
    def search_menu(
        ctx: Context,
        addressId: AddressId,
        query: Annotated[str, Field(description="Dish to find, e.g. 'paneer tikka'.")],
        restaurantIdOfAddedItem: Annotated[
            str | None, Field(description="Only this restaurant's dishes (the cart's restaurant).")
        ] = None,
        vegFilter: Annotated[bool | None, Field(description="true: vegetarian only.")] = None,
        offset: int = 0,
    ) -> str:
        """Search dishes (card.info with price in paise, variants or variantsV2, addons)."""
        data = food.search_menu(
            server.user_of(ctx), addressId, query, restaurantIdOfAddedItem, bool(vegFilter), offset
        )
        return ok(data, f"{data['totalResults']} dish(es) match '{query}'.")

    @server.tool(annotations=READ, structured_output=False)
    def get_restaurant_menu(ctx: Context, addressId: AddressId, restaurantId: str) -> str:
        """A restaurant's full menu: categories[].itemCards[].card.info (price in paise)."""
        data = food.menu(server.user_of(ctx), addressId, restaurantId)
        return ok(data, f"Menu of {data['restaurant']['name']}.")

    @server.tool(annotations=WRITE, structured_output=False)
    def update_food_cart(
        ctx: Context,
        restaurantId: str,
        addressId: AddressId,
        cartItems: Annotated[list[FoodCartItem], Field(description="EVERY dish the cart holds.")],
        restaurantName: str | None = None,
    ) -> str:
        """Set the food cart to `cartItems` from one restaurant; returns the cart with its bill."""
        items = [item.model_dump(exclude_none=True) for item in cartItems]
        cart, note = food.update_cart(
            server.user_of(ctx), restaurantId, addressId, items, restaurantName
        )
        return ok(cart, _cart_message(cart, note))

    @server.tool(annotations=READ, structured_output=False)
    def get_food_cart(ctx: Context, addressId: AddressId | None = None) -> str:
        """The food cart with its bill for the address."""
        cart = food.cart(server.user_of(ctx), addressId)
        return ok(cart, _cart_message(cart))

    @server.tool(annotations=WRITE, structured_output=False)
    def flush_food_cart(ctx: Context) -> str:
        """Empty the food cart."""
        return ok(food.flush(server.user_of(ctx)), "Food cart cleared.")

    @server.tool(annotations=READ, structured_output=False)
    def fetch_food_coupons(
        ctx: Context, addressId: AddressId | None = None, restaurantId: str | None = None
    ) -> str:
        """Coupons and whether each applies to the current cart."""
        return ok(food.coupons(server.user_of(ctx)))

    @server.tool(annotations=WRITE, structured_output=False)
    def apply_food_coupon(ctx: Context, couponCode: str, addressId: AddressId | None = None) -> str:
        """Apply a coupon to the food cart; returns the cart."""
        cart = food.apply_coupon(server.user_of(ctx), couponCode, addressId)
        return ok(cart, _cart_message(cart, f"Coupon {cart['appliedCoupon']} applied."))

    @server.tool(annotations=SPEND, structured_output=False)
    def place_food_order(
        ctx: Context,
        addressId: AddressId,
        paymentMethod: Annotated[str | None, Field(description="Only 'COD' is supported.")] = None,
        noteToRestaurant: str | None = None,
    ) -> str:
        """Place the food order (cash on delivery; cannot be cancelled)."""
        order = food.place_order(server.user_of(ctx), addressId, paymentMethod, noteToRestaurant)
        return ok(order, f"Order {order['orderId']} placed. Pay ₹{order['toPay']} in cash.")

    @server.tool(annotations=READ, structured_output=False)
    def get_food_orders(ctx: Context) -> str:
        """Past food orders, newest first, with status."""
        return ok(food.orders(server.user_of(ctx)))

    @server.tool(annotations=READ, structured_output=False)
    def get_food_order_details(ctx: Context, orderId: str) -> str:
        """Everything about one food order."""
        data = food.order_details(server.user_of(ctx), orderId)
        return ok(data, data["statusMessage"])

    @server.tool(annotations=READ, structured_output=False)
    def track_food_order(ctx: Context, orderId: str | None = None) -> str:
        """Live status, ETA and delivery partner of an order (latest when no id)."""
        data = food.track(server.user_of(ctx), orderId)
        return ok(data, data["statusMessage"])

    return server
