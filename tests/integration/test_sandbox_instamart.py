"""Instamart's 19 tools as Swiggy documents them, over a real MCP client (in memory):
the declared arguments, the refusals of bad ones, and the output fields and nesting."""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
from mcp import Client
from test_sandbox_scenarios import FIXED_NOW, HOME

from swiggy_sandbox.servers import build_server
from swiggy_sandbox.shop import Shop

Call = Callable[..., Awaitable[tuple[dict[str, Any], bool]]]
MONEY = re.compile(r"^-?₹\d+\.\d{2}$")
# Required arguments per tool, as Swiggy's reference lists them.
REQUIRED = {
    "get_addresses": [],
    "create_address": [
        "fullAddress", "addressLine", "addressLine2", "city", "postalCode", "addressCategory",
        "userName", "userPhone",
    ],
    "delete_address": ["addressId"],
    "search_products": ["addressId", "query"],
    "your_go_to_items": ["addressId"],
    "get_cart": [],
    "update_cart": ["selectedAddressId", "items"],
    "clear_cart": [],
    "list_coupons": ["addressId"],
    "apply_coupon": ["couponCode"],
    "get_payment_options": [],
    "check_payment_status": ["paasId"],
    "confirm_order": ["orderId", "paasId"],
    "checkout": ["addressId"],
    "track_order": ["orderId", "lat", "lng"],
    "get_delivery_status": ["orderId", "addressId"],
    "get_orders": [],
    "get_order_details": ["orderId"],
    "report_error": ["tool", "errorMessage"],
}  # fmt: skip
TYPES = {
    ("get_addresses", "page"): "integer",
    ("get_addresses", "pageSize"): "integer",
    ("search_products", "offset"): "integer",
    ("your_go_to_items", "offset"): "integer",
    ("update_cart", "items"): "array",
    ("checkout", "generateUPIQR"): "boolean",
    ("track_order", "lat"): "number",
    ("track_order", "lng"): "number",
    ("get_orders", "count"): "integer",
    ("get_orders", "activeOnly"): "boolean",
}
PRODUCT_KEYS = {
    "displayName", "brand", "inStock", "isAvail", "productId", "parentProductId", "variations",
}  # fmt: skip
VARIATION_KEYS = {
    "spinId", "skuId", "quantityDescription", "displayName", "brandName", "price",
    "isInStockAndAvailable", "imageUrl", "rating", "sla", "vegClassifier", "maxQuantity",
    "maxQuantityMessage",
}  # fmt: skip
ITEM_KEYS = {
    "spinId", "skuId", "productId", "itemName", "itemVariant", "quantity",
    "isInStockAndAvailable", "mrp", "discountedFinalPrice", "imageUrl", "maxQuantity",
    "maxQuantityMessage",
}  # fmt: skip
CART_KEYS = {
    "selectedAddress", "selectedAddressDetails", "cartTotalAmount", "items", "billBreakdown",
    "cartId", "addressWarning", "unserviceableItems", "cartAbsent", "cartAbsentReason",
    "cartWarning", "availablePaymentMethods", "paymentOptions", "removedOutOfStockItems",
    "reducedQuantityItems",
}  # fmt: skip
ORDER_KEYS = {
    "orderId", "status", "createdAt", "updatedAt", "estimatedDeliveryTime", "itemCount",
    "totalAmount", "deliveryAddress", "paymentMethod", "orderType", "isActive", "currentStatus",
    "statusMessage", "historyStatus", "storeName", "items", "billDetails", "paymentStatus",
    "refundStatus",
}  # fmt: skip


def envelope_of(result: Any) -> dict[str, Any]:
    """The Swiggy envelope of a result in either form: the JSON text, or a summary text with
    the data in `structuredContent` (failures stay envelope text in both)."""
    structured = result.structured_content
    if structured is not None:
        return structured if "success" in structured else {"success": True, "data": structured}
    return dict(json.loads(result.content[0].text))


def run(body: Callable[[Call, list[Any]], Awaitable[None]]) -> None:
    """`body(call, tools)` against a fresh Instamart server through an MCP client."""

    async def main() -> None:
        shop = Shop(clock=lambda: FIXED_NOW)
        async with Client(build_server("instamart", shop)) as client:

            async def call(name: str, **arguments: Any) -> tuple[dict[str, Any], bool]:
                result = await client.call_tool(name, arguments)
                return envelope_of(result), bool(result.is_error)

            await body(call, (await client.list_tools()).tools)
        shop.close()

    anyio.run(main)


