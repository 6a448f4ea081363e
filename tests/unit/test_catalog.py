"""The shipped sandbox catalog: sizes, required fields, sane prices, menus, slots, search."""

from __future__ import annotations

from collections import Counter
from datetime import date, timedelta

import pytest

from swiggy_sandbox.catalog import (
    BOOKING_WINDOW_DAYS,
    Catalog,
    find_slot,
    load_catalog,
    render_svg,
    slots_for_day,
)
from swiggy_sandbox.catalog.generate import DATA_DIR, render_all
from swiggy_sandbox.catalog.models import Restaurant, Venue, from_camel
from swiggy_sandbox.catalog.slots import decode_slot_id

GROCERY = (
    "dairy",
    "staples",
    "snacks",
    "beverages",
    "fruits & veg",
    "breakfast",
    "protein",
    "frozen",
    "bakery",
    "household",
)
FOOD = tuple(c for c in GROCERY if c != "household")


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


def test_shipped_data_matches_the_generator() -> None:
    for name, text in render_all().items():
        assert (DATA_DIR / name).read_text(encoding="utf-8") == text, f"regenerate {name}"


def test_grocery_counts_and_nutrition(catalog: Catalog) -> None:
    by_category = Counter(p.category for p in catalog.products)
    assert sum(by_category[c] for c in GROCERY) >= 300
    assert all(by_category[c] >= 15 for c in GROCERY)
    food = [p for p in catalog.products if p.category in FOOD]
    assert len(food) >= 300
    for product in food:
        n = product.nutrition
        assert n is not None, product.display_name
        assert 0 <= n.energy_kcal <= 900
        assert n.protein_g + n.carbs_g + n.fat_g <= 101 and n.fibre_g <= max(n.carbs_g, 1)
        # Atwater factors (fibre ~2 kcal/g): label energy should roughly match the macros.
        estimate = 4 * n.protein_g + 4 * (n.carbs_g - n.fibre_g) + 9 * n.fat_g + 2 * n.fibre_g
        assert abs(estimate - n.energy_kcal) <= 0.25 * n.energy_kcal + 25, product.display_name
        assert product.is_veg is not None
    assert all(p.nutrition is None for p in catalog.products if p.category == "household")


def test_beauty_items_carry_skin_and_hair_types(catalog: Catalog) -> None:
    beauty = [p for p in catalog.products if p.category == "beauty"]
    assert len(beauty) >= 80
    subs = Counter(p.sub_category for p in beauty)
    for sub in (
        "face wash",
        "sunscreen",
        "moisturiser",
        "serum",
        "shampoo",
        "hair oil",
        "beard",
        "razor",
        "deodorant",
    ):
        assert subs[sub] >= 2, sub
    oily = [p for p in beauty if p.sub_category == "face wash" and "oily skin" in p.skin_types]
    dry = [p for p in beauty if p.sub_category == "face wash" and "dry skin" in p.skin_types]
    assert len(oily) >= 3 and len(dry) >= 3
    assert sum(1 for p in beauty if p.hair_types) >= 8


def test_products_have_ids_and_sane_prices(catalog: Catalog) -> None:
    ids = [p.product_id for p in catalog.products]
    spins = [v.spin_id for p in catalog.products for v in p.variations]
    assert len(set(ids)) == len(ids) and len(set(spins)) == len(spins)
    brands = {p.brand for p in catalog.products}
    for brand in (
        "Amul",
        "Aashirvaad",
        "Haldiram's",
        "MuscleBlaze",
        "Yoga Bar",
        "Minimalist",
        "Mamaearth",
        "Cetaphil",
        "The Derma Co",
        "Beardo",
    ):
        assert brand in brands
    for product in catalog.products:
        assert product.display_name.startswith(product.brand) and product.variations
        for v in product.variations:
            assert 0 < v.offer_price <= v.mrp < 10_000
            assert v.quantity_description and v.sku_id != v.spin_id
            assert 1 <= v.max_quantity <= 5 and v.stock >= 0
    sold_out = [v for p in catalog.products for v in p.variations if v.stock == 0]
    assert 0 < len(sold_out) < len(spins) // 10


