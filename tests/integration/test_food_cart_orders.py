"""The Food cart, coupons, orders and tracking over a real MCP client: shapes and money."""

from __future__ import annotations

from typing import Any

from food_mcp import MovableClock, run_food
from food_scenarios import (
    CART_ITEM_FIELDS,
    HOME,
    PRICING_FIELDS,
    Call,
    customisable_dish,
    dish_in_cart,
    money_adds_up,
    ok,
    open_restaurant,
    refused,
)

from swiggy_sandbox.catalog import haversine_km, load_catalog
from swiggy_sandbox.shop.food_rules import MAX_DELIVERY_KM

Schemas = dict[str, dict[str, Any]]
WORK = "addr_work_koramangala"


async def _cart_of(call: Call, query: str, quantity: int = 1) -> tuple[dict[str, Any], ...]:
    """An open restaurant, one of its customisable dishes, and the cart holding it."""
    place = await open_restaurant(call, query)
    dish = await customisable_dish(call, place, query)
    return place, dish, await dish_in_cart(call, place, dish, quantity)


def test_the_cart_nests_under_data_data_with_pricing_in_rupees() -> None:
    async def body(call: Call, tools: Schemas, clock: MovableClock) -> None:
        place, dish, updated = await _cart_of(call, "biryani", quantity=3)
        assert set(updated) == {"data", "statusCode", "statusMessage"}
        cart = updated["data"]
        assert cart["restaurant"]["id"] == place["id"] and cart["item_count"] == 3
        (item,) = cart["items"]
        assert set(item) >= CART_ITEM_FIELDS and "variantsV2" in item
        assert (
            item["final_price"] == dish["price"] / 100 and item["total"] == 3 * dish["price"] / 100
        )
        assert item["valid_addons"][0]["choices"], "add-ons valid for the chosen variant"
        assert set(cart["pricing"]) == PRICING_FIELDS and money_adds_up(cart["pricing"])
        assert cart["offers"] == {
            "coupon_applied": None,
            "coupon_discount": 0,
            "free_delivery_applied": False,
        }
        read = await ok(call, "get_food_cart", addressId=HOME)
        assert read["data"]["cart_id"] == cart["cart_id"] and read["addressId"] == HOME
        assert read["paymentOptions"]["allMethods"][0]["groupName"] == "Cash"
        # Another address changes the delivery charge, never the items.
        far = await ok(call, "get_food_cart", addressId=WORK)
        assert far["data"]["items"] == read["data"]["items"] and far["addressId"] == WORK
        removed = await dish_in_cart(call, place, dish, 0)
        assert removed["data"]["items"] == [] and removed["data"]["pricing"]["to_pay"] == 0
        empty = await ok(call, "get_food_cart", addressId=HOME)
        assert empty["data"]["restaurant"] is None and empty["availablePaymentMethods"] == []

    run_food(body)


def test_one_restaurant_per_cart() -> None:
    async def body(call: Call, tools: Schemas, clock: MovableClock) -> None:
        first, _, _ = await _cart_of(call, "biryani")
        second, dish, switched = await _cart_of(call, "pizza")
        assert first["id"] != second["id"]
        assert first["name"] in switched["statusMessage"] and "flushed" in switched["statusMessage"]
        read = (await ok(call, "get_food_cart", addressId=HOME))["data"]
        assert read["restaurant"]["id"] == second["id"]
        assert [i["menu_item_id"] for i in read["items"]] == [dish["menu_item_id"]]
        assert "Invalid menu_item_id" in await refused(
            call,
            "update_food_cart",
            restaurantId=first["id"],
            addressId=HOME,
            cartItems=[{"menu_item_id": dish["menu_item_id"], "quantity": 1}],
        )

    run_food(body)