async def data(call: Call, name: str, **arguments: Any) -> dict[str, Any]:
    envelope, is_error = await call(name, **arguments)
    assert envelope["success"] is True and not is_error, (name, envelope)
    return envelope["data"]


async def bad_input(call: Call, name: str, **arguments: Any) -> str:
    """A call refused before it ran: an MCP error carrying the failure envelope."""
    envelope, is_error = await call(name, **arguments)
    assert is_error and envelope["success"] is False, envelope
    return str(envelope["error"]["message"])


async def refused(call: Call, name: str, **arguments: Any) -> str:
    """A domain failure: a normal result whose envelope says success false."""
    envelope, is_error = await call(name, **arguments)
    assert not is_error and envelope == {"success": False, "error": envelope["error"]}
    return str(envelope["error"]["message"])


async def a_cart(call: Call, quantity: int = 2, query: str = "amul butter") -> dict[str, Any]:
    found = await data(call, "search_products", addressId=HOME, query=query)
    pack = found["products"][0]["variations"][0]
    items = [{"spinId": pack["spinId"], "skuId": pack["skuId"], "quantity": quantity}]
    return await data(call, "update_cart", selectedAddressId=HOME, items=items)


def test_the_documented_arguments_are_declared() -> None:
    async def body(call: Call, tools: list[Any]) -> None:
        schemas = {tool.name: tool.input_schema for tool in tools}
        assert set(schemas) == set(REQUIRED)
        for name, required in REQUIRED.items():
            assert sorted(schemas[name].get("required", [])) == sorted(required), name
        for (name, argument), kind in TYPES.items():
            assert schemas[name]["properties"][argument]["type"] == kind, (name, argument)
        category = schemas["create_address"]["properties"]["addressCategory"]
        assert category["enum"] == ["HOME", "WORK", "OFFICE", "FRIENDS_AND_FAMILY", "OTHER"]
        line = schemas["update_cart"]["$defs"]["CartItem"]
        assert sorted(line["required"]) == ["quantity", "spinId"]
        assert line["properties"]["quantity"]["type"] == "integer"

    run(body)


def test_missing_and_mistyped_arguments_are_refused_before_anything_runs() -> None:
    async def body(call: Call, tools: list[Any]) -> None:
        assert "Missing query" in await bad_input(call, "search_products", addressId=HOME)
        message = await bad_input(call, "search_products", addressId=HOME, query="x", offset="ten")
        assert "Invalid offset" in message
        assert "Missing query" in await refused(call, "search_products", addressId=HOME, query=" ")
        assert "Missing addressId" in await bad_input(call, "your_go_to_items")
        assert "Missing items" in await bad_input(call, "update_cart", selectedAddressId=HOME)
        no_spin = [{"skuId": "x", "quantity": 1}]
        message = await bad_input(call, "update_cart", selectedAddressId=HOME, items=no_spin)
        assert "Missing items.0.spinId" in message
        assert "Missing addressId" in await bad_input(call, "checkout")
        message = await bad_input(call, "track_order", orderId="IM1")
        assert "Missing lat" in message and "Missing lng" in message
        message = await bad_input(call, "get_delivery_status", orderId="IM1")
        assert "Missing addressId" in message
        assert "Missing orderId" in await bad_input(call, "get_order_details")
        assert "Missing addressId" in await bad_input(call, "list_coupons")
        assert "Missing couponCode" in await bad_input(call, "apply_coupon")
        assert "Missing addressId" in await bad_input(call, "delete_address")
        assert "Missing paasId" in await bad_input(call, "check_payment_status")
        assert "Missing paasId" in await bad_input(call, "confirm_order", orderId="IM1")
        assert "Missing errorMessage" in await bad_input(call, "report_error", tool="checkout")
        assert "Invalid activeOnly" in await bad_input(call, "get_orders", activeOnly="maybe")
        assert "Invalid count" in await refused(call, "get_orders", count=0)
        assert "Invalid orderType" in await refused(call, "get_orders", orderType="FOOD")
        assert "Missing fullAddress" in await bad_input(call, "create_address")
        assert "Invalid pageSize" in await refused(call, "get_addresses", pageSize=11)
        assert "Invalid page" in await refused(call, "get_addresses", page=0)

    run(body)


