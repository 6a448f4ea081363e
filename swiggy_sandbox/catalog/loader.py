"""Load the shipped JSON catalog once and index it for lookups and search."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from swiggy_sandbox.catalog.models import Dish, Product, Restaurant, SavedAddress, Variation, Venue
from swiggy_sandbox.catalog.search import Index

DATA_DIR = Path(__file__).resolve().parent.parent / "data"


def _read(name: str) -> Any:
    return json.loads((DATA_DIR / name).read_text(encoding="utf-8"))


class Catalog:
    """Everything the sandbox sells, with id lookups and ranked search."""

    def __init__(
        self,
        products: list[Product],
        restaurants: list[Restaurant],
        venues: list[Venue],
        addresses: list[SavedAddress],
    ) -> None:
        self.products = tuple(products)
        self.restaurants = tuple(restaurants)
        self.venues = tuple(venues)
        self.addresses = tuple(addresses)
        self._products = {p.product_id: p for p in products}
        self._variations = {v.spin_id: (p, v) for p in products for v in p.variations}
        self._restaurants = {r.id: r for r in restaurants}
        self._dishes = {d.id: (r, d) for r in restaurants for d in r.dishes}
        self._venues = {v.id: v for v in venues}
        self._product_index = Index(products, _product_fields)
        self._restaurant_index = Index(restaurants, _restaurant_fields)
        self._dish_index = Index(list(self._dishes.values()), _dish_fields)
        self._venue_index = Index(venues, _venue_fields)

    def product(self, product_id: str) -> Product | None:
        """Product by id."""
        return self._products.get(product_id)

    def variation(self, spin_id: str) -> tuple[Product, Variation] | None:
        """Product and pack for a spinId."""
        return self._variations.get(spin_id)

    def restaurant(self, restaurant_id: str) -> Restaurant | None:
        """Delivery restaurant by id."""
        return self._restaurants.get(restaurant_id)

    def dish(self, dish_id: str) -> tuple[Restaurant, Dish] | None:
        """Restaurant and dish for a menu item id."""
        return self._dishes.get(dish_id)

    def venue(self, venue_id: str) -> Venue | None:
        """Dine-out venue by id."""
        return self._venues.get(venue_id)

    def search_products(self, query: str) -> list[Product]:
        """Products ranked for a free-text query."""
        return self._product_index.rank(query)

    def search_restaurants(self, query: str) -> list[Restaurant]:
        """Restaurants ranked by name, cuisine, area and dishes."""
        return self._restaurant_index.rank(query)

    def search_dishes(self, query: str) -> list[tuple[Restaurant, Dish]]:
        """(restaurant, dish) pairs ranked for a query."""
        return self._dish_index.rank(query)

    def search_venues(self, query: str) -> list[Venue]:
        """Dine-out venues ranked by name, cuisine, locality and vibe."""
        return self._venue_index.rank(query)

    def similar_products(self, product: Product, exclude: set[str], limit: int) -> list[Product]:
        """Other products of the same sub-category (then category)."""
        same_sub = [p for p in self.products if p.sub_category == product.sub_category]
        same_cat = [p for p in self.products if p.category == product.category]
        picks: list[Product] = []
        for candidate in same_sub + same_cat:
            if candidate.product_id not in exclude and candidate not in picks:
                picks.append(candidate)
            if len(picks) == limit:
                break
        return picks


def _product_fields(p: Product) -> list[tuple[str, float]]:
    sizes = " ".join(v.quantity_description.replace(" ", "") for v in p.variations)
    return [
        (p.display_name, 1.0),
        (p.brand, 1.0),
        (p.sub_category, 1.1),
        (" ".join(p.tags), 0.9),
        (p.category, 0.5),
        (sizes, 0.5),
    ]


def _restaurant_fields(r: Restaurant) -> list[tuple[str, float]]:
    dish_names = " ".join(d.name for d in r.dishes)
    return [(r.name, 1.2), (" ".join(r.cuisines), 1.0), (r.area_name, 0.6), (dish_names, 0.4)]


def _dish_fields(pair: tuple[Restaurant, Dish]) -> list[tuple[str, float]]:
    restaurant, dish = pair
    return [
        (dish.name, 1.2),
        (dish.category, 0.6),
        (dish.description, 0.4),
        (restaurant.name, 0.5),
        (" ".join(restaurant.cuisines), 0.3),
    ]


def _venue_fields(v: Venue) -> list[tuple[str, float]]:
    return [(v.name, 1.2), (" ".join(v.cuisines), 1.0), (v.locality, 0.8), (" ".join(v.tags), 0.8)]


@functools.cache
def load_catalog() -> Catalog:
    """The shipped catalog, loaded once per process."""
    return Catalog(
        products=[Product.from_dict(raw) for raw in _read("products.json")],
        restaurants=[Restaurant.from_dict(raw) for raw in _read("restaurants.json")],
        venues=[Venue.from_dict(raw) for raw in _read("dineout.json")],
        addresses=[
            SavedAddress(a["id"], a["label"], a["addressLine"], a["locality"], a["lat"], a["lng"])
            for a in _read("addresses.json")
        ],
    )