def test_restaurants_have_full_menus_in_paise(catalog: Catalog) -> None:
    assert len(catalog.restaurants) >= 40
    assert len({r.area_name for r in catalog.restaurants}) >= 10
    for restaurant in catalog.restaurants:
        assert len(restaurant.dishes) >= 10, restaurant.name
        assert 3.5 <= restaurant.avg_rating <= 5 and restaurant.cost_for_two >= 200
        for dish in restaurant.dishes:
            assert dish.price % 100 == 0 and 2_000 <= dish.price <= 120_000
            assert not (dish.variants and dish.variants_v2), "variants or variantsV2, never both"
            if restaurant.veg:
                assert dish.is_veg, dish.name
            block = dish.variants or dish.variants_v2
            for group in (block or {}).get("variantGroups", []):
                assert sum(v["default"] for v in group["variations"]) == 1
    assert any(d.variants for r in catalog.restaurants for d in r.dishes)
    assert any(d.variants_v2 for r in catalog.restaurants for d in r.dishes)
    assert any(not d.is_veg for r in catalog.restaurants for d in r.dishes)


def test_dineout_venues_have_seven_days_of_slots(catalog: Catalog) -> None:
    assert len(catalog.venues) >= 20
    start = date(2026, 11, 24)
    for venue in catalog.venues:
        week = [slots_for_day(venue, start + timedelta(days=i)) for i in range(BOOKING_WINDOW_DAYS)]
        assert all(week), venue.name
        assert any(s.tables for day in week for s in day)
        slot = week[3][0]
        assert decode_slot_id(slot.slot_id) == (slot.day, slot.time)
        assert find_slot(venue, slot.slot_id) == slot
        assert venue.free_ticket_id.startswith(f"{venue.id}-")
    assert find_slot(catalog.venues[0], 12) is None


def test_saved_addresses(catalog: Catalog) -> None:
    labels = {a.label: a for a in catalog.addresses}
    assert set(labels) == {"Home", "Work", "Other"}
    assert "Indiranagar" in labels["Home"].address_line
    assert "Koramangala" in labels["Work"].address_line
    assert all(12.8 < a.lat < 13.2 and 77.4 < a.lng < 77.8 for a in catalog.addresses)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("face wash for oily skin", "oily skin"),
        ("sunscreen", "sunscreen"),
        ("dahi", "curd"),
        ("whey protein", "whey"),
    ],
)
def test_search_finds_the_obvious_product(catalog: Catalog, query: str, expected: str) -> None:
    top = catalog.search_products(query)[0]
    assert expected in " ".join([top.display_name.lower(), *top.tags, *top.skin_types])


def test_search_ranks_restaurants_and_dishes(catalog: Catalog) -> None:
    assert "Biryani" in catalog.search_restaurants("biryani")[0].cuisines
    assert all("dosa" in d.name.lower() for _, d in catalog.search_dishes("masala dosa")[:3])
    assert catalog.search_products("xyzzy") == []
    assert catalog.search_venues("rooftop")


def test_svg_images(catalog: Catalog) -> None:
    product = catalog.products[0]
    svg = render_svg(catalog, "product", product.product_id)
    assert svg is not None and svg.startswith("<svg") and "</svg>" in svg
    restaurant = next(r for r in catalog.restaurants if "&" in r.name)
    escaped = render_svg(catalog, "restaurant", restaurant.id)
    assert escaped is not None and "&amp;" in escaped and "& " not in escaped
    assert render_svg(catalog, "product", "missing") is None
    assert render_svg(catalog, "unknown-kind", product.product_id) is None


def test_entities_read_their_camel_case_keys_lists_as_tuples() -> None:
    raw = {
        "id": "v1",
        "name": "Hill View",
        "cuisines": ["North Indian", "Chinese"],
        "locality": "Indiranagar",
        "address": "12 Main Road",
        "lat": 12.97,
        "lng": 77.64,
        "costForTwo": 1200,
        "avgRating": 4.3,
        "tags": ["rooftop"],
        "meals": ["dinner"],
        "freeOfferPercent": 10,
        "freeTicketId": "free-1",
        "primeTicketId": "prime-1",
        "primePrice": 200,
    }
    venue = Venue.from_dict(raw)
    assert venue.cost_for_two == 1200 and venue.free_ticket_id == "free-1"
    assert venue.cuisines == ("North Indian", "Chinese") and venue.meals == ("dinner",)
    restaurant = load_catalog().restaurants[0]
    assert from_camel(Restaurant, _wire(restaurant), dishes=restaurant.dishes) == restaurant


def _wire(restaurant: Restaurant) -> dict[str, object]:
    return {
        "id": restaurant.id,
        "name": restaurant.name,
        "cuisines": list(restaurant.cuisines),
        "areaName": restaurant.area_name,
        "lat": restaurant.lat,
        "lng": restaurant.lng,
        "avgRating": restaurant.avg_rating,
        "totalRatings": restaurant.total_ratings,
        "costForTwo": restaurant.cost_for_two,
        "veg": restaurant.veg,
        "opensAt": restaurant.opens_at,
        "closesAt": restaurant.closes_at,
        "prepMinutes": restaurant.prep_minutes,
    }
