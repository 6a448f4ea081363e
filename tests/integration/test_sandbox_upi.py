"""UPI in the sandbox: Instamart's checkout and Food's place_food_order answer the documented
pending payment, the simulator page decides it, and only confirm_order places the order, once.

Real peers: the sandbox HTTP server on loopback, its MCP endpoints through the real MCP
client (and a stdio server sharing its database), the simulator page through a real HTTP
client, and a movable shop clock.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from food_mcp import MovableClock
from food_scenarios import dish_in_cart, open_restaurant
from mcp_http import mcp_session
from test_sandbox_scenarios import FIXED_NOW, HOME, Call, call_via, ok, refused
from test_sandbox_stdio import stdio_session

from swiggy_sandbox.servers import SandboxHttpServer
from swiggy_sandbox.shop import Shop
from swiggy_sandbox.shop.upi import payment_calls

PENDING_KEYS = {
    "orderId", "transactionId", "paasId", "upiIntentUrl", "bridgeUrl", "isQrFlow",
    "pollingIntervalInMs", "maxTimeToPollForInMs", "paymentMethod", "status",
}  # fmt: skip
STATUS_KEYS = {
    "paasId", "status", "terminal", "isTerminalSuccess", "isTerminalFailure", "confirmed",
    "orderStatus", "orderId", "cartTotal",
}  # fmt: skip
HTTP_TIMEOUT = 30.0
Body = Callable[[Call], Awaitable[None]]


@dataclass
class Peer:
    """One sandbox on loopback, its clock, and a fresh person's token."""

    sandbox: SandboxHttpServer
    clock: MovableClock
    token: str

    @property
    def shop(self) -> Shop:
        shop: Shop = self.sandbox.app.state.shop
        return shop

    def run(self, key: str, body: Body) -> None:
        """`body(call)` over the real MCP client against this sandbox's `key` endpoint."""

        async def main() -> None:
            async with mcp_session(self.sandbox.url_for(key), self.token) as session:
                await body(call_via(session))

        anyio.run(main)


@pytest.fixture
def peer() -> Iterator[Peer]:
    clock = MovableClock()
    with SandboxHttpServer(clock=clock) as sandbox:
        yield Peer(sandbox, clock, sandbox.store.issue(f"upi-{uuid.uuid4().hex[:8]}"))


async def page(url: str, action: str | None = None) -> httpx2.Response:
    """The simulator page, or the page after posting `action` (pay, fail, pay_confirmed)."""
    async with httpx2.AsyncClient(timeout=HTTP_TIMEOUT) as http:
        if action is None:
            return await http.get(url)
        return await http.post(url, data={"action": action})


async def im_cart(call: Call) -> dict[str, Any]:
    found = await ok(call, "search_products", addressId=HOME, query="amul butter")
    pack = found["products"][0]["variations"][0]
    items = [{"spinId": pack["spinId"], "skuId": pack["skuId"], "quantity": 2}]
    return await ok(call, "update_cart", selectedAddressId=HOME, items=items)


async def im_orders(call: Call) -> list[str]:
    return [o["orderId"] for o in (await ok(call, "get_orders", count=20))["orders"]]


async def im_pending(call: Call, **upi: Any) -> dict[str, Any]:
    """A cart and its UPI checkout (pending); checks nothing was placed."""
    cart = await im_cart(call)
    pending = await ok(call, "checkout", addressId=HOME, paymentMethod="UPI", **upi)
    assert pending["status"] == "PENDING_PAYMENT"
    assert await im_orders(call) == [], "a pending payment places nothing"
    assert (await ok(call, "get_cart"))["items"] == cart["items"], "the cart is kept"
    return pending


