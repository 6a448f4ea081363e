"""Ranking against the sandbox catalog: for each request, what must lead and what must not.

Each row is what a person asked, what was searched (the tool call's `query`) and which
search pages make up the cards (the first page of each, as the sandbox's
search_products returns it). A row passes when the first card names what must lead and
none of the first cards names what must not.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import cache

import pytest

from swiggy_core.constants import SWIGGY_TZ
from swiggy_core.parsers import ProductItem, RestaurantItem
from swiggy_core.parsers.products import parse_products
from swiggy_core.parsers.restaurants import parse_restaurants
from swiggy_core.ranking import rank, read_wants
from swiggy_sandbox.catalog import load_catalog
from swiggy_sandbox.catalog.wire import product_wire, restaurant_wire

PAGE = 10  # the sandbox's search page
BASE = "http://127.0.0.1:1"
ORIGIN = (12.9716, 77.5946)
LUNCH = datetime(2026, 11, 26, 13, 0, tzinfo=SWIGGY_TZ)


@dataclass(frozen=True)
class Row:
    """One request, what was searched, and the names that must and must not lead."""

    request: str
    searched: str
    pages: tuple[str, ...] = ()  # search pages that make up the cards (default: searched)
    lead: str = ""  # in the first card's name
    not_lead: tuple[str, ...] = ()  # in none of the first `top` cards' names
    top: int = 3


ROWS = [
    Row("high protein snacks", "high protein snacks", lead="Protein Bar",
        not_lead=("Milk Shake", "Oats")),
    Row("find high-protein snacks under ₹200", "high protein snacks", lead="Protein Bar",
        not_lead=("Milk Shake", "Oats")),
    Row("protein snacks", "protein snacks", lead="Protein Bar", not_lead=("Powder", "Whey")),
    Row("dahi", "dahi", lead="Curd"),
    Row("curd", "curd", pages=("curd", "greek yogurt"), lead="Curd", not_lead=("Yogurt",)),
    Row("cottage cheese", "cottage cheese", pages=("paneer", "cheese"), lead="Paneer",
        not_lead=("Cheese Slices", "Mozzarella")),
    Row("okra", "okra", pages=("bhindi", "onion"), lead="Bhindi", not_lead=("Onion",), top=1),
    Row("lady finger", "lady finger", pages=("bhindi", "potato"), lead="Bhindi", top=1,
        not_lead=("Potato",)),
    Row("wheat flour", "wheat flour", pages=("atta", "maida", "besan"), lead="Atta",
        not_lead=("Maida", "Besan")),
    Row("gram flour", "gram flour", pages=("atta", "maida", "besan"), lead="Besan",
        not_lead=("Atta", "Maida")),
    Row("all purpose flour", "all purpose flour", pages=("atta", "maida", "besan"),
        lead="Maida", not_lead=("Atta", "Besan"), top=2),
    Row("milk", "milk", lead="Milk", not_lead=("Chocolate", "Shake", "Rusk")),
    Row("chocolate", "chocolate", lead="Dark Chocolate", not_lead=("Biscuits",)),
    Row("eggs", "eggs", pages=("eggs", "chicken"), lead="Eggs", not_lead=("Chicken",)),
    Row("chocolate ice cream 500 ml", "ice cream 500 ml", pages=("ice cream",),
        lead="Chocolate Ice Cream", not_lead=("Vanilla",)),
    Row("veg momos", "momos", pages=("momos",), lead="Veg Momos", not_lead=("Chicken",),
        top=2),
    Row("jain snacks", "snacks", pages=("aloo bhujia", "peanuts", "potato chips"),
        not_lead=("Aloo", "Potato")),
    Row("eggetarian protein", "protein", pages=("eggs", "chicken", "tofu"),
        not_lead=("Chicken",)),
    Row("veg protein", "protein", pages=("eggs", "chicken", "tofu"), lead="Tofu",
        not_lead=("Chicken", "Eggs")),
    Row("vegan protein", "protein", pages=("whey", "plant protein", "milk shake"),
        lead="Plant Protein", not_lead=("Whey", "Shake")),
    Row("sunblock", "sunblock", pages=("moisturiser", "sunscreen"), lead="Sunscreen",
        top=1),
    Row("moisturizer", "moisturizer", pages=("sunscreen", "moisturiser"), top=1,
        not_lead=("Sunscreen",)),
    Row("face wash for oily skin", "face wash for oily skin", pages=("face wash",),
        lead="Oily Skin Cleanser", top=1),
    Row("biscut", "biscut", pages=("chips", "biscuits"), lead="Biscuits", not_lead=("Chips",)),
    Row("chiken", "chiken", pages=("paneer", "chicken"), lead="Chicken", not_lead=("Paneer",)),
    Row("kaju", "kaju", pages=("almonds", "cashew"), lead="Cashew", top=1,
        not_lead=("Almonds",)),
    Row("badam", "badam", pages=("cashew", "almonds"), lead="Almonds", top=1),
    Row("haldi", "haldi", pages=("chilli powder", "turmeric"), lead="Turmeric", top=1),
    Row("chai", "chai", pages=("tea",), lead="Tea", not_lead=("Face Wash", "Moisturizer")),
    Row("cold drink", "cold drink", pages=("chips", "cola"), lead="Soft Drink",
        not_lead=("Chips",)),
    Row("low sugar snacks", "low sugar snacks", pages=("sugar", "makhana"),
        lead="Makhana", not_lead=("Sugar",)),
    Row("something sweet", "something sweet", pages=("chips", "ice cream"),
        lead="Ice Cream", not_lead=("Chips",)),
    Row("healthy breakfast", "healthy breakfast", pages=("chips", "muesli"),
        lead="Muesli", not_lead=("Chips",)),
]  # fmt: skip


@cache
def _page(query: str) -> tuple[ProductItem, ...]:
    products = [
        product_wire(product, BASE, lambda variation: 10)
        for product in load_catalog().search_products(query)[:PAGE]
    ]
    parsed = parse_products({"products": products}, "food")
    assert parsed is not None, f"the sandbox has nothing for {query!r}"
    return tuple(parsed.items)


def _cards(*queries: str) -> list[ProductItem]:
    return [item for query in queries for item in _page(query)]


def test_the_table_has_at_least_thirty_requests() -> None:
    assert len({row.request for row in ROWS}) >= 30


@pytest.mark.parametrize("row", ROWS, ids=[row.request for row in ROWS])
def test_what_leads_fits_the_request(row: Row) -> None:
    cards = _cards(*(row.pages or (row.searched,)))
    ranked = rank(cards, read_wants(row.searched, row.request))
    names = [item.name for item in ranked.items]
    assert names, ranked
    if row.lead:
        assert row.lead in names[0], names[:3]
    for name in names[: row.top]:
        assert not any(word in name for word in row.not_lead), names[: row.top]


def test_a_budget_sets_aside_what_costs_more_and_says_so() -> None:
    cards = _cards("snacks", "chips")
    ranked = rank(cards, read_wants("snacks", "snacks under ₹50"))
    assert ranked.items and all(
        item.price is not None and item.price <= 50 for item in ranked.items
    )
    assert ranked.dropped and all(item.price and item.price > 50 for item in ranked.dropped)
    assert ranked.reasons == ["over ₹50"]
    assert len(ranked.items) + len(ranked.dropped) == len(cards), "nothing is lost"


def test_a_budget_counts_the_quantity_asked_for() -> None:
    cards = _cards("protein bar")
    one = rank(cards, read_wants("protein bar", "protein bar under 250"))
    three = rank(cards, read_wants("protein bar", "3 protein bars under 250"))
    assert 0 < len(three.items) < len(one.items)
    assert all(item.price and item.price * 3 <= 250 for item in three.items)


def test_snacks_are_not_a_one_kg_pack() -> None:
    cards = _cards("high protein snacks", "protein bar")
    ranked = rank(cards, read_wants("high protein snacks"))
    dropped = {item.name for item in ranked.dropped}
    assert "Yoga Bar High Protein Oats" in dropped
    assert not any("Oats" in item.name or "Shake" in item.name for item in ranked.items)
    assert set(ranked.reasons) <= {"other kinds of product", "bigger packs"}


def test_veg_sets_aside_meat_and_egg_jain_also_onion_and_potato() -> None:
    cards = _cards("momos", "eggs", "aloo bhujia", "peanuts", "chicken")
    veg = rank(cards, read_wants("snacks", "veg snacks"))
    assert not any(word in item.name for item in veg.items for word in ("Chicken", "Eggs"))
    assert "not vegetarian" in veg.reasons
    jain = rank(cards, read_wants("snacks", "jain snacks"))
    assert not any(word in item.name for item in jain.items for word in ("Aloo", "Chicken"))
    assert any("Peanuts" in item.name for item in jain.items)
    egg = rank(cards, read_wants("protein", "eggetarian protein"))
    assert any("Eggs" in item.name for item in egg.items)
    assert not any("Chicken" in item.name for item in egg.items)


def test_several_things_give_one_group_each_best_match_first() -> None:
    cards = _cards("bread", "eggs", "milk")  # the shop's order is not the asked order
    ranked = rank(cards, read_wants("milk, eggs and bread"))
    assert [(group.label, group.size > 0) for group in ranked.groups] == [
        ("Milk", True),
        ("Eggs", True),
        ("Bread", True),
    ]
    start = 0
    for group, word in zip(ranked.groups, ("Milk", "Eggs", "Bread"), strict=True):
        run = ranked.items[start : start + group.size]
        start += group.size
        assert word in run[0].name, [item.name for item in run]
    assert "Toned Milk" in ranked.items[0].name or "Cream Milk" in ranked.items[0].name


def test_nothing_that_fits_every_rule_keeps_everything_in_view() -> None:
    cards = _cards("almonds")
    ranked = rank(cards, read_wants("almonds", "almonds under ₹10"))
    assert len(ranked.items) == len(cards) and ranked.dropped == []


@cache
def _restaurants(query: str) -> tuple[RestaurantItem, ...]:
    catalog = load_catalog()
    found = [
        restaurant_wire(restaurant, BASE, ORIGIN, LUNCH)
        for restaurant in catalog.search_restaurants(query)[:PAGE]
    ]
    parsed = parse_restaurants({"restaurants": found}, "foodorder")
    assert parsed is not None
    return tuple(parsed.items)


def test_restaurants_lead_with_the_cuisine_asked_for() -> None:
    cards = [*_restaurants("biryani"), *_restaurants("chinese")]
    ranked = rank(cards, read_wants("chinese", "chinese food for two"))
    assert "Chinese" in ranked.items[0].cuisines
    assert all("Chinese" in item.cuisines for item in ranked.items[:3])
