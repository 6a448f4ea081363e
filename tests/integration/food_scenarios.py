"""Every Food tool as Swiggy documents it, through any transport's `Call`.

test_sandbox_scenarios runs `exercise_food` in memory, over HTTP and over stdio; the
Food tests reuse the helpers. A `Call` returns the `{success, data, message}` envelope and
the MCP `is_error` flag.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

Call = Callable[[str, dict[str, Any]], Awaitable[tuple[dict[str, Any], bool]]]

HOME = "addr_home_indiranagar"
# Food's 20 documented tools (the address, payment and support ones are shared).
FOOD_TOOLS = {
    "get_addresses", "create_address", "delete_address",
    "search_restaurants", "get_restaurant_menu", "search_menu",
    "update_food_cart", "get_food_cart", "flush_food_cart",
    "fetch_food_coupons", "apply_food_coupon", "place_food_order",
    "track_food_order", "get_food_delivery_status", "get_food_orders", "get_food_order_details",
    "get_payment_options", "check_payment_status", "confirm_order", "report_error",
}  # fmt: skip
RESTAURANT_FIELDS = {
    "id", "name", "cuisines", "avgRating", "totalRatings", "costForTwo", "areaName",
    "distanceKm", "deliveryTimeMinutes", "deliveryTimeRange", "veg", "offer", "imageUrl",
    "availabilityStatus", "nextOpenTime",
}  # fmt: skip
CART_ITEM_FIELDS = {
    "menu_item_id", "name", "quantity", "is_veg", "subtotal", "total", "final_price",
    "addons",
}  # fmt: skip
PRICING_FIELDS = {"item_total", "delivery_charge", "taxes_and_charges", "to_pay"}


async def ok(call: Call, name: str, **arguments: Any) -> dict[str, Any]:
    """Call a tool that must succeed; return its data."""
    envelope, is_error = await call(name, arguments)
    assert envelope["success"] is True, (name, envelope)
    assert not is_error
    data: dict[str, Any] = envelope["data"]
    return data


async def refused(call: Call, name: str, **arguments: Any) -> str:
    """Call a tool that must answer a domain failure (success false, not an MCP error)."""
    envelope, is_error = await call(name, arguments)
    assert envelope["success"] is False and set(envelope) == {"success", "error"}, envelope
    assert not is_error, envelope
    message: str = envelope["error"]["message"]
    return message


async def invalid(call: Call, name: str, **arguments: Any) -> str:
    """Call a tool with arguments its schema rejects (an MCP error with the envelope)."""
    envelope, is_error = await call(name, arguments)
    assert envelope["success"] is False and is_error, envelope
    message: str = envelope["error"]["message"]
    return message


def money_adds_up(pricing: dict[str, Any], discount: float = 0) -> bool:
    """to_pay is the item total plus delivery and charges, less the coupon (rupees)."""
    parts = pricing["item_total"] + pricing["delivery_charge"] + pricing["taxes_and_charges"]
    return bool(abs(parts - discount - pricing["to_pay"]) < 0.005)


async def open_restaurant(call: Call, query: str) -> dict[str, Any]:
    """The first OPEN restaurant search_restaurants lists for `query`."""
    found = await ok(call, "search_restaurants", addressId=HOME, query=query)
    return next(r for r in found["restaurants"] if r["availabilityStatus"] == "OPEN")


async def customisable_dish(call: Call, restaurant: dict[str, Any], query: str) -> dict[str, Any]:
    """A search_menu item of `restaurant` with variantsV2 and addons, in stock."""
    found = await ok(
        call, "search_menu", addressId=HOME, query=query, restaurantIdOfAddedItem=restaurant["id"]
    )
    return next(i for i in found["items"] if "variantsV2" in i and i.get("addons") and i["inStock"])


async def dish_in_cart(
    call: Call, restaurant: dict[str, Any], dish: dict[str, Any], quantity: int
) -> dict[str, Any]:
    """Make the home Food cart hold `quantity` of `dish` (0 removes it); the answer."""
    item = {"menu_item_id": dish["menu_item_id"], "quantity": quantity}
    return await ok(
        call, "update_food_cart", restaurantId=restaurant["id"], addressId=HOME, cartItems=[item]
    )


async def exercise_food(call: Call) -> None:
    """Discover → cart → coupon → switch restaurant → order → history and tracking."""
    assert len((await ok(call, "get_addresses"))["addresses"]) == 3
    biryani = await ok(call, "search_restaurants", addressId=HOME, query="biryani")
    assert biryani["query"] == "biryani"
    assert biryani["totalRestaurants"] >= len(biryani["restaurants"])
    assert biryani["dishes"] and all(set(r) == RESTAURANT_FIELDS for r in biryani["restaurants"])
    first = await open_restaurant(call, "biryani")
    menu = await ok(call, "get_restaurant_menu", addressId=HOME, restaurantId=first["id"])
    assert menu["totalItems"] == len(menu["items"]) and menu["truncated"] is False
    assert all("description" not in i and "imageUrl" not in i for i in menu["items"])
    dish = await customisable_dish(call, first, "biryani")
    group = dish["variantsV2"][0]
    large = next(v for v in group["variations"] if not v["default"])
    addon_group = dish["addons"][0]
    choice = addon_group["choices"][0]
    item = {
        "menu_item_id": dish["menu_item_id"],
        "quantity": 2,
        "variantsV2": [{"group_id": group["groupId"], "variation_id": large["id"]}],
        "addons": [{"group_id": addon_group["groupId"], "choice_id": choice["id"]}],
    }
    updated = await ok(
        call,
        "update_food_cart",
        restaurantId=first["id"],
        addressId=HOME,
        cartItems=[item],
        restaurantName=first["name"],
    )
    cart = updated["data"]
    unit = (dish["price"] + large["price"] + choice["price"]) / 100  # menu paise → cart rupees
    (line,) = cart["items"]
    assert (line["final_price"], line["total"], line["quantity"]) == (unit, 2 * unit, 2)
    assert cart["pricing"]["item_total"] == 2 * unit and money_adds_up(cart["pricing"])
    read = await ok(call, "get_food_cart", addressId=HOME)
    assert read["data"] == cart and read["addressId"] == HOME
    assert read["availablePaymentMethods"] == ["Cash"]
    coupons = await ok(call, "fetch_food_coupons", restaurantId=first["id"], addressId=HOME)
    listed = [c for s in coupons["coupon_sections"] for c in s["coupons"]]
    assert any(c["id"] == "WELCOME50" and c["applicable"] for c in listed)
    assert coupons["summary"]["total_coupons"] == len(listed)
    applied = await ok(call, "apply_food_coupon", couponCode="welcome50", addressId=HOME)
    discount = applied["data"]["offers"]["coupon_discount"]
    assert applied["data"]["offers"]["coupon_applied"] == "WELCOME50" and discount > 0
    other_place = await open_restaurant(call, "pizza")
    other = await customisable_dish(call, other_place, "pizza")
    switched = await dish_in_cart(call, other_place, other, 1)
    assert "flushed" in switched["statusMessage"]
    assert switched["data"]["restaurant"]["id"] == other_place["id"]
    assert switched["data"]["offers"]["coupon_applied"] is None
    assert len(switched["data"]["items"]) == 1
    assert (await ok(call, "flush_food_cart"))["statusCode"] == 0
    assert "empty" in await refused(call, "place_food_order", addressId=HOME)
    await dish_in_cart(call, other_place, other, 1)
    to_pay = (await ok(call, "get_food_cart", addressId=HOME))["data"]["pricing"]["to_pay"]
    bad_upi = await refused(call, "place_food_order", addressId=HOME, paymentMethod="UPI")
    assert "exactly one of" in bad_upi, "UPI needs a QR or an app"
    order = await ok(call, "place_food_order", addressId=HOME, noteToRestaurant="Less spicy")
    assert (order["status"], order["normalizedStatus"]) == ("CONFIRMED", "success")
    assert order["totalAmount"] == to_pay and order["restaurantName"] == other_place["name"]
    assert (await ok(call, "get_food_cart", addressId=HOME))["data"]["items"] == []
    history = await ok(call, "get_food_orders", addressId=HOME)
    assert [o["orderId"] for o in history["orders"]] == [order["orderId"]]
    details = (await ok(call, "get_food_order_details", orderId=order["orderId"]))["order"]
    assert details["order_total"] == to_pay and details["payment_method"] == "Cash"
    tracked = await ok(call, "track_food_order", orderId=order["orderId"])
    assert tracked["orders"][0]["orderId"] == order["orderId"]
    status = await ok(call, "get_food_delivery_status", orderId=order["orderId"])
    assert status["pollIntervalSec"] >= 10 and status["deliveryBy"] > status["serverNow"]
