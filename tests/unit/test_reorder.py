"""Order it again: past orders read from the documented shapes, matched to products now,
and written back as one cart update merged with the cart there is."""

from __future__ import annotations

import json

from swiggy_core.parsers import CartLine, ProductItem, ProductVariation
from swiggy_core.past_orders import envelope_data, food_orders, instamart_orders, with_paid_prices
from swiggy_core.reorder import merged_items, plan_food, plan_instamart

_GET_ORDERS = {
    "orders": [
        {
            "orderId": "IM-1",
            "status": "DELIVERED",
            "createdAt": "2026-11-20T09:12:00+05:30",
            "itemCount": 4,
            "totalAmount": 312.0,
            "isActive": False,
            "storeName": "Instamart · Indiranagar",
            "items": [
                {"name": "Amul Butter", "quantity": 2, "itemId": "spin-butter"},
                {"name": "Britannia Bread", "quantity": 1, "itemId": "spin-bread"},
                {"name": "Fresh Paneer", "quantity": 1, "itemId": "spin-paneer"},
            ],
        }
    ],
    "hasMore": False,
}
_DETAILS = {
    "orderId": "IM-1",
    "items": [
        {"name": "Amul Butter (100 g)", "quantity": 2, "finalPrice": 112.0, "removed": False},
        {"name": "Britannia Bread (400 g)", "quantity": 1, "finalPrice": 45.0, "removed": False},
        {"name": "Fresh Paneer (200 g)", "quantity": 1, "finalPrice": 90.0, "removed": False},
    ],
}


def _pack(spin: str, price: float, *, in_stock: bool = True) -> ProductVariation:
    return ProductVariation(spin_id=spin, sku_id=f"sku-{spin}", price=price, in_stock=in_stock)


def _products() -> list[ProductItem]:
    butter = _pack("spin-butter", 56.0)
    bread = _pack("spin-bread", 50.0)  # was 45
    paneer = _pack("spin-paneer", 90.0, in_stock=False)
    return [
        ProductItem(name="Amul Butter", spin_id="spin-butter", variations=[butter]),
        ProductItem(name="Britannia Bread", spin_id="spin-bread", variations=[bread]),
        ProductItem(name="Fresh Paneer", spin_id="spin-paneer", variations=[paneer]),
    ]


def test_instamart_order_reads_lines_and_paid_unit_prices() -> None:
    order = with_paid_prices(instamart_orders(_GET_ORDERS)[0], _DETAILS)
    assert order.order_id == "IM-1"
    assert order.total == 312.0
    first = order.lines[0]
    assert (first.name, first.quantity, first.item_id) == ("Amul Butter", 2, "spin-butter")
    assert [line.unit_price for line in order.lines] == [56.0, 45.0, 90.0]


def test_plan_marks_available_repriced_and_unavailable() -> None:
    order = with_paid_prices(instamart_orders(_GET_ORDERS)[0], _DETAILS)
    plan = plan_instamart(order, _products())
    statuses = {line.name: line.status for line in plan.lines}
    assert statuses == {
        "Amul Butter": "available",
        "Britannia Bread": "repriced",
        "Fresh Paneer": "unavailable",
    }
    bread = plan.repriced[0]
    assert (bread.old_price, bread.new_price) == (45.0, 50.0)
    assert plan.unavailable[0].note == "Out of stock"


def test_a_product_no_longer_found_is_unavailable() -> None:
    order = instamart_orders(_GET_ORDERS)[0]
    plan = plan_instamart(order, _products()[:1])
    assert [line.status for line in plan.lines] == ["available", "unavailable", "unavailable"]
    assert plan.lines[1].note == "Not sold here any more"


def test_a_pack_matched_by_name_when_the_id_changed() -> None:
    order = instamart_orders(
        {"orders": [{"orderId": "IM-2", "items": [{"name": "amul  butter", "quantity": 1}]}]}
    )[0]
    plan = plan_instamart(order, _products())
    assert plan.lines[0].spin_id == "spin-butter"
    assert plan.lines[0].status == "available"


