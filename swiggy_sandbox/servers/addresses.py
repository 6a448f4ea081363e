"""The address tools Instamart and Food share: get_addresses, create_address, delete_address.

`register_address_tools(server, shop)` adds the three tools with Swiggy's documented
arguments and results to any sandbox server (one call per server).
"""

from __future__ import annotations

from typing import Annotated, Literal

from mcp.server.mcpserver import Context
from mcp_types import ToolAnnotations
from pydantic import Field

from swiggy_sandbox.servers.envelope import SandboxServer, ok
from swiggy_sandbox.shop import Shop
from swiggy_sandbox.shop.addresses import MAX_PAGE_SIZE, NewAddress

ADDRESS_WRITE_TOOLS = frozenset({"create_address", "delete_address"})
_READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)
_WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
_DELETE = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False)

# An address argument of the shops' own tools (Instamart's and Food's), from get_addresses.
AddressId = Annotated[str, Field(description="Address id from get_addresses.")]
Category = Literal["HOME", "WORK", "OFFICE", "FRIENDS_AND_FAMILY", "OTHER"]


def register_address_tools(server: SandboxServer, shop: Shop) -> None:
    """Add get_addresses, create_address and delete_address to `server`."""

    @server.tool(annotations=_READ, structured_output=False)
    def get_addresses(
        ctx: Context,
        page: Annotated[int, Field(description="1-based page number.")] = 1,
        pageSize: Annotated[
            int, Field(description=f"Addresses per page (at most {MAX_PAGE_SIZE}).")
        ] = MAX_PAGE_SIZE,
    ) -> str:
        """The user's saved delivery addresses; pass an `id` as addressId to other tools."""
        data = shop.addresses.listing(server.user_of(ctx), page, pageSize)
        total = data["pagination"]["total"]
        return ok(data, f"{total} saved address(es).")

    @server.tool(annotations=_WRITE, structured_output=False)
    def create_address(
        ctx: Context,
        fullAddress: Annotated[str, Field(description="The complete address as one line.")],
        addressLine: Annotated[str, Field(description="Flat / house number and building.")],
        addressLine2: Annotated[str, Field(description='Street and landmark; "" if none.')],
        city: str,
        postalCode: Annotated[str, Field(description="6-digit PIN code.")],
        addressCategory: Category,
        userName: str,
        userPhone: Annotated[str, Field(description="10-digit mobile number.")],
        locality: str = "",
        latitude: float | None = None,
        longitude: float | None = None,
        addressTag: Annotated[str, Field(description="A label such as 'Gym'.")] = "",
        receiverName: str = "",
        receiverPhone: str = "",
    ) -> str:
        """Save a new delivery address (Bengaluru in the sandbox); without latitude and
        longitude it is geocoded."""
        new = NewAddress(
            full_address=fullAddress,
            address_line=addressLine,
            address_line2=addressLine2,
            city=city,
            postal_code=postalCode,
            category=addressCategory,
            user_name=userName,
            user_phone=userPhone,
            locality=locality,
            latitude=latitude,
            longitude=longitude,
            tag=addressTag,
            receiver_name=receiverName,
            receiver_phone=receiverPhone,
        )
        address = shop.addresses.create(server.user_of(ctx), new)
        return ok({"addressId": address.id}, f"Saved address {address.id} ({address.label}).")

    @server.tool(annotations=_DELETE, structured_output=False)
    def delete_address(
        ctx: Context,
        addressId: Annotated[str, Field(description="Address id from get_addresses.")],
    ) -> str:
        """Delete a saved address."""
        address = shop.addresses.delete(server.user_of(ctx), addressId)
        message = f"Deleted address {address.id} ({address.label})."
        return ok({"statusCode": 200, "statusMessage": "Address deleted successfully"}, message)