def test_instamart_qr_and_intent_answer_the_documented_pending_shape(peer: Peer) -> None:
    async def body(call: Call) -> None:
        options = await ok(call, "get_payment_options")
        assert options["platforms"]["desktop"] == {
            "groupName": "UPI",
            "methods": [
                {
                    "id": "UPI_QR",
                    "groupName": "UPI",
                    "displayName": "Scan a QR with any UPI app",
                    "kind": "qr",
                    "enabled": True,
                }
            ],
        }
        mobile = options["platforms"]["mobile"]["methods"]
        assert [m["kind"] for m in mobile] == ["intent"] * 3 and all(m["enabled"] for m in mobile)
        assert [m["id"] for m in options["allMethods"]] == [
            "COD",
            *(m["id"] for m in mobile),
            "UPI_QR",
        ]
        cart = await im_cart(call)
        qr = await im_pending(call, generateUPIQR=True)
        assert set(qr) >= PENDING_KEYS and qr["paymentMethod"] == "UPI" and qr["isQrFlow"] is True
        assert {"addressId", "cartTotal", "deliveryAddress", "deliveryLabel"} <= set(qr)
        assert (qr["pollingIntervalInMs"], qr["maxTimeToPollForInMs"]) == (5000, 300000)
        assert f"₹{qr['cartTotal']:.2f}" == cart["cartTotalAmount"]
        assert qr["upiIntentUrl"] == (
            "upi://pay?pa=swiggy.sandbox@upi&pn=Swiggy%20Sandbox"
            f"&am={qr['cartTotal']:.2f}&tr={qr['transactionId']}&cu=INR"
        )
        assert qr["bridgeUrl"] == f"{peer.sandbox.base_url}/pay/{qr['paasId']}"
        app = await im_pending(call, intentApp=mobile[1]["id"])
        assert app["isQrFlow"] is False, "an app payment is not a QR"
        assert app["paasId"] != qr["paasId"] and app["orderId"] != qr["orderId"]
        for paas_id in (qr["paasId"], app["paasId"]):  # both are pending at once
            status = await ok(call, "check_payment_status", paasId=paas_id)
            assert set(status) == STATUS_KEYS and status["status"] == "PENDING"
            assert (status["terminal"], status["confirmed"]) == (False, False)

    peer.run("instamart", body)


def test_bad_upi_requests_are_refused_and_create_nothing(peer: Peer) -> None:
    async def body(call: Call) -> None:
        await im_cart(call)
        for bad, why in (
            ({"paymentMethod": "UPI"}, "exactly one of generateUPIQR"),
            (
                {"paymentMethod": "UPI", "generateUPIQR": True, "intentApp": "gpay://upi/"},
                "exactly one of generateUPIQR",
            ),
            ({"paymentMethod": "UPI", "intentApp": "bhim://pay"}, "Invalid intentApp"),
            ({"paymentMethod": "Cash", "generateUPIQR": True}, 'paymentMethod "UPI" only'),
        ):
            message = await refused(call, "checkout", addressId=HOME, **bad)
            assert why in message and "No order was placed" in message, message
        assert await im_orders(call) == [] and (await ok(call, "get_cart"))["items"]
        message = await refused(call, "check_payment_status", paasId="PAAS700001")
        assert "PAAS700001" in message, "no payment was created by a refused checkout"

    peer.run("instamart", body)


def test_pay_then_confirm_places_the_order_once_and_clears_the_cart(peer: Peer) -> None:
    async def body(call: Call) -> None:
        pending = await im_pending(call, generateUPIQR=True)
        paas_id, order_id = pending["paasId"], pending["orderId"]
        confirm = {"orderId": order_id, "paasId": paas_id}
        early = await ok(call, "confirm_order", **confirm)
        assert early["result"] == "pending" and await im_orders(call) == []
        shown = await page(pending["bridgeUrl"])
        assert shown.status_code == 200
        assert f"You are paying ₹{pending['cartTotal']:.2f} to Swiggy (sandbox)" in shown.text
        peer.clock.advance(minutes=2)
        paid = await page(pending["bridgeUrl"], "pay")
        assert paid.status_code == 200 and "You paid" in paid.text
        status = await ok(call, "check_payment_status", paasId=paas_id, orderId=order_id)
        assert (status["status"], status["terminal"], status["isTerminalSuccess"]) == (
            "SUCCESS", True, True
        )  # fmt: skip
        assert status["confirmed"] is False and await im_orders(call) == []
        for _ in range(2):  # idempotent: the same answer, one order
            done = await ok(call, "confirm_order", **confirm)
            assert done == {
                "orderId": order_id, "paasId": paas_id, "orderStatus": "CONFIRMED",
                "result": "success",
            }  # fmt: skip
        assert await im_orders(call) == [order_id]
        assert (await ok(call, "get_cart"))["items"] == []
        placed = (await ok(call, "get_orders"))["orders"][0]
        assert placed["paymentMethod"] == "UPI" and placed["totalAmount"] == pending["cartTotal"]
        assert placed["paymentStatus"] == "PAID", "a UPI order is paid before it is placed"
        at = {"lat": placed["deliveryAddress"]["lat"], "lng": placed["deliveryAddress"]["lng"]}
        tracked = await ok(call, "track_order", orderId=order_id, **at)
        assert tracked["paymentInfo"]["message"] == "Paid by UPI"
        assert placed["createdAt"].startswith("2026-11-24T07:32"), "its clock starts at confirm"
        status = await ok(call, "check_payment_status", paasId=paas_id)
        assert (status["confirmed"], status["orderStatus"]) == (True, "CONFIRMED")
        assert payment_calls(peer.shop, paas_id) == {"checks": 2, "confirms": 3}

    peer.run("instamart", body)


