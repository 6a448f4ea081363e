"""The parser benchmark's corpora: tool results as the connector delivers them, built from
a seed (under 1 KB, realistic 1–20 KB, and 1 MB), for `bench/parsers.py` to time."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

Case = tuple[str, str, Any, dict[str, Any] | None]  # tool, vertical, content, tool input
_WORDS = ("amul", "fresh", "toned", "milk", "paneer", "masala", "organic", "basmati", "atta")
_CUISINES = ["Biryani", "Andhra", "North Indian", "Chinese", "South Indian", "Pizzas", "Cafe"]


def _name(rng: random.Random, words: int = 3) -> str:
    return " ".join(rng.choice(_WORDS).title() for _ in range(words))


def _text(payload: Any) -> list[dict[str, str]]:
    """Content as the connector delivers it: a JSON string in a text block."""
    return [{"type": "text", "text": json.dumps({"success": True, "data": payload})}]


def _product(rng: random.Random, i: int) -> dict[str, Any]:
    variations = [
        {
            "spinId": f"SPN-{i}-{v}",
            "skuId": f"SKU-{i}-{v}",
            "quantityDescription": rng.choice(["500 ml", "1 L", "200 g", "1 kg", "6 pcs"]),
            "price": {"mrp": (mrp := rng.randint(20, 900)), "offerPrice": mrp - rng.randint(0, 15)},
            "isInStockAndAvailable": rng.random() > 0.1,
            "maxQuantity": rng.randint(2, 10),
            "imageUrl": f"NI_CATALOG/IMAGES/CIW/2025/{i}/{v}.png",
        }
        for v in range(rng.randint(1, 3))
    ]
    return {
        "productId": f"PRD-{i}",
        "displayName": _name(rng, 4),
        "brand": _name(rng, 1),
        "category": "dairy",
        "variations": variations,
    }


def _restaurant(rng: random.Random, i: int) -> dict[str, Any]:
    return {
        "info": {
            "id": str(10_000 + i),
            "name": _name(rng, 2),
            "cloudinaryImageId": f"img{i:06d}",
            "areaName": "Koramangala",
            "costForTwo": f"₹{rng.randint(2, 9)}00 for two",
            "cuisines": rng.sample(_CUISINES, 3),
            "avgRating": round(rng.uniform(3.5, 4.8), 1),
            "sla": {"deliveryTime": rng.randint(20, 50), "slaString": "25-30 mins"},
            "isOpen": True,
        }
    }


def _dish(rng: random.Random, i: int) -> dict[str, Any]:
    return {
        "card": {
            "info": {
                "id": str(500_000 + i),
                "name": _name(rng, 3),
                "price": rng.randint(99, 599) * 100,
                "isVeg": rng.randint(0, 1),
                "description": "Slow-cooked and served hot. " * 2,
                "imageId": f"dish{i}",
                "inStock": 1,
            }
        }
    }


def _products_case(rng: random.Random) -> Case:
    payload = {"products": [_product(rng, i) for i in range(rng.randint(3, 20))], "nextOffset": 20}
    return "search_products", "food", _text(payload), {"query": "milk"}


def _restaurants_case(rng: random.Random) -> Case:
    payload = {"restaurants": [_restaurant(rng, i) for i in range(rng.randint(3, 20))]}
    return "search_restaurants", "foodorder", _text(payload), {"query": "biryani"}


def _menu_case(rng: random.Random) -> Case:
    categories = [
        {
            "title": _name(rng, 1),
            "itemCards": [_dish(rng, c * 100 + d) for d in range(rng.randint(2, 8))],
        }
        for c in range(rng.randint(1, 5))
    ]
    payload = {
        "restaurant": {"id": "23678", "name": "Meghana Foods"},
        "menu": {"categories": categories},
    }
    return "get_restaurant_menu", "foodorder", _text(payload), {"restaurantId": "23678"}


def _cart_case(rng: random.Random) -> Case:
    items = [
        {
            "spinId": f"SPN-{i}",
            "skuId": f"SKU-{i}",
            "displayName": _name(rng),
            "quantity": rng.randint(1, 4),
            "quantityDescription": "500 ml",
            "price": {"mrp": 60, "offerPrice": 55},
        }
        for i in range(rng.randint(1, 15))
    ]
    bill = {
        "lineItems": [
            {"label": "Item Total", "value": 500},
            {"label": "Delivery Fee", "value": 30},
        ],
        "toPay": 530,
    }
    return "get_cart", "food", _text({"cart": {"items": items, "billBreakdown": bill}}), {}


def _slots_case(rng: random.Random) -> Case:
    days = [
        {
            "date": f"2026-05-0{d + 1}",
            "slots": [
                {
                    "slotId": f"{d}-{h}",
                    "itemId": "IT-1",
                    "time": f"{h}:00",
                    "available": rng.random() > 0.3,
                }
                for h in range(12, 23)
            ],
        }
        for d in range(7)
    ]
    tool_input = {"restaurantId": "DO-1", "date": "2026-05-01", "time": "20:00"}
    return "get_available_slots", "dining", _text({"days": days}), tool_input


def _booking_case(rng: random.Random) -> Case:
    payload = {"bookingId": f"BK-{rng.randint(1, 10**8)}", "status": "CONFIRMED", "guestCount": 2}
    return "book_table", "dining", _text(payload), None


_BUILDERS: list[Callable[[random.Random], Case]] = [
    _products_case,
    _restaurants_case,
    _menu_case,
    _cart_case,
    _slots_case,
    _booking_case,
]


def build_corpus(count: int, seed: int) -> list[Case]:
    """Realistic results of 1–20 KB, cycling through every card kind."""
    return _corpus(_BUILDERS, count, seed, lambda size: 1_000 <= size <= 20_000)


def _corpus(
    builders: list[Callable[[random.Random], Case]],
    count: int,
    seed: int,
    fits: Callable[[int], bool],
) -> list[Case]:
    """`count` cases from randomly chosen builders, each of a size that `fits`."""
    rng = random.Random(seed)
    corpus: list[Case] = []
    while len(corpus) < count:
        case = rng.choice(builders)(rng)
        if fits(case_size(case)):
            corpus.append(case)
    return corpus


def case_size(case: Case) -> int:
    return len(case[2][0]["text"])


def megabyte_case(seed: int) -> Case:
    rng = random.Random(seed)
    products: list[dict[str, Any]] = []
    while len(json.dumps(products)) < 1_000_000:
        products.extend(_product(rng, len(products) + i) for i in range(200))
    return "search_products", "food", _text({"products": products}), {"query": "everything"}


def megabyte_unknown_case(seed: int) -> Case:
    """The slow path: no card matches, so shape detection walks to its node budget."""
    rng = random.Random(seed)
    orders: list[dict[str, Any]] = []
    while len(json.dumps(orders)) < 1_000_000:
        orders.extend(
            {"orderNo": rng.randint(1, 10**9), "state": "DELIVERED", "lines": [{"q": 1}] * 5}
            for _ in range(200)
        )
    return "get_food_orders", "foodorder", _text({"orders": orders}), {}


# --- Results under 1 KB: confirmations, failures, short carts and searches -------------


def _envelope(payload: Any, success: bool = True) -> list[dict[str, str]]:
    return [{"type": "text", "text": json.dumps({"success": success, **payload})}]


def _small_products(rng: random.Random) -> Case:
    payload = {"products": [_product(rng, 0)]}
    return "search_products", "food", _text(payload), {"query": "milk"}


def _small_cart(rng: random.Random) -> Case:
    items = [
        {"spinId": f"SPN-{i}", "displayName": _name(rng), "quantity": rng.randint(1, 3)}
        for i in range(rng.randint(1, 3))
    ]
    return "update_cart", "food", _text({"cart": {"items": items, "toPay": 120}}), {}


def _small_restaurants(rng: random.Random) -> Case:
    payload = {"restaurants": [_restaurant(rng, 0)]}
    return "search_restaurants", "foodorder", _text(payload), {"query": "dosa"}


def _small_slots(rng: random.Random) -> Case:
    slots = [
        {"slotId": f"S-{h}", "time": f"{h}:00", "available": rng.random() > 0.3}
        for h in range(19, 22)
    ]
    payload = {"days": [{"date": "2026-05-01", "slots": slots}]}
    return "get_available_slots", "dining", _text(payload), {"date": "2026-05-01"}


def _small_addresses(rng: random.Random) -> Case:
    addresses = [
        {"id": f"a{i}", "label": label, "addressLine": f"Flat {rng.randint(1, 900)}, Indiranagar"}
        for i, label in enumerate(("Home", "Work"))
    ]
    return "get_addresses", "food", _text({"addresses": addresses}), {}


def _small_order(rng: random.Random) -> Case:
    payload = {"orderId": str(rng.randint(10**8, 10**9)), "status": "PLACED", "toPay": 530}
    return "place_food_order", "foodorder", _text(payload), {"paymentMethod": "COD"}


def _small_failure(rng: random.Random) -> Case:
    error = {"code": "SLOT_UNAVAILABLE", "message": f"Slot S-{rng.randint(1, 99)} is full."}
    return "book_table", "dining", _envelope({"error": error}, success=False), None


def _small_message(rng: random.Random) -> Case:
    return "clear_cart", "food", _envelope({"message": "Your cart is empty now."}), {}


def _small_prose(rng: random.Random) -> Case:
    text = f"No results for '{_name(rng, 2)}'. Try a shorter query."
    return "search_products", "food", [{"type": "text", "text": text}], {"query": "x"}


_SMALL_BUILDERS: list[Callable[[random.Random], Case]] = [
    _small_products,
    _small_cart,
    _small_restaurants,
    _small_slots,
    _small_addresses,
    _small_order,
    _booking_case,
    _small_failure,
    _small_message,
    _small_prose,
]


def build_small_corpus(count: int, seed: int) -> list[Case]:
    """Results under 1 KB, cycling through every kind."""
    return _corpus(_SMALL_BUILDERS, count, seed, lambda size: size < 1_000)


def as_two_blocks(case: Case) -> Case:
    """The same result as a summary block beside its JSON block (the connector's other form)."""
    tool, vertical, content, tool_input = case
    summary = {"type": "text", "text": f"Results of {tool}:\n1. First — detail | ₹10 (ID: 1)"}
    return tool, vertical, [summary, *content], tool_input
