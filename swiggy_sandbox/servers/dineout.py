"""The Dineout MCP server (`/dineout`): table reservations, Swiggy's 12 documented tools.

Arguments and results follow SWIGGY_REFERENCE.md (Dineout, 12 tools). Free deals are booked
by book_table in one step; paid prebook deals stop at create_cart, since the sandbox takes
no online payment.
"""

from __future__ import annotations

from typing import Annotated, Literal

from mcp.server.mcpserver import Context
from pydantic import Field

from swiggy_core.constants import MCP_SERVERS
from swiggy_sandbox.servers.auth import DEMO_USER
from swiggy_sandbox.servers.envelope import SandboxServer, ok
from swiggy_sandbox.servers.instamart import READ, SPEND, WRITE
from swiggy_sandbox.servers.payments import PAYMENT_WRITE_TOOLS, register_payment_tools
from swiggy_sandbox.servers.spend_faults import stall_after_spend
from swiggy_sandbox.shop import Shop, ShopError
from swiggy_sandbox.shop.dineout_wire import location_wire

WRITE_TOOLS = frozenset({"create_cart", "book_table", "cancel_booking"}) | PAYMENT_WRITE_TOOLS

RestaurantId = Annotated[str, Field(description="Restaurant id from search_restaurants_dineout.")]
Latitude = Annotated[float, Field(description="Latitude returned by search_restaurants_dineout.")]
Longitude = Annotated[float, Field(description="Longitude returned by search_restaurants_dineout.")]
SlotId = Annotated[int, Field(description="slots[].deals[].slotId from get_available_slots.")]
ItemId = Annotated[
    str, Field(description='The chosen deal\'s itemId ("<restaurantId>-<ticketId>").')
]
ReservationTime = Annotated[
    int, Field(description="slots[].reservationTime (unix seconds) from get_available_slots.")
]
GuestCount = Annotated[int, Field(description="Number of guests, 1 to 20.")]
EntityType = Literal["locality", "CUISINE", "RESTAURANT_CATEGORY", "ambience_tags"]
CartType = Literal["DEAL_TICKET_PURCHASE", "DINEOUT"]