def test_one_write_merges_with_the_current_cart() -> None:
    order = with_paid_prices(instamart_orders(_GET_ORDERS)[0], _DETAILS)
    plan = plan_instamart(order, _products())
    current = [
        CartLine(name="Amul Butter", quantity=1, spin_id="spin-butter", sku_id="sku-spin-butter"),
        CartLine(name="Eggs", quantity=6, spin_id="spin-eggs", sku_id="sku-eggs"),
    ]
    arguments = plan.cart_arguments("addr-1", current)
    assert plan.cart_tool == "update_cart"
    assert arguments == {
        "selectedAddressId": "addr-1",
        "items": [
            {"spinId": "spin-butter", "skuId": "sku-spin-butter", "quantity": 3},
            {"spinId": "spin-eggs", "skuId": "sku-eggs", "quantity": 6},
            {"spinId": "spin-bread", "skuId": "sku-spin-bread", "quantity": 1},
        ],
    }


def test_merge_into_an_empty_cart_leaves_out_the_unavailable() -> None:
    order = instamart_orders(_GET_ORDERS)[0]
    plan = plan_instamart(order, _products())
    assert [item["spinId"] for item in merged_items([], plan.addable)] == [
        "spin-butter",
        "spin-bread",
    ]


def test_quantity_is_capped_by_what_can_be_ordered_now() -> None:
    capped = ProductVariation(spin_id="spin-butter", sku_id="s", price=56.0, max_quantity=1)
    products = [ProductItem(name="Amul Butter", spin_id="spin-butter", variations=[capped])]
    plan = plan_instamart(instamart_orders(_GET_ORDERS)[0], products)
    assert plan.lines[0].quantity == 1
    assert plan.lines[0].note == "Only 1 can be ordered now"


_FOOD_ORDERS = {
    "orders": [
        {
            "orderId": "F-9",
            "restaurantId": "r-7",
            "restaurantName": "Biryani House",
            "orderTotal": "412.00",
            "orderStatus": "DELIVERED",
            "orderedItems": "2 x Chicken Biryani, 1 x Raita",
            "orderedTime": "2026-11-19 20:10",
            "isActiveOrder": False,
            "actions": [
                {
                    "type": "REORDER",
                    "reorderMeta": {
                        "orderItems": [
                            {
                                "menu_item_id": "d-1",
                                "name": "Chicken Biryani",
                                "quantity": 2,
                                "variants": [{"group_id": "g1", "variation_id": "v2"}],
                                "addons": [],
                            },
                            {"menu_item_id": "d-2", "name": "Raita", "quantity": 1},
                        ]
                    },
                }
            ],
        },
        {
            "orderId": "F-8",
            "restaurantName": "Dosa Corner",
            "orderedItems": "1 x Masala Dosa",
            "isActiveOrder": True,
            "actions": [{"type": "TRACK"}],
        },
    ]
}


def test_food_reorder_sends_the_reorder_meta_items_as_they_were() -> None:
    order = food_orders(_FOOD_ORDERS)[0]
    plan = plan_food(order)
    arguments = plan.cart_arguments("addr-1", [])
    assert plan.cart_tool == "update_food_cart"
    assert arguments["restaurantId"] == "r-7"
    assert arguments["addressId"] == "addr-1"
    assert arguments["cartItems"][0] == {
        "menu_item_id": "d-1",
        "name": "Chicken Biryani",
        "quantity": 2,
        "variants": [{"group_id": "g1", "variation_id": "v2"}],
        "addons": [],
    }
    assert len(arguments["cartItems"]) == 2


def test_food_order_without_reorder_meta_is_shown_but_not_reorderable() -> None:
    order = food_orders(_FOOD_ORDERS)[1]
    assert not order.reorderable
    assert [(line.name, line.quantity) for line in order.lines] == [("Masala Dosa", 1)]
    assert plan_food(order).addable == []


def test_envelope_data_reads_the_data_and_refuses_a_failure() -> None:
    ok = json.dumps({"success": True, "data": _GET_ORDERS})
    assert envelope_data(ok)["hasMore"] is False
    assert envelope_data(json.dumps({"success": False, "error": {"message": "x"}})) == {}
    assert envelope_data("not json") == {}