def test_search_and_go_to_items_return_search_products() -> None:
    async def body(call: Call, tools: list[Any]) -> None:
        found = await data(call, "search_products", addressId=HOME, query="milk")
        assert set(found) == {"nextOffset", "products", "similarProducts"}
        assert found["nextOffset"] == "10"  # a string, as documented
        for product in found["products"] + found["similarProducts"]:
            assert set(product) == PRODUCT_KEYS
            assert product["parentProductId"] and product["variations"]
            assert product["inStock"] == any(
                v["isInStockAndAvailable"] for v in product["variations"]
            )
            for variation in product["variations"]:
                assert set(variation) <= VARIATION_KEYS
                assert variation["brandName"] == product["brand"]
                assert set(variation["price"]) == {"mrp", "offerPrice"}
                assert variation["price"]["offerPrice"] <= variation["price"]["mrp"]
        last = await data(call, "search_products", addressId=HOME, query="milk", offset=30)
        assert last["nextOffset"] == ""
        staples = await data(call, "your_go_to_items", addressId=HOME)
        assert staples["products"] and all(set(p) == PRODUCT_KEYS for p in staples["products"])
        assert "not found" in await refused(call, "your_go_to_items", addressId="addr_nope")

    run(body)


def test_the_cart_has_documented_lines_and_a_bill_in_rupee_strings() -> None:
    async def body(call: Call, tools: list[Any]) -> None:
        empty = await data(call, "get_cart")
        assert empty["items"] == [] and empty["cartAbsent"] is True
        assert empty["billBreakdown"]["toPay"]["value"] == "₹0.00"
        cart = await a_cart(call, quantity=2)
        assert set(cart) <= CART_KEYS
        (line,) = cart["items"]
        assert set(line) <= ITEM_KEYS and line["itemName"] and line["quantity"] == 2
        assert line["discountedFinalPrice"] <= line["mrp"]
        bill = cart["billBreakdown"]
        assert all(set(entry) == {"label", "value"} for entry in bill["lineItems"])
        assert all(MONEY.match(entry["value"]) for entry in bill["lineItems"])
        assert bill["toPay"]["label"] == "To Pay" and MONEY.match(bill["toPay"]["value"])
        assert bill["lineItems"][0] == {
            "label": "Item Total",
            "value": f"₹{2 * line['discountedFinalPrice']:.2f}",
        }
        assert cart["cartTotalAmount"] == bill["toPay"]["value"]
        assert cart["selectedAddress"] == HOME and cart["availablePaymentMethods"] == ["COD"]
        details = cart["selectedAddressDetails"]
        assert (details["id"], details["annotation"], details["category"]) == (
            HOME, "Home", "HOME",
        )  # fmt: skip
        assert await data(call, "get_cart") == cart
        capped = await a_cart(call, quantity=9)
        (reduced,) = capped["reducedQuantityItems"]
        assert set(reduced) == {
            "spinId",
            "itemName",
            "requestedQuantity",
            "cappedQuantity",
            "reason",
        }
        assert (reduced["requestedQuantity"], capped["items"][0]["quantity"]) == (9, 5)
        cleared = await data(call, "clear_cart")
        assert cleared["items"] == [] and (await data(call, "get_cart"))["items"] == []

    run(body)


def test_coupons_need_a_cart_and_show_in_the_bill() -> None:
    async def body(call: Call, tools: list[Any]) -> None:
        assert "empty" in await refused(call, "list_coupons", addressId=HOME)
        assert "empty" in await refused(call, "apply_coupon", couponCode="SAVE10")
        await a_cart(call, quantity=4)
        coupons = (await data(call, "list_coupons", addressId=HOME))["availableCoupons"]
        for coupon in coupons:
            assert {"couponCode", "title", "isApplicable", "applicabilityStatus"} <= set(coupon)
            assert set(coupon["tnc"]) == {"title", "bulletTexts"}
        usable = next(c for c in coupons if c["isApplicable"])
        cart = await data(call, "apply_coupon", couponCode=usable["couponCode"].lower())
        discount = next(e for e in cart["billBreakdown"]["lineItems"] if "Coupon" in e["label"])
        assert usable["couponCode"] in discount["label"] and discount["value"].startswith("-₹")
        listed = (await data(call, "list_coupons", addressId=HOME))["availableCoupons"]
        statuses = {c["couponCode"]: c["applicabilityStatus"] for c in listed}
        assert statuses[usable["couponCode"]] == "APPLIED"
        assert "Invalid couponCode" in await refused(call, "apply_coupon", couponCode="NOPE")

    run(body)


