"""The parser bench's corpus: real answers of the sandbox's Swiggy-shaped MCP servers.

The sandbox answers every documented tool in the documented shapes (see
`SWIGGY_REFERENCE.md`), so a scripted session across the four shops — searches, menus,
carts, coupons, slots, addresses, orders, tracking, bookings — records what a person's
chat really parses. Three sets: every recorded answer (the typical results), the largest
product search (about 10 KB), and a 1 MB product search built from real products.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from swiggy_core.mcp import McpManager
from swiggy_sandbox.servers import DEMO_TOKEN, SandboxHttpServer

_GROCERY_QUERIES = ("milk", "eggs", "atta", "paneer", "oats", "banana", "chips", "coffee")
_STYLE_QUERIES = ("shampoo", "face wash", "lipstick", "trimmer", "sunscreen")
_FOOD_QUERIES = ("biryani", "pizza", "dosa", "paneer tikka")
_DINEOUT_QUERIES = ("italian", "rooftop", "north indian")


@dataclass(frozen=True)
class Case:
    """One tool result as the connector hands it to the parser."""

    tool: str
    vertical: str
    content: list[dict[str, str]]  # text blocks, as in an `mcp_tool_result`
    tool_input: dict[str, Any]

    @property
    def size(self) -> int:
        return sum(len(block["text"]) for block in self.content)

    def as_json(self) -> dict[str, Any]:
        return {
            "tool": self.tool,
            "vertical": self.vertical,
            "content": self.content,
            "input": self.tool_input,
        }


@dataclass(frozen=True)
class Corpus:
    typical: list[Case]
    search_10kb: Case
    search_1mb: Case


class _Recorder:
    """Calls the sandbox's tools and keeps each answer as a case."""

    def __init__(self, sandbox: SandboxHttpServer, manager: McpManager) -> None:
        self._sandbox = sandbox
        self._manager = manager
        self.cases: list[Case] = []

    def call(self, server: str, vertical: str, tool: str, arguments: dict[str, Any]) -> Any:
        url = self._sandbox.url_for(server)
        result = self._manager.call_tool(url, DEMO_TOKEN, tool, arguments)
        content = [{"type": "text", "text": result.text}]
        self.cases.append(Case(tool, vertical, content, arguments))
        try:
            return json.loads(result.text)
        except ValueError:
            return None


def record_corpus() -> Corpus:
    """Start the sandbox servers, run the scripted session, stop them."""
    with SandboxHttpServer() as sandbox:
        manager = McpManager()
        recorder = _Recorder(sandbox, manager)
        try:
            for script in (_instamart, _food, _dineout):
                script(recorder)
        finally:
            manager.close()  # before the servers stop, so no stream is cut off
    typical = recorder.cases
    search = max((c for c in typical if c.tool == "search_products"), key=lambda c: c.size)
    return Corpus(typical, search, _scaled_search(search, 1_000_000))


def _data(answer: Any) -> dict[str, Any]:
    data = answer.get("data") if isinstance(answer, dict) else None
    return data if isinstance(data, dict) else {}


def _instamart(rec: _Recorder) -> None:
    address = _data(rec.call("instamart", "food", "get_addresses", {}))["addresses"][0]["id"]
    lines: list[dict[str, Any]] = []
    for vertical, queries in (("food", _GROCERY_QUERIES), ("style", _STYLE_QUERIES)):
        for query in queries:
            found = rec.call(
                "instamart", vertical, "search_products", {"addressId": address, "query": query}
            )
            products = _data(found).get("products") or []
            if products:
                first = products[0]["variations"][0]
                lines.append({"spinId": first["spinId"], "skuId": first["skuId"], "quantity": 2})
                arguments = {"selectedAddressId": address, "items": list(lines)}
                rec.call("instamart", vertical, "update_cart", arguments)
    rec.call("instamart", "food", "your_go_to_items", {"addressId": address})
    rec.call("instamart", "food", "get_cart", {})
    coupons = _data(rec.call("instamart", "food", "list_coupons", {"addressId": address}))
    for coupon in (coupons.get("coupons") or [])[:1]:
        rec.call("instamart", "food", "apply_coupon", {"couponCode": coupon.get("couponCode", "")})
    rec.call("instamart", "food", "get_payment_options", {})
    placed = _data(rec.call("instamart", "food", "checkout", {"addressId": address}))
    order = str(placed.get("orderId") or "")
    if order:
        rec.call("instamart", "food", "get_order_details", {"orderId": order})
        rec.call(
            "instamart", "food", "get_delivery_status", {"orderId": order, "addressId": address}
        )
    rec.call("instamart", "food", "get_orders", {"orderType": "INSTAMART"})


