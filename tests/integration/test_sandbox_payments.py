"""The shared payment and support tools, and the shared address tools, over a real MCP client.

`register_payment_tools` is exercised for each domain on a bare sandbox server, so these
tests do not depend on which servers call it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import unquote

import anyio
import pytest
from mcp import Client
from test_sandbox_instamart import Call, data, envelope_of
from test_sandbox_scenarios import FIXED_NOW, HOME

from swiggy_core.logsafe import register_secret
from swiggy_sandbox.catalog import haversine_km
from swiggy_sandbox.catalog.seeds import LOCALITIES
from swiggy_sandbox.servers import SandboxServer, build_server
from swiggy_sandbox.servers.addresses import register_address_tools
from swiggy_sandbox.servers.payments import register_payment_tools
from swiggy_sandbox.shop import Shop
from swiggy_sandbox.shop.addresses import CITY_CENTRE

SECRET = "sbx_report-secret-1234567890"
NEW_ADDRESS = {
    "fullAddress": "House 7, 2nd Cross, HSR Layout, Bengaluru 560102",
    "addressLine": "House 7",
    "addressLine2": "2nd Cross",
    "city": "Bengaluru",
    "postalCode": "560102",
    "addressCategory": "FRIENDS_AND_FAMILY",
    "userName": "Asha",
    "userPhone": "+91 98765 43210",
}


def run(
    server_of: Callable[[Shop], SandboxServer], body: Callable[[Call], Awaitable[None]]
) -> None:
    async def main() -> None:
        shop = Shop(clock=lambda: FIXED_NOW)
        async with Client(server_of(shop)) as client:

            async def call(name: str, **arguments: Any) -> tuple[dict[str, Any], bool]:
                result = await client.call_tool(name, arguments)
                return envelope_of(result), bool(result.is_error)

            await body(call)
        shop.close()

    anyio.run(main)


def bare(domain: Any) -> Callable[[Shop], SandboxServer]:
    """A server with only the shared tools of `domain`."""

    def build(shop: Shop) -> SandboxServer:
        server = SandboxServer(f"bare-{domain}", "demo")
        register_payment_tools(server, shop, domain)
        register_address_tools(server, shop)
        return server

    return build


def instamart(shop: Shop) -> SandboxServer:
    return build_server("instamart", shop)


async def refused(call: Call, name: str, **arguments: Any) -> str:
    envelope, is_error = await call(name, **arguments)
    assert envelope["success"] is False and not is_error, envelope
    return str(envelope["error"]["message"])


@pytest.mark.parametrize(
    ("domain", "tool", "cash", "upi"),
    [
        ("im", "checkout", "COD", True),
        ("food", "place_food_order", "COD", True),
        ("dineout", "book_table", "Cash", False),
    ],
)
def test_payment_options_offer_cash_and_upi_but_dineout_lists_upi_switched_off(
    domain: str, tool: str, cash: str, upi: bool
) -> None:
    async def body(call: Call) -> None:
        options = await data(call, "get_payment_options", addressId=HOME)
        assert options["placeOrderToolName"] == tool
        assert options["cod"] == {
            "available": True,
            "id": cash,
            "displayName": options["cod"]["displayName"],
        }
        methods = options["platforms"]["mobile"]["methods"]
        methods += options["platforms"]["desktop"]["methods"]
        assert methods and all(m["groupName"] == "UPI" and m["enabled"] is upi for m in methods)
        assert {m["kind"] for m in methods} == {"intent", "qr"}
        enabled = [m["id"] for m in options["allMethods"] if m["enabled"]]
        assert enabled == [cash, *(m["id"] for m in methods if upi)]
        assert options["paymentAmount"] is None  # a bare server knows no cart
        assert ("addressId" in options) is (domain == "food")  # Food echoes it back
        message = await refused(call, "check_payment_status", paasId="PAAS-42")
        assert "PAAS-42" in message and "no such payment" in message
        confirm = {"orderId": "O1", "paasId": "PAAS-42"}
        if domain == "food":
            confirm = {"orderId": "O1", "addressId": HOME, "lat": 12.97, "lng": 77.64}
        assert "no such payment" in await refused(call, "confirm_order", **confirm)

    run(bare(domain), body)


def test_payment_amount_follows_the_instamart_cart_and_cash_orders_need_no_confirm() -> None:
    async def body(call: Call) -> None:
        assert (await data(call, "get_payment_options"))["paymentAmount"] is None
        found = await data(call, "search_products", addressId=HOME, query="paneer")
        pack = found["products"][0]["variations"][0]
        items = [{"spinId": pack["spinId"], "skuId": pack["skuId"], "quantity": 2}]
        cart = await data(call, "update_cart", selectedAddressId=HOME, items=items)
        options = await data(call, "get_payment_options")
        assert options["paymentAmount"] == cart["billBreakdown"]["toPay"]["value"]
        order = await data(call, "checkout", addressId=HOME, paymentMethod="Cash")
        message = await refused(call, "confirm_order", orderId=order["orderId"], paasId="P1")
        assert "cash on delivery" in message and "needs no confirmation" in message
        message = await refused(call, "check_payment_status", paasId="P1", orderId=order["orderId"])
        assert order["orderId"] in message

    run(instamart, body)


def test_report_error_gives_a_mailto_link_and_logs_without_secrets(
    caplog: pytest.LogCaptureFixture,
) -> None:
    register_secret(SECRET)

    async def body(call: Call) -> None:
        report = await data(
            call,
            "report_error",
            tool="checkout",
            errorMessage=f"Failed with Authorization: Bearer {SECRET}",
            flowDescription="searched milk → added → checkout failed",
            toolContext={"orderId": "IM410001", "accessToken": "plain-looking-value", "n": 2},
            userNotes=f"my token is {SECRET}",
        )
        assert set(report) == {"reportId", "domain", "summary", "mailtoLink", "loggedAt"}
        assert report["domain"] == "im" and report["reportId"].startswith("ERR")
        summary = report["summary"]
        assert "Tool: checkout" in summary and "orderId: IM410001" in summary
        assert "accessToken: ***" in summary
        link = report["mailtoLink"]
        assert link.startswith("mailto:") and "checkout" in unquote(link)
        shown = json.dumps(report) + unquote(link)
        assert SECRET not in shown and "plain-looking-value" not in shown
        other = await data(
            call, "report_error", tool="book_table", errorMessage="x", domain="dineout"
        )
        assert other["domain"] == "dineout" and other["reportId"] != report["reportId"]
        assert "Invalid domain" in await refused(
            call, "report_error", tool="x", errorMessage="y", domain="mars"
        )

    with caplog.at_level(logging.WARNING, logger="swiggy_sandbox.servers.payments"):
        run(instamart, body)
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "Tool: checkout" in logged and "IM410001" in logged
    assert SECRET not in logged and "plain-looking-value" not in logged


def test_addresses_are_paginated_and_carry_tag_and_category() -> None:
    async def body(call: Call) -> None:
        first = await data(call, "get_addresses", page=1, pageSize=2)
        assert [a["addressTag"] for a in first["addresses"]] == ["Home", "Work"]
        assert [a["addressCategory"] for a in first["addresses"]] == ["HOME", "WORK"]
        for address in first["addresses"]:
            # The documented record, plus the point the app needs for track_order and Dineout.
            assert set(address) == {
                "id", "addressLine", "phoneNumber", "addressCategory", "addressTag", "lat", "lng",
            }  # fmt: skip
        second = await data(call, "get_addresses", page=2, pageSize=2)
        assert [a["addressTag"] for a in second["addresses"]] == ["Other"]
        assert second["pagination"] == {
            "page": 2, "pageSize": 2, "total": 3, "totalPages": 2, "hasMore": False,
        }  # fmt: skip
        beyond = await data(call, "get_addresses", page=3, pageSize=2)
        assert beyond["addresses"] == [] and beyond["pagination"]["hasMore"] is False

    run(bare("food"), body)


def test_create_address_validates_geocodes_and_delete_reports_status() -> None:
    async def body(call: Call) -> None:
        made = await data(call, "create_address", **NEW_ADDRESS)
        assert set(made) == {"addressId"}
        listed = (await data(call, "get_addresses"))["addresses"]
        new = next(a for a in listed if a["id"] == made["addressId"])
        assert (new["addressTag"], new["addressCategory"], new["phoneNumber"]) == (
            "Friends and family", "FRIENDS_AND_FAMILY", "9876543210",
        )  # fmt: skip
        assert (new["lat"], new["lng"]) == LOCALITIES["HSR Layout"]  # geocoded by locality
        elsewhere = {
            **NEW_ADDRESS,
            "fullAddress": "Flat 3, Somewhere Nagar, Bengaluru 560099",
            "postalCode": "560099",
            "addressTag": "Gym",
        }
        gym = await data(call, "create_address", **elsewhere)
        listed = (await data(call, "get_addresses"))["addresses"]
        spot = next(a for a in listed if a["id"] == gym["addressId"])
        assert spot["addressTag"] == "Gym"
        assert haversine_km(spot["lat"], spot["lng"], *CITY_CENTRE) < 10
        given = await data(call, "create_address", **NEW_ADDRESS, latitude=12.95, longitude=77.6)
        listed = (await data(call, "get_addresses"))["addresses"]
        point = next(a for a in listed if a["id"] == given["addressId"])
        assert (point["lat"], point["lng"]) == (12.95, 77.6)
        for change, says in (
            ({"city": "Mumbai"}, "Invalid city"),
            ({"postalCode": "400001"}, "Invalid postalCode"),
            ({"postalCode": "5600"}, "Invalid postalCode"),
            ({"userPhone": "12345"}, "Invalid userPhone"),
            ({"userName": "  "}, "Missing userName"),
            ({"latitude": 12.9}, "both latitude and longitude"),
            ({"latitude": 19.07, "longitude": 72.87}, "Bengaluru"),
        ):
            assert says in await refused(call, "create_address", **{**NEW_ADDRESS, **change})
        envelope, is_error = await call(
            "create_address", **{**NEW_ADDRESS, "addressCategory": "HOUSE"}
        )
        assert is_error and "Invalid addressCategory" in envelope["error"]["message"]
        deleted = await data(call, "delete_address", addressId=gym["addressId"])
        assert deleted == {"statusCode": 200, "statusMessage": "Address deleted successfully"}
        assert "not found" in await refused(call, "delete_address", addressId=gym["addressId"])

    run(instamart, body)
