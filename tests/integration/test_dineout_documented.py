"""The sandbox Dineout server speaks Swiggy's documented shapes, over HTTP through the MCP client.

Documented arguments (types, required) in tools/list and in validation; documented output
fields of every tool in both result forms; and the money rules: book_table answers an
orderId (never a bookingId), a full slot or a paid deal is refused, inventory is counted.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any

import anyio
import httpx2
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from test_sandbox_scenarios import FIXED_NOW

from swiggy_core.constants import SWIGGY_TZ
from swiggy_sandbox.servers import RateLimits, SandboxHttpServer

TODAY = FIXED_NOW.astimezone(SWIGGY_TZ).date()
FORMS = ("envelope", "summary")
DINEOUT_TOOLS = {
    "get_saved_locations",
    "search_restaurants_dineout",
    "get_restaurant_details",
    "get_available_slots",
    "create_cart",
    "book_table",
    "get_booking_status",
    "cancel_booking",
    # The payment and support tools Swiggy shares between its servers.
    *("get_payment_options", "check_payment_status", "confirm_order", "report_error"),
}
LOCATION_KEYS = {"index", "id", "addressLine", "phoneNumber", "addressCategory", "addressTag"}
VENUE_KEYS = {
    *("id", "name", "cuisine", "locality", "area", "rating", "costForTwo", "imageUrl"),
    *("distance", "highlights", "offers", "availableDeals"),
}
SLOT_KEYS = {
    *("slotId", "displayTime", "reservationTime", "slotGroupName", "availableInventory"),
    *("dateStr", "isFree", "deals"),
}
DEAL_KEYS = {
    *("itemId", "ticketId", "slotId", "title", "discountPercentage", "bookingPrice", "isFree"),
    "availableInventory",
}
BOOKED_KEYS = {
    *("orderId", "isDineout", "restaurantId", "restaurantName", "restaurantLocation"),
    *("reservationDate", "reservationTime", "guestCount", "status"),
}
STATUS_KEYS = {
    *("orderId", "restaurantId", "restaurantName", "reservationDate", "reservationTime"),
    *("guestCount", "dealTitle", "status", "canCancel"),
}


@pytest.fixture(scope="module", params=FORMS)
def form(request: pytest.FixtureRequest) -> str:
    """The sandbox's result form: the JSON envelope as text, or a summary + structuredContent."""
    return str(request.param)


@pytest.fixture(scope="module")
def sandbox(form: str) -> Iterator[SandboxHttpServer]:
    limits = RateLimits(requests=10_000, writes=10_000)
    with SandboxHttpServer(clock=lambda: FIXED_NOW, limits=limits, result_form=form) as box:
        yield box


class Dineout:
    """One person's MCP session with /dineout; answers are read as the app reads them."""

    def __init__(self, session: ClientSession, form: str) -> None:
        self.session, self.form = session, form

    async def raw(self, tool: str, /, **arguments: Any) -> tuple[dict[str, Any], bool]:
        """(envelope, is_error); a summary result's data comes from structuredContent."""
        result = await self.session.call_tool(tool, arguments)
        text = result.content[0].text  # type: ignore[union-attr]
        if result.structured_content is not None:
            assert self.form == "summary" and not text.lstrip().startswith("{"), text
            return {"success": True, "data": result.structured_content}, bool(result.is_error)
        envelope: dict[str, Any] = json.loads(text)
        # The summary form turns every success into prose: only failures stay JSON.
        assert self.form == "envelope" or envelope["success"] is False, envelope
        return envelope, bool(result.is_error)

    async def ok(self, tool: str, /, **arguments: Any) -> dict[str, Any]:
        envelope, is_error = await self.raw(tool, **arguments)
        assert envelope["success"] is True and not is_error, (tool, envelope)
        data: dict[str, Any] = envelope["data"]
        return data

    async def refused(self, tool: str, /, **arguments: Any) -> str:
        """A domain failure: `success: false` in a normal (not is_error) result."""
        envelope, is_error = await self.raw(tool, **arguments)
        assert envelope["success"] is False and not is_error, (tool, envelope)
        return str(envelope["error"]["message"])

    async def invalid(self, tool: str, /, **arguments: Any) -> str:
        """Bad arguments: an is_error result whose envelope says what was wrong."""
        envelope, is_error = await self.raw(tool, **arguments)
        assert envelope["success"] is False and is_error, (tool, envelope)
        return str(envelope["error"]["message"])