def _food(rec: _Recorder) -> None:
    address = _data(rec.call("food", "foodorder", "get_addresses", {}))["addresses"][0]["id"]
    restaurant = ""
    for query in _FOOD_QUERIES:
        found = rec.call(
            "food", "foodorder", "search_restaurants", {"addressId": address, "query": query}
        )
        restaurants = _data(found).get("restaurants") or []
        restaurant = restaurant or str(restaurants[0]["id"]) if restaurants else restaurant
        rec.call("food", "foodorder", "search_menu", {"addressId": address, "query": query})
    menu = _data(
        rec.call(
            "food",
            "foodorder",
            "get_restaurant_menu",
            {"addressId": address, "restaurantId": restaurant},
        )
    )
    dishes = _first_dishes(menu, 3)
    cart_items = [{"menu_item_id": dish, "quantity": 1} for dish in dishes]
    rec.call(
        "food",
        "foodorder",
        "update_food_cart",
        {"restaurantId": restaurant, "cartItems": cart_items, "addressId": address},
    )
    rec.call("food", "foodorder", "get_food_cart", {"addressId": address})
    rec.call(
        "food",
        "foodorder",
        "fetch_food_coupons",
        {"restaurantId": restaurant, "addressId": address},
    )
    placed = _data(rec.call("food", "foodorder", "place_food_order", {"addressId": address}))
    order = str(placed.get("orderId") or "")
    if order:
        rec.call("food", "foodorder", "track_food_order", {"orderId": order})
        rec.call("food", "foodorder", "get_food_order_details", {"orderId": order})
    rec.call("food", "foodorder", "get_food_orders", {"addressId": address})


def _first_dishes(menu: dict[str, Any], count: int) -> list[str]:
    found: list[str] = []

    def walk(node: Any) -> None:
        if len(found) >= count:
            return
        if isinstance(node, dict):
            if "id" in node and "price" in node and "name" in node:
                found.append(str(node["id"]))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(menu)
    return found


def _dineout(rec: _Recorder) -> None:
    locations = _data(rec.call("dineout", "dining", "get_saved_locations", {}))
    place = (locations.get("locations") or locations.get("addresses") or [{}])[0]
    lat, lng = place.get("latitude", 12.97), place.get("longitude", 77.59)
    restaurant = ""
    for query in _DINEOUT_QUERIES:
        found = rec.call(
            "dineout",
            "dining",
            "search_restaurants_dineout",
            {"query": query, "latitude": lat, "longitude": lng},
        )
        restaurants = _data(found).get("restaurants") or []
        if restaurants and not restaurant:
            restaurant = str(restaurants[0].get("id") or restaurants[0].get("restaurantId") or "")
    where = {"restaurantId": restaurant, "latitude": lat, "longitude": lng}
    rec.call("dineout", "dining", "get_restaurant_details", where)
    rec.call("dineout", "dining", "get_available_slots", {**where, "date": "2026-11-28"})


def _scaled_search(search: Case, size: int) -> Case:
    """The product search grown (real products, repeated with fresh ids) to about `size` B."""
    answer = json.loads(search.content[0]["text"])
    products = answer["data"]["products"]
    grown: list[dict[str, Any]] = []
    index = 0
    while len(json.dumps(grown)) < size - 200 and products:
        product = json.loads(json.dumps(products[index % len(products)]))
        product["id"] = f"{product.get('id', 'p')}-{index}"
        grown.append(product)
        index += 1
    answer["data"]["products"] = grown
    text = json.dumps(answer)
    return Case(search.tool, search.vertical, [{"type": "text", "text": text}], search.tool_input)