def test_coupons_are_cash_friendly_and_discount_in_rupees() -> None:
    async def body(call: Call, tools: Schemas, clock: MovableClock) -> None:
        place, _, updated = await _cart_of(call, "biryani", quantity=2)
        item_total = updated["data"]["pricing"]["item_total"]
        found = await ok(call, "fetch_food_coupons", restaurantId=place["id"], addressId=HOME)
        codes = [c["id"] for s in found["coupon_sections"] for c in s["coupons"]]
        assert "UPI100" not in codes, "coupons that need online payment are never offered"
        assert found["summary"]["total_coupons"] == len(codes)
        assert found["summary"]["sections_count"] == len(found["coupon_sections"])
        assert found["coupon_sections"][0]["coupons"][0]["applicabilityStatus"] == "APPLICABLE"
        one = await ok(
            call,
            "fetch_food_coupons",
            restaurantId=place["id"],
            addressId=HOME,
            couponCode="tryNEW",
        )
        assert one["summary"]["filter_applied"] == "TRYNEW" and one["summary"]["total_coupons"] == 1
        assert "online payment" in await refused(
            call, "apply_food_coupon", couponCode="UPI100", addressId=HOME
        )
        assert "Invalid cartId" in await refused(
            call, "apply_food_coupon", couponCode="WELCOME50", addressId=HOME, cartId="stale"
        )
        applied = await ok(
            call,
            "apply_food_coupon",
            couponCode="WELCOME50",
            addressId=HOME,
            cartId=updated["data"]["cart_id"],
        )
        discount = min(item_total / 2, 100)
        assert applied["data"]["offers"] == {
            "coupon_applied": "WELCOME50",
            "coupon_discount": discount,
        }
        pricing = applied["data"]["pricing"]
        parts = pricing["item_total"] + pricing["delivery_fee"] + pricing["packaging_fee"]
        assert round(parts + pricing["taxes"] - discount, 2) == pricing["to_pay"]
        cart = (await ok(call, "get_food_cart", addressId=HOME))["data"]
        assert cart["offers"]["coupon_discount"] == discount > 0
        assert (
            money_adds_up(cart["pricing"], discount)
            and cart["pricing"]["to_pay"] == pricing["to_pay"]
        )

    run_food(body)


def test_an_order_costs_what_the_cart_said_and_a_bad_payment_places_nothing() -> None:
    async def body(call: Call, tools: Schemas, clock: MovableClock) -> None:
        place, dish, _ = await _cart_of(call, "biryani", quantity=2)
        await ok(call, "apply_food_coupon", couponCode="FREEDEL", addressId=HOME)
        cart = (await ok(call, "get_food_cart", addressId=HOME))["data"]
        assert cart["offers"]["free_delivery_applied"] is True
        for bad in (
            {"paymentMethod": "UPI"},
            {"generateUPIQR": True},
            {"intentApp": "gpay://upi/"},
            {"paymentMethod": "card"},
        ):
            message = await refused(call, "place_food_order", addressId=HOME, **bad)
            assert "No order was placed" in message, message
        order = await ok(call, "place_food_order", addressId=HOME, paymentMethod="Cash")
        assert order["totalAmount"] == cart["pricing"]["to_pay"]
        assert order["restaurantName"] == place["name"] and order["estimatedDelivery"]
        assert [(i["item_id"], i["quantity"]) for i in order["items"]] == [
            (dish["menu_item_id"], 2)
        ]
        assert sum(i["total"] for i in order["items"]) == cart["pricing"]["item_total"]
        details = (await ok(call, "get_food_order_details", orderId=order["orderId"]))["order"]
        assert details["order_id"] == int(order["orderId"])
        assert details["order_total"] == order["totalAmount"] and details["is_cancellable"] is False
        assert details["coupon_applied"] == "FREEDEL" and details["is_coupon_applied"] is True
        charges = sum(float(v) for v in details["charges"].values())
        expected = details["item_total"] + charges - details["coupon_discount"]
        assert round(expected, 2) == details["order_total"]
        (line,) = details["order_items"]
        assert isinstance(line["total"], str) and line["is_veg"] in ("0", "1")
        assert details["delivery_address"]["id"] == HOME
        assert isinstance(details["delivery_address"]["lat"], str)
        assert "empty" in await refused(call, "place_food_order", addressId=HOME)

    run_food(body)


def test_history_tracking_and_delivery_status_follow_the_clock() -> None:
    async def body(call: Call, tools: Schemas, clock: MovableClock) -> None:
        await _cart_of(call, "biryani")
        order = await ok(call, "place_food_order", addressId=HOME)
        order_id = order["orderId"]
        (entry,) = (await ok(call, "get_food_orders", addressId=HOME, activeOnly=True))["orders"]
        assert entry["orderId"] == order_id and entry["isActiveOrder"] is True
        assert entry["orderTotal"] == f"₹{order['totalAmount']:.2f}"
        assert [a["type"] for a in entry["actions"]] == ["TRACK"]
        (tracked,) = (await ok(call, "track_food_order"))["orders"]
        assert tracked["orderId"] == order_id and tracked["businessLine"]["id"] == "FOOD"
        assert isinstance(tracked["progressPercentage"], str)
        status = await ok(call, "get_food_delivery_status", orderId=order_id)
        assert status["serverNow"] < status["deliveryBy"] and status["delivered"] is False
        assert status["pollIntervalSec"] >= 10

        clock.advance(hours=2)
        done = await ok(call, "get_food_delivery_status", orderId=order_id)
        assert done["delivered"] is True and done["cancelled"] is False
        assert (await ok(call, "track_food_order"))["orders"] == []
        assert (await ok(call, "get_food_orders", addressId=HOME, activeOnly=True))["orders"] == []
        (past,) = (await ok(call, "get_food_orders", addressId=HOME))["orders"]
        assert past["orderStatus"] == "DELIVERED" and past["isActiveOrder"] is False
        reorder = next(a for a in past["actions"] if a["type"] == "REORDER")
        assert reorder["reorderMeta"]["orderItems"][0]["quantity"] == 1
        assert "Invalid orderId" in await refused(call, "get_food_order_details", orderId="1")

    run_food(body)