@asynccontextmanager
async def dineout(sandbox: SandboxHttpServer, form: str) -> AsyncIterator[Dineout]:
    """A new person's session (their own bookings)."""
    token = sandbox.store.issue(f"diner-{uuid.uuid4().hex[:8]}")
    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}) as http,
        streamable_http_client(sandbox.url_for("dineout"), http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield Dineout(session, form)


def run(sandbox: SandboxHttpServer, form: str, body: Any) -> None:
    async def main() -> None:
        async with dineout(sandbox, form) as client:
            await body(client)

    anyio.run(main)


async def venue_and_slots(client: Dineout, query: str = "indiranagar") -> tuple[Any, ...]:
    """The first venue of a search, the coordinates to reuse, and its slots from today."""
    home = (await client.ok("get_saved_locations"))["locations"][0]
    found = await client.ok("search_restaurants_dineout", query=query, addressId=home["id"])
    where = {"latitude": found["latitude"], "longitude": found["longitude"]}
    venue = found["restaurants"][0]
    slots = await client.ok(
        "get_available_slots", restaurantId=venue["id"], date=TODAY.isoformat(), **where
    )
    return venue, where, slots["slots"]


def booking(venue: dict[str, Any], slot: dict[str, Any], where: dict[str, Any]) -> dict[str, Any]:
    """book_table arguments for a slot's free deal."""
    free = next(d for d in slot["deals"] if d["isFree"])
    return {
        "restaurantId": venue["id"],
        "slotId": slot["slotId"],
        "itemId": free["itemId"],
        "reservationTime": slot["reservationTime"],
        "guestCount": 2,
        **where,
    }


def _enum(schema: dict[str, Any]) -> list[Any]:
    """The allowed values of a property, whether optional (anyOf) or not."""
    options = [schema, *schema.get("anyOf", [])]
    return next(option["enum"] for option in options if "enum" in option)


def _type(schema: dict[str, Any]) -> set[str]:
    options = [schema, *schema.get("anyOf", [])]
    return {option["type"] for option in options if "type" in option}


def test_tools_list_the_documented_arguments(sandbox: SandboxHttpServer, form: str) -> None:
    async def body(client: Dineout) -> None:
        tools = {t.name: t.input_schema for t in (await client.session.list_tools()).tools}
        assert tools.keys() == DINEOUT_TOOLS and len(tools) == 12

        def required(name: str) -> set[str]:
            return set(tools[name].get("required", []))

        def prop(name: str, field: str) -> dict[str, Any]:
            return dict(tools[name]["properties"][field])

        assert required("get_saved_locations") == set()
        assert required("search_restaurants_dineout") == {"query"}
        assert _enum(prop("search_restaurants_dineout", "entityType")) == [
            "locality",
            "CUISINE",
            "RESTAURANT_CATEGORY",
            "ambience_tags",
        ]
        assert _type(prop("search_restaurants_dineout", "limit")) == {"integer"}
        assert required("get_restaurant_details") == {"restaurantId", "latitude", "longitude"}
        assert required("get_available_slots") == {
            "restaurantId",
            "date",
            "latitude",
            "longitude",
        }
        assert required("create_cart") == {"restaurantId", "cartType", "latitude", "longitude"}
        assert _enum(prop("create_cart", "cartType")) == ["DEAL_TICKET_PURCHASE", "DINEOUT"]
        assert required("book_table") == {
            *("restaurantId", "slotId", "itemId", "reservationTime", "guestCount"),
            *("latitude", "longitude"),
        }
        for field in ("slotId", "reservationTime", "guestCount"):
            assert _type(prop("book_table", field)) == {"integer"}, field
        assert _enum(prop("book_table", "paymentMethod")) == ["Cash", "UPI"]
        assert required("get_booking_status") == {"orderId"}
        assert required("cancel_booking") == {"orderId"}

    run(sandbox, form, body)


def test_bad_arguments_are_refused_as_swiggy_words_them(
    sandbox: SandboxHttpServer, form: str
) -> None:
    async def body(client: Dineout) -> None:
        home = (await client.ok("get_saved_locations"))["locations"][0]
        assert "Missing query" in await client.invalid(
            "search_restaurants_dineout", addressId=home["id"]
        )
        assert "Missing query" in await client.refused(
            "search_restaurants_dineout", query="  ", addressId=home["id"]
        )
        assert "Invalid entityType" in await client.invalid(
            "search_restaurants_dineout", query="asian", entityType="vibe", addressId=home["id"]
        )
        venue, where, slots = await venue_and_slots(client)
        args = booking(venue, next(s for s in slots if s["availableInventory"]), where)
        assert "Invalid slotId" in await client.invalid("book_table", **{**args, "slotId": "soon"})
        assert "Missing orderId" in await client.invalid("get_booking_status")
        assert "Missing orderId" in await client.invalid("cancel_booking")
        assert "Missing billAmount" in await client.refused(
            "create_cart", restaurantId=venue["id"], cartType="DINEOUT", **where
        )

    run(sandbox, form, body)


def test_search_details_and_locations_have_the_documented_fields(
    sandbox: SandboxHttpServer, form: str
) -> None:
    async def body(client: Dineout) -> None:
        locations = (await client.ok("get_saved_locations"))["locations"]
        assert [set(loc) for loc in locations] == [LOCATION_KEYS] * len(locations)
        assert [loc["index"] for loc in locations] == list(range(len(locations)))

        found = await client.ok(
            "search_restaurants_dineout", query="indiranagar", addressId=locations[0]["id"]
        )
        assert {"restaurants", "latitude", "longitude", "total", "offset"} <= found.keys()
        assert isinstance(found["latitude"], float) and found["total"] >= len(found["restaurants"])
        for venue in found["restaurants"]:
            assert set(venue) == VENUE_KEYS
            assert isinstance(venue["cuisine"], list) and isinstance(venue["costForTwo"], str)
            assert isinstance(venue["rating"]["value"], str)
            assert isinstance(venue["rating"]["count"], int)
            assert all({"dealTitle", "ticketId"} <= set(d) for d in venue["availableDeals"])
        cuisine = await client.ok(
            "search_restaurants_dineout",
            query="indiranagar",
            entityType="CUISINE",
            addressId=locations[0]["id"],
        )
        assert cuisine["total"] == 0  # a locality is not a cuisine

        where = {"latitude": found["latitude"], "longitude": found["longitude"]}
        venue = found["restaurants"][0]
        details = await client.ok("get_restaurant_details", restaurantId=venue["id"], **where)
        assert {key: details[key] for key in where} == where
        assert {"statusCode", "statusMessage", "data"} <= details.keys()
        inner = details["data"]
        assert inner["restaurantId"] == venue["id"]
        assert {"menuImages", "menuImageGroups", "amenities", "restaurant"} <= inner.keys()
        restaurant = inner["restaurant"]
        assert isinstance(restaurant["avgRating"], float) and isinstance(restaurant["timings"], str)
        categories = {deal["offerCategory"] for deal in restaurant["deals"]}
        assert categories <= {"prebooking", "walkin"}
        assert any(d["coverCharge"] > 0 for d in restaurant["deals"])  # a paid prebook deal

    run(sandbox, form, body)


def test_slots_are_flat_for_seven_days_with_a_free_and_a_paid_deal(
    sandbox: SandboxHttpServer, form: str
) -> None:
    async def body(client: Dineout) -> None:
        venue, where, slots = await venue_and_slots(client)
        now = FIXED_NOW.timestamp()
        days = sorted({slot["dateStr"] for slot in slots})
        assert days[0] == TODAY.isoformat() and len(days) == 7
        assert all(slot["reservationTime"] > now for slot in slots), "past slots are not listed"
        assert any(slot["availableInventory"] == 0 for slot in slots), "full slots stay listed"
        for slot in slots:
            assert set(slot) == SLOT_KEYS
            assert isinstance(slot["slotId"], int) and isinstance(slot["reservationTime"], int)
            local = datetime.fromtimestamp(slot["reservationTime"], SWIGGY_TZ)
            assert local.date().isoformat() == slot["dateStr"]
            free, paid = slot["deals"]
            for deal in (free, paid):
                assert set(deal) >= DEAL_KEYS and deal["slotId"] == slot["slotId"]
                assert deal["itemId"] == f"{venue['id']}-{deal['ticketId']}"
                assert deal["availableInventory"] == slot["availableInventory"]
            assert (free["isFree"], free["bookingPrice"]) == (True, 0)
            assert paid["isFree"] is False and paid["bookingPrice"] > 0
        later = await client.ok(
            "get_available_slots", restaurantId=venue["id"], date=days[3], **where
        )
        assert sorted({s["dateStr"] for s in later["slots"]}) == days[3:]
        assert {"restaurantId", "date", "restaurantName", "latitude", "longitude"} <= later.keys()

    run(sandbox, form, body)


def test_book_table_answers_an_order_id_and_status_and_cancel_use_it(
    sandbox: SandboxHttpServer, form: str
) -> None:
    async def body(client: Dineout) -> None:
        venue, where, slots = await venue_and_slots(client)
        later = [s for s in slots if s["dateStr"] > TODAY.isoformat()]
        slot = next(s for s in later if s["availableInventory"])
        booked = await client.ok("book_table", **booking(venue, slot, where))
        assert set(booked) == BOOKED_KEYS and "bookingId" not in booked
        assert (booked["isDineout"], booked["status"]) == (True, "CONFIRMED")
        assert booked["reservationTime"] == slot["displayTime"]
        assert booked["reservationDate"] == slot["dateStr"]

        status = await client.ok("get_booking_status", orderId=booked["orderId"])
        assert set(status) == STATUS_KEYS
        assert (status["status"], status["canCancel"], status["guestCount"]) == (
            "CONFIRMED",
            True,
            2,
        )
        assert "Free table reservation" in status["dealTitle"]

        cancelled = await client.ok(
            "cancel_booking", orderId=booked["orderId"], cancellationReason="plans changed"
        )
        assert set(cancelled) == {"orderId", "status", "cancelledAt"}
        assert cancelled["status"] == "CANCELLED"
        after = await client.ok("get_booking_status", orderId=booked["orderId"])
        assert (after["status"], after["canCancel"]) == ("CANCELLED", False)
        assert "Invalid orderId" in await client.refused("get_booking_status", orderId="DO1")

    run(sandbox, form, body)


def test_a_full_slot_and_a_paid_deal_are_refused(sandbox: SandboxHttpServer, form: str) -> None:
    async def body(client: Dineout) -> None:
        venue, where, slots = await venue_and_slots(client)
        full = next(s for s in slots if s["availableInventory"] == 0)
        assert "Slot unavailable" in await client.refused(
            "book_table", **booking(venue, full, where)
        )

        slot = next(s for s in slots if s["availableInventory"] > 0)
        paid = next(d for d in slot["deals"] if not d["isFree"])
        args = {**booking(venue, slot, where), "itemId": paid["itemId"]}
        assert "Paid deal" in await client.refused("book_table", **args)
        upi = {**args, "paymentMethod": "UPI", "intentApp": "gpay://upi/"}
        assert "Paid deal" in await client.refused("book_table", **upi)
        free_by_upi = {**booking(venue, slot, where), "paymentMethod": "UPI"}
        assert "no online payment" in await client.refused("book_table", **free_by_upi)

        # The documented paid flow starts with create_cart; the sandbox stops at its summary.
        cart = await client.ok("create_cart", cartType="DEAL_TICKET_PURCHASE", **args)
        assert cart["availablePaymentMethods"] == [] and cart["paymentOptions"] is None
        assert cart["cart"]["bill"]["billToPay"] == paid["bookingPrice"]
        assert cart["cart"]["cartKey"] == cart["cartKey"] and "not available" in cart["gpoError"]
        free_cart = await client.ok(
            "create_cart", cartType="DEAL_TICKET_PURCHASE", **booking(venue, slot, where)
        )
        assert free_cart["cart"]["bill"]["skipPayment"] is True
        assert "gpoError" not in free_cart
        still = await client.ok(
            "get_available_slots", restaurantId=venue["id"], date=slot["dateStr"], **where
        )
        left = next(s for s in still["slots"] if s["slotId"] == slot["slotId"])
        assert left["availableInventory"] == slot["availableInventory"], "nothing was booked"

    run(sandbox, form, body)


def test_bookings_take_tables_and_cancelling_gives_them_back(
    sandbox: SandboxHttpServer, form: str
) -> None:
    async def main() -> None:
        async with dineout(sandbox, form) as first, dineout(sandbox, form) as second:
            venue, where, slots = await venue_and_slots(first, "asian")
            slot = next(s for s in slots if s["availableInventory"] >= 2)
            tables = slot["availableInventory"]

            async def inventory() -> int:
                fresh = await first.ok(
                    "get_available_slots", restaurantId=venue["id"], date=slot["dateStr"], **where
                )
                found = next(s for s in fresh["slots"] if s["slotId"] == slot["slotId"])
                assert {d["availableInventory"] for d in found["deals"]} == {
                    found["availableInventory"]
                }
                return int(found["availableInventory"])

            mine = await first.ok("book_table", **booking(venue, slot, where))
            assert await inventory() == tables - 1
            assert "already" in await first.refused("book_table", **booking(venue, slot, where))
            await first.ok("cancel_booking", orderId=mine["orderId"])
            assert await inventory() == tables

            # Take every table: the next person gets a "slot unavailable" failure.
            for _ in range(tables):
                async with dineout(sandbox, form) as diner:
                    await diner.ok("book_table", **booking(venue, slot, where))
            assert await inventory() == 0
            assert "Slot unavailable" in await second.refused(
                "book_table", **booking(venue, slot, where)
            )

    anyio.run(main)


def test_the_shared_payment_tools_know_a_booking_is_free(
    sandbox: SandboxHttpServer, form: str
) -> None:
    async def body(client: Dineout) -> None:
        options = await client.ok("get_payment_options")
        assert options["placeOrderToolName"] == "book_table"
        venue, where, slots = await venue_and_slots(client, "cafe")
        slot = next(s for s in slots if s["availableInventory"])
        booked = await client.ok("book_table", **booking(venue, slot, where))
        for tool in ("check_payment_status", "confirm_order"):
            said = await client.refused(tool, paasId="PAAS1", orderId=booked["orderId"])
            assert "free booking" in said and "no UPI payment" in said
        report = await client.ok("report_error", tool="book_table", errorMessage="Slot gone")
        assert report["domain"] == "dineout" and report["mailtoLink"].startswith("mailto:")

    run(sandbox, form, body)