def test_a_failed_payment_never_places_and_confirm_says_failed(peer: Peer) -> None:
    async def body(call: Call) -> None:
        pending = await im_pending(call, intentApp="phonepe://pay")
        failed = await page(pending["bridgeUrl"], "fail")
        assert "failed" in failed.text and "nothing was ordered" in failed.text
        status = await ok(call, "check_payment_status", paasId=pending["paasId"])
        assert (status["status"], status["terminal"], status["isTerminalFailure"]) == (
            "FAILED", True, True
        )  # fmt: skip
        confirm = {"orderId": pending["orderId"], "paasId": pending["paasId"]}
        assert (await ok(call, "confirm_order", **confirm))["result"] == "failed"
        again = await page(pending["bridgeUrl"], "pay")
        assert again.status_code == 409 and "already failed" in again.text
        assert await im_orders(call) == [] and (await ok(call, "get_cart"))["items"]

    peer.run("instamart", body)


def test_an_undecided_payment_expires_on_the_sandbox_clock(peer: Peer) -> None:
    async def body(call: Call) -> None:
        pending = await im_pending(call, generateUPIQR=True)
        peer.clock.advance(minutes=4, seconds=59)
        status = await ok(call, "check_payment_status", paasId=pending["paasId"])
        assert status["status"] == "PENDING"
        peer.clock.advance(seconds=1)
        status = await ok(call, "check_payment_status", paasId=pending["paasId"])
        assert (status["status"], status["terminal"], status["isTerminalFailure"]) == (
            "EXPIRED", True, True
        )  # fmt: skip
        confirm = {"orderId": pending["orderId"], "paasId": pending["paasId"]}
        assert (await ok(call, "confirm_order", **confirm))["result"] == "failed"
        assert "expired" in (await page(pending["bridgeUrl"])).text
        assert (await page(pending["bridgeUrl"], "pay")).status_code == 409
        assert await im_orders(call) == []

    peer.run("instamart", body)


