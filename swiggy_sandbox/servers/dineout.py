"""The Dineout MCP server (`/dineout`): table reservations."""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import Context
from pydantic import Field

from swiggy_core.constants import MCP_SERVERS
from swiggy_sandbox.catalog.wire import address_wire
from swiggy_sandbox.servers.auth import DEMO_USER
from swiggy_sandbox.servers.envelope import SandboxServer, ok
from swiggy_sandbox.servers.instamart import READ, SPEND, WRITE
from swiggy_sandbox.shop import Shop, ShopError

WRITE_TOOLS = frozenset({"book_table", "cancel_booking"})

Latitude = Annotated[float, Field(description="User's latitude (from get_saved_locations).")]
Longitude = Annotated[float, Field(description="User's longitude.")]


def build_dineout_server(shop: Shop, *, default_user: str | None = DEMO_USER) -> SandboxServer:
    """Dineout's tools over `shop`; `default_user` serves calls without an HTTP identity."""
    server = SandboxServer(
        MCP_SERVERS["dineout"].name,
        default_user,
        instructions="Swiggy Dineout (sandbox): find restaurants, check slots, book FREE tables. "
        "Always call get_available_slots before book_table; a slot can be taken or past.",
    )
    dine = shop.dineout

    @server.tool(annotations=READ, structured_output=False)
    def get_saved_locations(ctx: Context) -> str:
        """The user's saved locations with latitude/longitude."""
        addresses = [address_wire(a) for a in shop.saved_addresses(server.user_of(ctx))]
        return ok({"locations": addresses}, f"{len(addresses)} saved location(s).")

    @server.tool(annotations=READ, structured_output=False)
    def search_restaurants_dineout(
        ctx: Context,
        query: Annotated[str, Field(description="Cuisine, vibe or name; empty = nearby.")] = "",
        addressId: str | None = None,
        latitude: float | None = None,
        longitude: float | None = None,
        limit: Annotated[int, Field(description="1 to 30.")] = 10,
        offset: int = 0,
    ) -> str:
        """Dine-out restaurants near an address (addressId, or latitude and longitude)."""
        if addressId:
            address = shop.address(server.user_of(ctx), addressId)
            origin = (address.lat, address.lng)
        elif latitude is not None and longitude is not None:
            server.user_of(ctx)
            origin = (latitude, longitude)
        else:
            raise ShopError("Missing location: pass addressId, or latitude and longitude.")
        data = dine.search(query, origin, limit, offset)
        return ok(data, f"{data['totalResults']} restaurant(s) found.")

    @server.tool(annotations=READ, structured_output=False)
    def get_restaurant_details(
        ctx: Context, restaurantId: str, latitude: Latitude, longitude: Longitude
    ) -> str:
        """Details, timings and deals (free table reservation and paid deals)."""
        server.user_of(ctx)
        data = dine.details(restaurantId, (latitude, longitude))
        return ok(data, data["name"])

    @server.tool(annotations=READ, structured_output=False)
    def get_available_slots(
        ctx: Context,
        restaurantId: str,
        date: Annotated[str, Field(description="Start date YYYY-MM-DD (or epoch seconds).")],
        latitude: Latitude,
        longitude: Longitude,
    ) -> str:
        """Slots from `date` to the end of the 7-day window: slotId, time, available, deals."""
        server.user_of(ctx)
        data = dine.slots(restaurantId, date)
        count = sum(s["available"] for day in data["days"] for s in day["slots"])
        return ok(data, f"{count} open slot(s) at {data['restaurantName']}.")

    @server.tool(annotations=SPEND, structured_output=False)
    def book_table(
        ctx: Context,
        restaurantId: str,
        slotId: Annotated[int, Field(description="slots[].slotId")],
        itemId: Annotated[str, Field(description="The FREE deal's itemId of that slot.")],
        reservationTime: Annotated[int, Field(description="slots[].reservationTime (unix s).")],
        guestCount: Annotated[int, Field(description="1 to 20 guests.")],
        latitude: Latitude,
        longitude: Longitude,
    ) -> str:
        """Book a free table for a slot from get_available_slots (not idempotent)."""
        booking = dine.book(
            server.user_of(ctx), restaurantId, slotId, itemId, reservationTime, guestCount
        )
        name = booking["restaurant"]["name"]
        return ok(booking, f"Table for {guestCount} booked at {name}, {booking['time']}.")

    @server.tool(annotations=READ, structured_output=False)
    def get_booking_status(ctx: Context, bookingId: str | None = None) -> str:
        """One booking's status, or all bookings when no id is given."""
        return ok(dine.status(server.user_of(ctx), bookingId))

    @server.tool(annotations=WRITE, structured_output=False)
    def cancel_booking(ctx: Context, bookingId: str) -> str:
        """Cancel an upcoming table booking."""
        data = dine.cancel(server.user_of(ctx), bookingId)
        return ok(data, f"Booking {bookingId} cancelled.")

    return server