def test_checkout_takes_cash_or_upi_and_costs_what_the_cart_said() -> None:
    async def body(call: Call, tools: list[Any]) -> None:
        cart = await a_cart(call, quantity=3)
        message = await refused(call, "checkout", addressId=HOME, paymentMethod="SwiggyPay")
        assert "SwiggyPay" in message and "not supported" in message
        message = await refused(call, "checkout", addressId=HOME, paymentMethod="UPI")
        assert "exactly one of" in message, "UPI needs a QR or an app"
        message = await refused(call, "checkout", addressId=HOME, intentApp="gpay://upi/")
        assert 'paymentMethod "UPI"' in message
        assert "Invalid paymentMethod" in await refused(
            call, "checkout", addressId=HOME, paymentMethod="card"
        )
        assert (await data(call, "get_cart"))["items"], "a refused checkout keeps the cart"
        order = await data(call, "checkout", addressId=HOME)  # paymentMethod defaults to cash
        assert set(order) == {
            "orderId", "status", "paymentMethod", "cartTotal", "addressId", "deliveryAddress",
            "deliveryLabel",
        }  # fmt: skip
        assert (order["status"], order["paymentMethod"], order["addressId"]) == (
            "CONFIRMED", "COD", HOME,
        )  # fmt: skip
        assert f"₹{order['cartTotal']:.2f}" == cart["billBreakdown"]["toPay"]["value"]
        assert order["deliveryLabel"] == "Home"

    run(body)


def test_orders_details_tracking_and_delivery_status() -> None:
    async def body(call: Call, tools: list[Any]) -> None:
        cart = await a_cart(call, quantity=2)
        order = await data(call, "checkout", addressId=HOME, paymentMethod="COD")
        listed = await data(call, "get_orders", count=1, orderType="INSTAMART")
        assert listed["hasMore"] is False
        (record,) = listed["orders"]
        assert set(record) <= ORDER_KEYS and record["orderId"] == order["orderId"]
        assert (record["totalAmount"], record["isActive"], record["orderType"]) == (
            order["cartTotal"], True, "DASH",
        )  # fmt: skip
        bill = record["billDetails"]
        assert set(bill) == {"itemTotal", "deliveryFee", "packagingFee", "grandTotal"}
        assert bill["grandTotal"] == bill["itemTotal"] + bill["deliveryFee"] + bill["packagingFee"]
        assert record["items"][0]["quantity"] == 2
        details = await data(call, "get_order_details", orderId=order["orderId"])
        assert set(details) == {"orderId", "status", "totalBill", "hasRefunds", "items", "bill"}
        assert details["totalBill"] == order["cartTotal"] and details["hasRefunds"] is False
        assert set(details["items"][0]) == {"name", "quantity", "finalPrice", "removed"}
        assert details["bill"]["grandTotal"] == cart["cartTotalAmount"]
        assert all(set(e) == {"name", "amount"} for e in details["bill"]["lineItems"])
        tracked = await data(call, "track_order", orderId=order["orderId"], lat=12.97, lng=77.64)
        assert tracked["pollingIntervalSeconds"] >= 10 and tracked["itemCount"] == 2
        assert {"statusMessage", "etaMinutes", "etaText"} <= set(tracked["status"])
        assert set(tracked["items"][0]) == {"name", "quantity", "price"}
        assert MONEY.match(tracked["items"][0]["price"])
        where = tracked["mapInfo"]["deliveryLocation"]
        assert where == {"latitude": 12.97, "longitude": 77.64}
        assert tracked["deliveryInfo"]["addressLabel"] == "Home"
        status = await data(call, "get_delivery_status", orderId=order["orderId"], addressId=HOME)
        assert (status["orderId"], status["delivered"]) == (order["orderId"], False)
        assert status["pollingIntervalSeconds"] >= 10
        for tool in ("get_order_details", "track_order"):
            where_args = {"lat": 12.97, "lng": 77.64} if tool == "track_order" else {}
            message = await refused(call, tool, orderId="IM999999", **where_args)
            assert "Invalid orderId" in message

    run(body)