def build_dineout_server(shop: Shop, *, default_user: str | None = DEMO_USER) -> SandboxServer:
    """Dineout's tools over `shop`; `default_user` serves calls without an HTTP identity."""
    server = SandboxServer(
        MCP_SERVERS["dineout"].name,
        default_user,
        instructions="Swiggy Dineout (sandbox): find restaurants, check slots, book FREE "
        "tables. Always call get_available_slots before book_table; a slot can be full "
        "(availableInventory 0) or past. Deals with isFree false or bookingPrice > 0 are "
        "paid and need online payment, which the sandbox does not take.",
    )
    dine = shop.dineout
    register_payment_tools(server, shop, "dineout")

    @server.tool(annotations=READ, structured_output=False)
    def get_saved_locations(ctx: Context) -> str:
        """The user's saved locations; pass an `id` as addressId to search."""
        saved = shop.saved_addresses(server.user_of(ctx))
        locations = [location_wire(i, a) for i, a in enumerate(saved)]
        return ok({"locations": locations}, f"{len(locations)} saved location(s).")

    @server.tool(annotations=READ, structured_output=False)
    def search_restaurants_dineout(
        ctx: Context,
        query: Annotated[
            str, Field(description="ONE term: a cuisine, locality, vibe or name (not a sentence).")
        ],
        entityType: Annotated[
            EntityType | None, Field(description="What the query names (optional).")
        ] = None,
        addressId: Annotated[
            str | None, Field(description="A location id from get_saved_locations.")
        ] = None,
        latitude: float | None = None,
        longitude: float | None = None,
        limit: Annotated[int, Field(description="1 to 30 (default 10).")] = 10,
        offset: int = 0,
    ) -> str:
        """Dine-out restaurants near addressId (or latitude and longitude); reuse the returned
        latitude/longitude for details, slots and booking."""
        user = server.user_of(ctx)
        if addressId:
            address = shop.address(user, addressId)
            origin = (address.lat, address.lng)
        elif latitude is not None and longitude is not None:
            origin = (latitude, longitude)
        else:
            raise ShopError("Missing location: pass addressId, or latitude and longitude.")
        data = dine.search(query, entityType, origin, limit, offset)
        return ok(data, f"{data['total']} restaurant(s) found for '{query}'.")

    @server.tool(annotations=READ, structured_output=False)
    def get_restaurant_details(
        ctx: Context, restaurantId: RestaurantId, latitude: Latitude, longitude: Longitude
    ) -> str:
        """Details, timings, amenities and deals (prebooking deals: free and paid)."""
        server.user_of(ctx)
        data = dine.details(restaurantId, (latitude, longitude))
        return ok(data, str(data["data"]["restaurant"]["name"]))

    @server.tool(annotations=READ, structured_output=False)
    def get_available_slots(
        ctx: Context,
        restaurantId: RestaurantId,
        date: Annotated[
            str, Field(description='First day, "YYYY-MM-DD" (or epoch seconds as a string).')
        ],
        latitude: Latitude,
        longitude: Longitude,
    ) -> str:
        """Slots for up to 7 days from `date` in one call (do not call again per day). Each
        slot has a FREE deal and a PAID deal; availableInventory 0 means full."""
        server.user_of(ctx)
        data = dine.slots(restaurantId, date, (latitude, longitude))
        count = sum(1 for slot in data["slots"] if slot["availableInventory"] > 0)
        return ok(data, f"{count} open slot(s) at {data['restaurantName']} from {data['date']}.")

    @server.tool(annotations=WRITE, structured_output=False)
    def create_cart(
        ctx: Context,
        restaurantId: RestaurantId,
        cartType: Annotated[
            CartType, Field(description="DEAL_TICKET_PURCHASE: a paid deal; DINEOUT: a bill.")
        ],
        latitude: Latitude,
        longitude: Longitude,
        slotId: SlotId | None = None,
        itemId: ItemId | None = None,
        reservationTime: ReservationTime | None = None,
        guestCount: GuestCount | None = None,
        billAmount: Annotated[
            float | None, Field(description="The bill in rupees (DINEOUT only).")
        ] = None,
        source: str = "direct-payment-cart",
    ) -> str:
        """A cart for a paid deal or a bill, with its payment methods. Free deals need no cart."""
        server.user_of(ctx)
        deal = None
        if slotId is not None and itemId and reservationTime is not None and guestCount is not None:
            deal = (slotId, itemId, reservationTime, guestCount)
        data, message = dine.cart(restaurantId, cartType, deal, billAmount)
        return ok(data, message)

    @server.tool(annotations=SPEND, structured_output=False)
    def book_table(
        ctx: Context,
        restaurantId: RestaurantId,
        slotId: SlotId,
        itemId: ItemId,
        reservationTime: ReservationTime,
        guestCount: GuestCount,
        latitude: Latitude,
        longitude: Longitude,
        paymentMethod: Annotated[
            Literal["Cash", "UPI"] | None,
            Field(description='Omit (or "Cash") for a free deal; the sandbox takes no UPI.'),
        ] = None,
        cartKey: str | None = None,
        intentApp: str | None = None,
        generateUPIQR: bool | None = None,
    ) -> str:
        """Book a FREE deal of a slot from get_available_slots (not idempotent: after an
        error, check get_booking_status before trying again)."""
        online = bool(cartKey or intentApp or generateUPIQR)
        booking = dine.book(
            server.user_of(ctx),
            restaurantId,
            slotId,
            itemId,
            reservationTime,
            guestCount,
            paymentMethod,
            online,
        )
        stall_after_spend()
        when = f"{booking['reservationDate']} at {booking['reservationTime']}"
        return ok(
            booking,
            f"Table for {guestCount} booked at {booking['restaurantName']} on {when}. "
            f"Order id {booking['orderId']}.",
        )

    @server.tool(annotations=READ, structured_output=False)
    def get_booking_status(
        ctx: Context,
        orderId: Annotated[str, Field(description="The orderId book_table returned.")],
    ) -> str:
        """One booking's status and whether it can still be cancelled."""
        data = dine.status(server.user_of(ctx), orderId)
        return ok(data, f"Booking {orderId} is {data['status'].lower()}.")

    @server.tool(annotations=WRITE, structured_output=False)
    def cancel_booking(
        ctx: Context,
        orderId: Annotated[str, Field(description="The orderId book_table returned.")],
        cancellationReason: str | None = None,
    ) -> str:
        """Cancel an upcoming table booking."""
        data = dine.cancel(server.user_of(ctx), orderId, cancellationReason)
        return ok(data, f"Booking {orderId} cancelled.")

    return server
