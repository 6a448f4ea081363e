"""The offline planner recommends in a line; it never lists again what the cards show."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from swiggy_core.constants import SWIGGY_TZ
from swiggy_core.parsers import ProductsResult
from swiggy_core.parsers.products import parse_products
from swiggy_core.ranking import fit_card
from swiggy_sandbox.catalog import load_catalog
from swiggy_sandbox.catalog.wire import product_wire, restaurant_wire
from swiggy_sandbox.planner import dineout_replies, food_replies, instamart_replies

BASE = "http://127.0.0.1:1"


def _search(query: str) -> dict[str, Any]:
    found = load_catalog().search_products(query)[:10]
    return {"products": [product_wire(p, BASE, lambda variation: 10) for p in found]}


def _named(reply: str, names: list[str]) -> list[str]:
    return [name for name in names if name in reply]


def _first_card(data: dict[str, Any], query: str, request: str) -> str:
    parsed = parse_products(data, "food")
    card = fit_card(parsed, {"query": query}, "food", request)
    assert isinstance(card, ProductsResult)
    return card.items[0].name


def test_a_search_reply_names_one_pick_the_first_card_and_lists_nothing() -> None:
    data = _search("high protein snacks")
    names = [str(p["displayName"]) for p in data["products"]]
    reply = instamart_replies.products_reply(data, "high protein snacks", 200, nutrition=True)
    first = _first_card(data, "high protein snacks", "high protein snacks under ₹200")
    assert _named(reply, names) == [first]
    assert "Protein Bar" in first and "\n1." not in reply and "₹" in reply
    shown = instamart_replies.shown_products(data, 200, "high protein snacks")
    assert shown[0]["displayName"] == first, "“the first one” is the first card"


def test_several_searches_reply_with_one_line_and_no_product_names() -> None:
    found = [("eggs", _search("eggs")), ("bread", _search("bread"))]
    names = [str(p["displayName"]) for _, data in found for p in data["products"]]
    reply = instamart_replies.several_reply(found, None)
    assert _named(reply, names) == [] and "\n" not in reply
    assert "“eggs” and “bread”" in reply


def test_restaurant_menu_and_venue_replies_name_one_place_or_dish() -> None:
    catalog = load_catalog()
    lunch = datetime(2026, 11, 26, 13, 0, tzinfo=SWIGGY_TZ)
    found = [
        restaurant_wire(r, BASE, (12.97, 77.59), lunch)
        for r in catalog.search_restaurants("biryani")
    ]
    reply = food_replies.restaurants_reply({"restaurants": found}, "biryani")
    assert len(_named(reply, [str(r["name"]) for r in found])) == 1 and "\n" not in reply

    dishes = [
        {"id": str(i), "name": name, "price": 24900, "isVeg": True}
        for i, name in enumerate(["Veg Dum Biryani", "Paneer Tikka", "Gulab Jamun"])
    ]
    menu = {"restaurant": {"name": "Meghana Foods"}, "items": dishes}
    reply = food_replies.menu_reply(menu, ["biryani"])
    assert _named(reply, [str(d["name"]) for d in dishes]) == ["Veg Dum Biryani"]

    venues = [
        {"name": name, "locality": "Indiranagar", "avgRating": 4.4, "costForTwo": "₹1,800 for two"}
        for name in ("Toit", "The Fatty Bao", "Truffles")
    ]
    reply = dineout_replies.venues_reply({"restaurants": venues}, " for 4", [])
    assert _named(reply, ["Toit", "The Fatty Bao", "Truffles"]) == ["Toit"]
    assert "\n" not in reply


def test_the_amount_to_pay_is_its_own_paragraph_after_the_cart_list() -> None:
    # Markdown runs a line straight after a list into its last item ("— ₹108 To pay: …").
    grocery = {
        "items": [{"quantity": 4, "name": "Amul Taaza Toned Milk", "finalPrice": 108}],
        "billBreakdown": {"toPay": 147},
    }
    food = {
        "restaurant": {"name": "Meghana Foods"},
        "items": [{"quantity": 1, "name": "Paneer Biryani", "total": 320}],
        "pricing": {"to_pay": 371},
    }
    for reply in (instamart_replies.cart_reply(grocery), food_replies.food_cart_reply(food)):
        listed, _, after = reply.rpartition("\n\n")
        assert after.startswith("To pay: ₹"), reply
        assert listed.splitlines()[-1].startswith("1. "), reply


def _dish(name: str, where: str, rating: float, paise: int, **more: Any) -> dict[str, Any]:
    return {
        "id": f"{where}-{name}",
        "name": name,
        "price": paise,
        "inStock": True,
        "restaurantId": where,
        "restaurantName": where.title(),
        "restaurantRating": rating,
        **more,
    }


def test_a_dish_search_recommends_a_dish_to_add_from_an_open_place() -> None:
    restaurants = [
        {"id": "blues", "name": "Blues", "avgRating": 4.0},
        {"id": "meghana", "name": "Meghana", "avgRating": 4.5},
        {"id": "shut", "name": "Shut", "avgRating": 4.9, "availabilityStatus": "CLOSED"},
    ]
    dishes = [
        _dish("Paneer Biryani", "blues", 4.0, 24900),
        _dish("Paneer Biryani", "shut", 4.9, 19900),  # closed: never recommended
        _dish("Paneer Biryani", "meghana", 4.5, 25900),
        _dish("Paneer Biryani XL", "meghana", 4.5, 35900, inStock=False),
    ]
    reply = food_replies.restaurants_reply(
        {"restaurants": restaurants, "dishes": dishes}, "paneer biryani"
    )
    assert "Paneer Biryani from Meghana (rated 4.5, ₹259) looks best" in reply
    assert "Press Add on a dish" in reply and "Shut" not in reply


def test_a_search_without_dishes_points_at_the_menus() -> None:
    reply = food_replies.restaurants_reply(
        {"restaurants": [{"id": "a", "name": "Wok Express", "avgRating": 4.1}]}, "chinese"
    )
    assert "Wok Express" in reply and "Press Menu on a card" in reply