def test_closed_and_far_restaurants_refuse_orders() -> None:
    async def body(call: Call, tools: Schemas, clock: MovableClock) -> None:
        place, dish, _ = await _cart_of(call, "biryani")
        clock.now = clock.now.replace(hour=23)  # 04:30 IST: biryani places are shut
        line = [{"menu_item_id": dish["menu_item_id"], "quantity": 2}]
        assert "closed" in await refused(
            call, "update_food_cart", restaurantId=place["id"], addressId=HOME, cartItems=line
        )
        assert "closed" in await refused(call, "place_food_order", addressId=HOME)

    run_food(body)


def test_a_far_address_gets_no_delivery_and_addons_are_capped() -> None:
    async def body(call: Call, tools: Schemas, clock: MovableClock) -> None:
        far_point = {"latitude": 12.86, "longitude": 77.78}  # Sarjapur, south-east edge
        made = await ok(
            call,
            "create_address",
            fullAddress="Flat 9, Lakeside Villas, Sarjapur Road, Bengaluru 562125",
            addressLine="Flat 9, Lakeside Villas",
            addressLine2="",
            city="Bengaluru",
            postalCode="560035",
            addressCategory="OTHER",
            userName="Sandbox User",
            userPhone="9845012345",
            **far_point,
        )
        far_id = made["addressId"]
        catalog = load_catalog()
        place = next(
            r
            for r in catalog.restaurants
            if haversine_km(far_point["latitude"], far_point["longitude"], r.lat, r.lng)
            > MAX_DELIVERY_KM
        )
        listed = await ok(call, "search_restaurants", addressId=far_id, query=place.name)
        assert place.id not in [r["id"] for r in listed["restaurants"]]
        line = [{"menu_item_id": place.dishes[0].id, "quantity": 1}]
        assert "does not deliver" in await refused(
            call, "update_food_cart", restaurantId=place.id, addressId=far_id, cartItems=line
        )
        near, dish, _ = await _cart_of(call, "biryani")
        group = dish["addons"][0]
        every = [{"group_id": group["groupId"], "choice_id": c["id"]} for c in group["choices"]]
        too_many = [{"menu_item_id": dish["menu_item_id"], "quantity": 1, "addons": every * 2}]
        assert "Too many add-ons" in await refused(
            call, "update_food_cart", restaurantId=near["id"], addressId=HOME, cartItems=too_many
        )
        deleted = await ok(call, "delete_address", addressId=far_id)
        assert isinstance(deleted["statusCode"], int) and deleted["statusMessage"]
        listed = (await ok(call, "get_addresses", page=1, pageSize=10))["addresses"]
        assert far_id not in [a["id"] for a in listed]

    run_food(body)


def test_payment_options_show_the_cart_amount_and_cash_orders_need_no_confirm() -> None:
    async def body(call: Call, tools: Schemas, clock: MovableClock) -> None:
        await _cart_of(call, "biryani", quantity=2)
        to_pay = (await ok(call, "get_food_cart", addressId=HOME))["data"]["pricing"]["to_pay"]
        options = await ok(call, "get_payment_options", addressId=HOME)
        assert options["paymentAmount"] == f"₹{to_pay:.2f}" and options["addressId"] == HOME
        assert options["placeOrderToolName"] == "place_food_order"
        assert options["cod"]["available"] is True
        order = await ok(call, "place_food_order", addressId=HOME)
        assert (await ok(call, "get_payment_options", addressId=HOME))["paymentAmount"] is None
        confirm = {"orderId": order["orderId"], "addressId": HOME, "lat": 12.97, "lng": 77.64}
        assert "cash on delivery" in await refused(call, "confirm_order", **confirm)
        report = await ok(
            call, "report_error", tool="place_food_order", errorMessage="Some error occurred"
        )
        assert report["domain"] == "food" and report["mailtoLink"].startswith("mailto:")

    run_food(body)
