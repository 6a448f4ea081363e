"""Food discovery tools over a real MCP client: documented arguments and result fields."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from food_mcp import MovableClock, run_food
from food_scenarios import (
    FOOD_TOOLS,
    HOME,
    RESTAURANT_FIELDS,
    Call,
    invalid,
    ok,
    refused,
)

from swiggy_sandbox.catalog import load_catalog
from swiggy_sandbox.shop.food_wire import MENU_ITEM_CAP, flat_menu

Schemas = dict[str, dict[str, Any]]

# Required arguments exactly as Swiggy documents them.
REQUIRED = {
    "search_restaurants": {"addressId", "query"},
    "get_restaurant_menu": {"addressId", "restaurantId"},
    "search_menu": {"addressId", "query"},
    "update_food_cart": {"restaurantId", "cartItems", "addressId"},
    "get_food_cart": {"addressId"},
    "flush_food_cart": set(),
    "fetch_food_coupons": {"restaurantId", "addressId"},
    "apply_food_coupon": {"couponCode", "addressId"},
    "place_food_order": {"addressId"},
    "track_food_order": set(),
    "get_food_delivery_status": {"orderId"},
    "get_food_orders": {"addressId"},
    "get_food_order_details": {"orderId"},
    "get_addresses": set(),
    "get_payment_options": set(),
    "confirm_order": {"orderId", "addressId", "lat", "lng"},
    "report_error": {"tool", "errorMessage"},
}


def _variants(schema: dict[str, Any]) -> list[dict[str, Any]]:
    return list(schema.get("anyOf") or [schema])


def test_every_food_tool_declares_the_documented_arguments() -> None:
    async def body(call: Call, tools: Schemas, clock: MovableClock) -> None:
        assert set(tools) == FOOD_TOOLS and len(FOOD_TOOLS) == 20
        for name, required in REQUIRED.items():
            assert set(tools[name].get("required", [])) == required, name
        veg = _variants(tools["search_menu"]["properties"]["vegFilter"])
        assert {"enum": [0, 1], "type": "integer"} in veg
        collection = _variants(tools["search_restaurants"]["properties"]["collection"])
        assert any(v.get("enum") == ["EATRIGHT", "BOLT", "STORE_99"] for v in collection)
        order = tools["place_food_order"]["properties"]
        assert order["paymentMethod"]["default"] == "Cash"
        assert {"intentApp", "generateUPIQR", "noteToRestaurant"} <= set(order)
        assert tools["get_food_orders"]["properties"]["activeOnly"]["type"] == "boolean"
        cart = tools["update_food_cart"]["properties"]
        assert {"restaurantName", "cutleryOptIn"} <= set(cart)

    run_food(body)


def test_bad_arguments_are_refused_with_swiggy_wording() -> None:
    async def body(call: Call, tools: Schemas, clock: MovableClock) -> None:
        assert (await invalid(call, "search_menu", addressId=HOME)).startswith("Missing query")
        assert "Missing query" in await invalid(call, "search_restaurants", addressId=HOME)
        assert "Missing query" in await refused(
            call, "search_restaurants", addressId=HOME, query="  "
        )
        for flag in (True, "1", 2):
            message = await invalid(
                call, "search_menu", addressId=HOME, query="dosa", vegFilter=flag
            )
            assert message.startswith("Invalid vegFilter"), message
        assert "Invalid collection" in await invalid(
            call, "search_restaurants", addressId=HOME, query="pizza", collection="open now"
        )
        assert "Missing addressId" in await invalid(call, "get_food_orders")
        assert "Missing addressId" in await invalid(call, "get_food_cart")
        assert "Missing cartItems" in await invalid(
            call, "update_food_cart", restaurantId="1", addressId=HOME
        )
        lots = [{"menu_item_id": "1", "quantity": "2"}]
        assert "Invalid cartItems.0.quantity" in await invalid(
            call, "update_food_cart", restaurantId="1", addressId=HOME, cartItems=lots
        )
        assert "not found" in await refused(call, "search_restaurants", addressId="x", query="dosa")
        assert "Invalid restaurantId" in await refused(
            call, "get_restaurant_menu", addressId=HOME, restaurantId="nope"
        )

    run_food(body)


def test_search_restaurants_lists_open_places_first_with_documented_fields() -> None:
    async def body(call: Call, tools: Schemas, clock: MovableClock) -> None:
        found = await ok(call, "search_restaurants", addressId=HOME, query="south indian")
        places = found["restaurants"]
        assert places and all(set(r) == RESTAURANT_FIELDS for r in places)
        statuses = [r["availabilityStatus"] for r in places]
        assert statuses == sorted(statuses, key=lambda s: s != "OPEN")
        assert set(statuses) <= {"OPEN", "CLOSED", "UNAVAILABLE"}
        first = places[0]
        assert isinstance(first["costForTwo"], str) and first["costForTwo"].startswith("₹")
        assert isinstance(first["totalRatings"], str) and first["deliveryTimeMinutes"] > 0
        assert first["deliveryTimeRange"].endswith("mins")
        assert found["hasMore"] is (found["nextOffset"] is not None)
        if found["hasMore"]:
            more = await ok(
                call, "search_restaurants", addressId=HOME, query="south indian", offset=10
            )
            assert {r["id"] for r in more["restaurants"]}.isdisjoint(r["id"] for r in places)
        for dish in found["dishes"]:
            assert dish["restaurantId"] in {r["id"] for r in places} or found["hasMore"]
            assert isinstance(dish["price"], int) and dish["restaurantName"]
        # Late at night the same search shows closed places with their opening time.
        clock.now = clock.now.replace(hour=21)  # 02:30 IST
        night = await ok(call, "search_restaurants", addressId=HOME, query="south indian")
        closed = [r for r in night["restaurants"] if r["availabilityStatus"] == "CLOSED"]
        assert closed and all(r["nextOpenTime"] for r in closed)

    run_food(body)


def test_collections_filter_by_their_meaning() -> None:
    async def body(call: Call, tools: Schemas, clock: MovableClock) -> None:
        bolt = await ok(
            call, "search_restaurants", addressId=HOME, query="biryani", collection="BOLT"
        )
        assert all(r["distanceKm"] <= 3 for r in bolt["restaurants"])
        cheap = await ok(
            call, "search_restaurants", addressId=HOME, query="dosa", collection="STORE_99"
        )
        assert cheap["dishes"] and all(d["price"] <= 9900 for d in cheap["dishes"])
        healthy = await ok(
            call, "search_restaurants", addressId=HOME, query="bowl", collection="EATRIGHT"
        )
        assert healthy["restaurants"]
        assert all("Healthy Food" in r["cuisines"] for r in healthy["restaurants"])

    run_food(body)


def test_the_menu_is_a_flat_list_of_unique_dishes_with_labels() -> None:
    async def body(call: Call, tools: Schemas, clock: MovableClock) -> None:
        found = await ok(call, "search_restaurants", addressId=HOME, query="biryani")
        menu = await ok(
            call, "get_restaurant_menu", addressId=HOME, restaurantId=found["restaurants"][0]["id"]
        )
        items = menu["items"]
        assert len({i["id"] for i in items}) == len(items) == menu["totalItems"] <= MENU_ITEM_CAP
        assert menu["categoryLabels"][0] == "Recommended"
        assert menu["totalCategories"] == len(menu["categoryLabels"])
        labels = {label for i in items for label in i["categories"]}
        assert labels == set(menu["categoryLabels"]) and any("/" in label for label in labels)
        assert all(("Recommended" in i["categories"]) == i["isBestseller"] for i in items)
        assert all(i["inStock"] in (0, 1) and isinstance(i["price"], int) for i in items)
        assert all("description" not in i and "imageUrl" not in i for i in items)
        assert menu["restaurant"]["isOpen"] is True and menu["truncated"] is False

    run_food(body)


def test_a_long_menu_is_capped_at_150_unique_dishes() -> None:
    restaurant = load_catalog().restaurants[0]
    copies = [replace(d, id=f"{d.id}-{n}") for n in range(12) for d in restaurant.dishes]
    # Listed twice (as under two categories on Swiggy): still one entry per dish.
    long_menu = replace(restaurant, dishes=tuple(copies + copies[:20]))
    assert len(copies) > MENU_ITEM_CAP
    menu = flat_menu(long_menu)
    assert menu["truncated"] is True and menu["totalItems"] == len(menu["items"]) == MENU_ITEM_CAP


def test_search_menu_items_carry_one_variant_format_and_addon_choices() -> None:
    async def body(call: Call, tools: Schemas, clock: MovableClock) -> None:
        found = await ok(call, "search_menu", addressId=HOME, query="biryani")
        assert found["query"] == "biryani" and found["totalItems"] >= len(found["items"])
        assert found["hasMore"] is ("nextOffset" in found)
        for item in found["items"]:
            assert not ("variations" in item and "variantsV2" in item), item["name"]
            assert {"name", "price", "menu_item_id", "restaurant_id", "inStock"} <= set(item)
            for group in item.get("addons", []):
                assert group["choices"] and all("price" in c for c in group["choices"])
        veg = await ok(call, "search_menu", addressId=HOME, query="biryani", vegFilter=1)
        assert veg["items"] and all(i["isVeg"] for i in veg["items"])
        mixed = await ok(call, "search_menu", addressId=HOME, query="biryani", vegFilter=0)
        assert any(not i["isVeg"] for i in mixed["items"])
        place = found["items"][0]["restaurant_id"]
        scoped = await ok(
            call, "search_menu", addressId=HOME, query="biryani", restaurantIdOfAddedItem=place
        )
        assert scoped["restaurantIdOfAddedItem"] == place
        assert {i["restaurant_id"] for i in scoped["items"]} == {place}

    run_food(body)


def test_a_legacy_variations_dish_is_added_with_variants_only() -> None:
    async def body(call: Call, tools: Schemas, clock: MovableClock) -> None:
        found = await ok(call, "search_menu", addressId=HOME, query="paneer butter masala")
        dish = next(i for i in found["items"] if "variations" in i)
        full = next(v for v in dish["variations"] if not v["default"])
        pick = [{"group_id": full["groupId"], "variation_id": full["id"]}]
        line = {"menu_item_id": dish["menu_item_id"], "quantity": 1}
        where = {"restaurantId": dish["restaurant_id"], "addressId": HOME}
        assert "uses variants" in await refused(
            call, "update_food_cart", cartItems=[{**line, "variantsV2": pick}], **where
        )
        cart = await ok(call, "update_food_cart", cartItems=[{**line, "variants": pick}], **where)
        (item,) = cart["data"]["items"]
        assert [v["variation_id"] for v in item["variants"]] == [full["id"]]
        assert item["final_price"] == (dish["price"] + full["price"]) / 100

    run_food(body)
