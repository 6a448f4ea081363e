"""Benchmark `parse_tool_result`: median and p99 µs over realistic 1–20 KB results, one 1 MB.

Run: `python bench/parsers.py [--results N] [--seed S]`. Prints figures; asserts nothing.
Targets: median under 200 µs, the 1 MB result under 50 ms.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from swiggy_core.parsers import parse_tool_result

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
    rng = random.Random(seed)
    corpus: list[Case] = []
    while len(corpus) < count:
        case = rng.choice(_BUILDERS)(rng)
        if 1_000 <= _size(case) <= 20_000:
            corpus.append(case)
    return corpus


def _size(case: Case) -> int:
    return len(case[2][0]["text"])


def _megabyte_case(seed: int) -> Case:
    rng = random.Random(seed)
    products: list[dict[str, Any]] = []
    while len(json.dumps(products)) < 1_000_000:
        products.extend(_product(rng, len(products) + i) for i in range(200))
    return "search_products", "food", _text({"products": products}), {"query": "everything"}


def _megabyte_unknown_case(seed: int) -> Case:
    """The slow path: no card matches, so shape detection walks to its node budget."""
    rng = random.Random(seed)
    orders: list[dict[str, Any]] = []
    while len(json.dumps(orders)) < 1_000_000:
        orders.extend(
            {"orderNo": rng.randint(1, 10**9), "state": "DELIVERED", "lines": [{"q": 1}] * 5}
            for _ in range(200)
        )
    return "get_food_orders", "foodorder", _text({"orders": orders}), {}


def _time_us(case: Case) -> float:
    tool, vertical, content, tool_input = case
    start = time.perf_counter_ns()
    parse_tool_result(tool, content, vertical, tool_input)
    return (time.perf_counter_ns() - start) / 1_000


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--results", type=int, default=3_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    corpus = build_corpus(args.results, args.seed)
    for case in corpus[:50]:  # warm up imports and caches
        _time_us(case)
    timings = sorted(_time_us(case) for case in corpus)
    sizes = [_size(case) for case in corpus]
    p99 = timings[min(len(timings) - 1, int(len(timings) * 0.99))]
    size_range = f"{min(sizes)}–{max(sizes)} bytes"
    print(f"corpus: {len(corpus)} results, {size_range}, median {statistics.median(sizes):.0f} B")
    print(f"median: {statistics.median(timings):.1f} µs per result (target < 200 µs)")
    print(f"p99:    {p99:.1f} µs per result")
    for label, big in (
        ("1 MB product search", _megabyte_case(args.seed)),
        ("1 MB unrecognised payload", _megabyte_unknown_case(args.seed)),
    ):
        runs = [_time_us(big) / 1_000 for _ in range(5)]
        print(
            f"{label} ({_size(big) / 1e6:.2f} MB): median {statistics.median(runs):.1f} ms, "
            f"worst {max(runs):.1f} ms of 5 runs (target < 50 ms)"
        )


if __name__ == "__main__":
    main()
