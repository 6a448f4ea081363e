"""The Food MCP server (`/food`): restaurant delivery, with Swiggy's documented tools.

Arguments and results follow SWIGGY_REFERENCE.md (Food, 20 tools). Menu prices are paise;
carts, coupons and orders are rupees. Orders are paid by cash on delivery or UPI.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictInt

from swiggy_core.constants import MCP_SERVERS
from swiggy_core.formatting import rupees
from swiggy_sandbox.servers import food_text as say
from swiggy_sandbox.servers.addresses import ADDRESS_WRITE_TOOLS, AddressId, register_address_tools
from swiggy_sandbox.servers.auth import DEMO_USER
from swiggy_sandbox.servers.envelope import SandboxServer, ok
from swiggy_sandbox.servers.instamart import READ, SPEND, WRITE
from swiggy_sandbox.servers.payments import (
    INTENT_APP_DOC,
    PAYMENT_METHOD_DOC,
    PAYMENT_WRITE_TOOLS,
    UPI_QR_DOC,
    register_payment_tools,
)
from swiggy_sandbox.servers.spend_faults import stall_after_spend
from swiggy_sandbox.shop import Shop, ShopError
from swiggy_sandbox.shop.upi_request import upi_choice

WRITE_TOOLS = (
    frozenset({"update_food_cart", "flush_food_cart", "apply_food_coupon", "place_food_order"})
    | ADDRESS_WRITE_TOOLS
    | PAYMENT_WRITE_TOOLS
)

_CASH_OR_UPI = (
    "Invalid paymentMethod: use 'Cash' (cash on delivery) or 'UPI' with intentApp or "
    "generateUPIQR. No order was placed."
)
OrderId = Annotated[str, Field(description="orderId from place_food_order or get_food_orders.")]
Selection = list[dict[str, Any]]


def _number_not_flag(value: Any) -> Any:
    if isinstance(value, bool):
        raise ValueError("use the number 0 or 1, not true/false")
    return value


VegFilter = Annotated[Literal[0, 1], BeforeValidator(_number_not_flag)]


class FoodCartItem(BaseModel):
    """One dish with its customisation (use the variant format the dish has)."""

    model_config = ConfigDict(extra="ignore")
    menu_item_id: str | int = Field(description="menu_item_id from search_menu (or menu id).")
    quantity: StrictInt = Field(description="How many; 0 removes the dish.")
    variants: Selection | None = Field(
        default=None, description="For items with `variations`: [{group_id, variation_id}]."
    )
    variantsV2: Selection | None = Field(
        default=None, description="For items with `variantsV2`: [{group_id, variation_id}]."
    )
    addons: Selection | None = Field(default=None, description="[{group_id, choice_id}]")


def _pending_message(pending: dict[str, Any]) -> str:
    return (
        f"Order {pending['orderId']} awaits a UPI payment of {rupees(pending['totalAmount'])}: "
        "it is not placed yet. Poll check_payment_status, then call confirm_order once it "
        "succeeds."
    )


def build_food_server(shop: Shop, *, default_user: str | None = DEMO_USER) -> SandboxServer:
    """Food's tools over `shop`; `default_user` serves calls without an HTTP identity."""
    server = SandboxServer(
        MCP_SERVERS["food"].name,
        default_user,
        instructions="Swiggy Food (sandbox): restaurant delivery. Menu prices are in paise; cart, "
        "coupon and order amounts are in rupees. A cart holds dishes from ONE restaurant: adding "
        "from another flushes it. Orders are paid by cash on delivery or UPI and cannot be "
        "cancelled.",
    )
    food = shop.food
    register_address_tools(server, shop)
    register_payment_tools(server, shop, "food", amount_due=say.amount_due(food))

    @server.tool(annotations=READ, structured_output=False)
    def search_restaurants(
        ctx: Context,
        addressId: AddressId,
        query: Annotated[str, Field(description="Dish, cuisine or restaurant name.")],
        offset: Annotated[int, Field(description="nextOffset of the previous page.")] = 0,
        collection: Annotated[
            Literal["EATRIGHT", "BOLT", "STORE_99"] | None,
            Field(description="EATRIGHT healthy, BOLT fast and near, STORE_99 budget dishes."),
        ] = None,
    ) -> str:
        """Restaurants delivering to the address; recommend only availabilityStatus OPEN."""
        data = food.search_restaurants(server.user_of(ctx), addressId, query, offset, collection)
        return ok(data, f"{data['totalRestaurants']} restaurant(s) for '{data['query']}'.")

    @server.tool(annotations=READ, structured_output=False)
    def get_restaurant_menu(
        ctx: Context,
        addressId: AddressId,
        restaurantId: Annotated[str, Field(description="Restaurant id from search_restaurants.")],
    ) -> str:
        """Browse a menu: at most 150 unique dishes with category labels; order via search_menu."""
        data = food.menu(server.user_of(ctx), addressId, restaurantId)
        return ok(data, f"{data['totalItems']} dish(es) at {data['restaurant']['name']}.")

    @server.tool(annotations=READ, structured_output=False)
    def search_menu(
        ctx: Context,
        addressId: AddressId,
        query: Annotated[str, Field(description="Dish name, e.g. 'paneer tikka'.")],
        restaurantIdOfAddedItem: Annotated[
            str | None, Field(description="Scope to this restaurant (the cart's).")
        ] = None,
        vegFilter: Annotated[
            VegFilter | None, Field(description="1: veg only; 0 or omitted: all dishes.")
        ] = None,
        offset: Annotated[int, Field(description="nextOffset of the previous page.")] = 0,
    ) -> str:
        """Dishes with their customisations (`variations` or `variantsV2`, never both; addons)."""
        user = server.user_of(ctx)
        data = food.search_menu(
            user, addressId, query, restaurantIdOfAddedItem, vegFilter == 1, offset
        )
        return ok(data, f"{data['totalItems']} dish(es) for '{data['query']}'.")

    @server.tool(annotations=WRITE, structured_output=False)
    def update_food_cart(
        ctx: Context,
        restaurantId: Annotated[str, Field(description="Restaurant id for the cart.")],
        cartItems: Annotated[list[FoodCartItem], Field(description="EVERY dish the cart holds.")],
        addressId: AddressId,
        restaurantName: str | None = None,
        cutleryOptIn: bool | None = None,
    ) -> str:
        """Set the cart to `cartItems` from one restaurant; then call get_food_cart."""
        items = [item.model_dump(exclude_none=True) for item in cartItems]
        user = server.user_of(ctx)
        cart, note = food.update_cart(user, restaurantId, addressId, items, restaurantName)
        data = {"data": cart, "statusCode": 0, "statusMessage": note}
        return ok(data, say.cart_message(cart, note))

    @server.tool(annotations=READ, structured_output=False)
    def get_food_cart(ctx: Context, addressId: AddressId, restaurantName: str | None = None) -> str:
        """The food cart with its pricing for the address."""
        state = food.cart_state(server.user_of(ctx), addressId)
        cart = food.cart_payload(state)
        data = {"data": cart, "addressId": addressId, **say.payment_view(state.pricing.to_pay)}
        return ok(data, say.cart_message(cart))

    @server.tool(annotations=WRITE, structured_output=False)
    def flush_food_cart(ctx: Context) -> str:
        """Empty the food cart."""
        food.flush(server.user_of(ctx))
        return ok({"statusCode": 0, "statusMessage": "Cart flushed."}, "Food cart cleared.")

    @server.tool(annotations=READ, structured_output=False)
    def fetch_food_coupons(
        ctx: Context,
        restaurantId: Annotated[str, Field(description="The cart's restaurant id.")],
        addressId: AddressId,
        couponCode: Annotated[str | None, Field(description="Only this coupon.")] = None,
    ) -> str:
        """Coupons usable with cash on delivery, and whether each applies to the cart."""
        found = food.coupon_list(server.user_of(ctx), restaurantId, addressId)
        data = say.coupon_sections(found, couponCode)
        return ok(data, data["status_message"])

    @server.tool(annotations=WRITE, structured_output=False)
    def apply_food_coupon(
        ctx: Context,
        couponCode: str,
        addressId: AddressId,
        cartId: Annotated[str | None, Field(description="cart_id from get_food_cart.")] = None,
    ) -> str:
        """Apply a coupon to the food cart; coupon_discount is in rupees."""
        state = food.apply_coupon(server.user_of(ctx), couponCode, addressId, cartId)
        data = say.coupon_applied(state, food.cart_payload(state))
        return ok(data, data["statusMessage"])

    @server.tool(annotations=SPEND, structured_output=False)
    def place_food_order(
        ctx: Context,
        addressId: AddressId,
        paymentMethod: Annotated[
            str,
            Field(description=PAYMENT_METHOD_DOC),
        ] = "Cash",
        intentApp: Annotated[
            str | None,
            Field(description=INTENT_APP_DOC),
        ] = None,
        generateUPIQR: Annotated[bool | None, Field(description=UPI_QR_DOC)] = None,
        noteToRestaurant: Annotated[str | None, Field(max_length=200)] = None,
    ) -> str:
        """Order the cart; it cannot be cancelled. Cash places it now. UPI answers
        PENDING_PAYMENT: poll check_payment_status, then confirm_order once paid."""
        user = server.user_of(ctx)
        upi = upi_choice(paymentMethod, intentApp, generateUPIQR)
        if upi is not None:
            pending = food.start_upi_order(user, addressId, noteToRestaurant, upi)
            stall_after_spend()
            return ok(pending, _pending_message(pending))
        if not say.is_cash(paymentMethod):
            raise ShopError(_CASH_OR_UPI)
        order = food.place_order(user, addressId, noteToRestaurant)
        stall_after_spend()
        return ok(order, say.placed_message(order))

    @server.tool(annotations=READ, structured_output=False)
    def track_food_order(
        ctx: Context,
        orderId: Annotated[
            str | None, Field(description="Omit to track every active order.")
        ] = None,
    ) -> str:
        """Live progress of an order, or of every active order."""
        data = food.track(server.user_of(ctx), orderId)
        return ok(data, data["statusMessage"])

    @server.tool(annotations=READ, structured_output=False)
    def get_food_delivery_status(ctx: Context, orderId: OrderId) -> str:
        """When the order should arrive (epoch ms); poll no faster than pollIntervalSec."""
        data = food.delivery_status(server.user_of(ctx), orderId)
        return ok(data, str(data["statusText"]))

    @server.tool(annotations=READ, structured_output=False)
    def get_food_orders(
        ctx: Context,
        addressId: AddressId,
        activeOnly: Annotated[bool, Field(description="Only orders not yet delivered.")] = False,
    ) -> str:
        """Food orders, newest first, with status and actions."""
        data = food.orders(server.user_of(ctx), addressId, activeOnly)
        return ok(data, data["statusMessage"])

    @server.tool(annotations=READ, structured_output=False)
    def get_food_order_details(ctx: Context, orderId: OrderId) -> str:
        """Everything about one food order: items, charges, address, status."""
        data = food.order_details(server.user_of(ctx), orderId)
        return ok(data, data["statusMessage"])

    return server