def test_food_upi_pays_and_is_confirmed_by_swiggy_itself(peer: Peer) -> None:
    async def body(call: Call) -> None:
        place = await open_restaurant(call, "biryani")
        found = await ok(call, "search_menu", addressId=HOME, query="biryani",
                         restaurantIdOfAddedItem=place["id"])  # fmt: skip
        dish = next(i for i in found["items"] if i["inStock"])
        await dish_in_cart(call, place, dish, 2)
        cart = (await ok(call, "get_food_cart", addressId=HOME))["data"]
        pending = await ok(
            call, "place_food_order", addressId=HOME, paymentMethod="UPI", generateUPIQR=True
        )
        assert set(pending) >= PENDING_KEYS and pending["normalizedStatus"] == "pending"
        assert pending["totalAmount"] == cart["pricing"]["to_pay"]
        assert (pending["addressId"], pending["cartId"]) == (HOME, cart["cart_id"])
        assert pending["restaurantName"] == place["name"] and "lat" in pending
        assert (await ok(call, "get_food_orders", addressId=HOME))["orders"] == []
        assert (await ok(call, "track_food_order"))["orders"] == []
        message = await refused(
            call, "place_food_order", addressId=HOME, paymentMethod="UPI", intentApp="x://"
        )
        assert "Invalid intentApp" in message
        await page(pending["bridgeUrl"], "pay_confirmed")
        echoes = {"addressId": HOME, "lat": pending["lat"], "lng": pending["lng"]}
        status = await ok(call, "check_payment_status", paasId=pending["paasId"], **echoes)
        assert (status["status"], status["confirmed"], status["orderStatus"]) == (
            "SUCCESS", True, "CONFIRMED"
        )  # fmt: skip
        assert status["addressId"] == HOME, "Food's echoes come back"
        history = (await ok(call, "get_food_orders", addressId=HOME))["orders"]
        assert [o["orderId"] for o in history] == [pending["orderId"]]
        assert (await ok(call, "get_food_cart", addressId=HOME))["data"]["items"] == []
        confirm = {"orderId": pending["orderId"], **echoes}
        assert (await ok(call, "confirm_order", **confirm))["result"] == "success"
        history = (await ok(call, "get_food_orders", addressId=HOME))["orders"]
        assert len(history) == 1, "confirming a Swiggy-confirmed order places nothing more"

    peer.run("food", body)


def test_unknown_payments_are_refused_on_the_tools_and_the_page(peer: Peer) -> None:
    async def body(call: Call) -> None:
        assert "PAAS-nope" in await refused(call, "check_payment_status", paasId="PAAS-nope")
        message = await refused(call, "confirm_order", orderId="IM1", paasId="PAAS-nope")
        assert "no such" in message
        missing = await page(f"{peer.sandbox.base_url}/pay/<script>PAAS-nope")
        assert missing.status_code == 404 and "&lt;script&gt;PAAS-nope" in missing.text

    peer.run("instamart", body)


def test_a_payment_started_over_stdio_is_decided_on_the_http_page(tmp_path: Path) -> None:
    """Both transports share one shop database: the page decides what stdio started."""
    database = f"sqlite:///{tmp_path / 'shop.db'}"
    with SandboxHttpServer(db_url=database, clock=lambda: FIXED_NOW) as sandbox:
        env = {"SWIGGY_SANDBOX_DB": database, "SWIGGY_SANDBOX_BASE_URL": sandbox.base_url}

        async def main() -> None:
            async with stdio_session("instamart", **env) as session:
                call = call_via(session)
                pending = await im_pending(call, generateUPIQR=True)
                assert pending["bridgeUrl"].startswith(f"{sandbox.base_url}/pay/")
                assert "You are paying" in (await page(pending["bridgeUrl"])).text
                await page(pending["bridgeUrl"], "pay")
                status = await ok(call, "check_payment_status", paasId=pending["paasId"])
                assert status["isTerminalSuccess"] is True
                confirm = {"orderId": pending["orderId"], "paasId": pending["paasId"]}
                assert (await ok(call, "confirm_order", **confirm))["result"] == "success"
                assert await im_orders(call) == [pending["orderId"]]

        anyio.run(main)


def test_confirms_from_two_sessions_at_once_place_one_order(peer: Peer) -> None:
    """Two tabs watching one payment may both confirm it: the sandbox places it once."""

    async def confirm_in_new_session(confirm: dict[str, Any], answers: list[str]) -> None:
        async with mcp_session(peer.sandbox.url_for("instamart"), peer.token) as session:
            answers.append((await ok(call_via(session), "confirm_order", **confirm))["result"])

    async def body(call: Call) -> None:
        pending = await im_pending(call, generateUPIQR=True)
        await page(pending["bridgeUrl"], "pay")
        confirm = {"orderId": pending["orderId"], "paasId": pending["paasId"]}
        answers: list[str] = []
        async with anyio.create_task_group() as tabs:
            for _ in range(4):
                tabs.start_soon(confirm_in_new_session, confirm, answers)
        assert answers == ["success"] * 4
        assert await im_orders(call) == [pending["orderId"]]
        assert payment_calls(peer.shop, pending["paasId"])["confirms"] == 4

    peer.run("instamart", body)
