"""Seed tables for generate.py: pipe-separated text in data/seeds/ plus a few small constants."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

SEEDS_DIR = Path(__file__).resolve().parent.parent / "data" / "seeds"

Packs = tuple[tuple[str, int], ...]

LOCALITIES: dict[str, tuple[float, float]] = {
    "Indiranagar": (12.9719, 77.6412),
    "Koramangala": (12.9352, 77.6245),
    "HSR Layout": (12.9116, 77.6389),
    "Jayanagar": (12.9250, 77.5938),
    "JP Nagar": (12.9063, 77.5857),
    "BTM Layout": (12.9166, 77.6101),
    "Whitefield": (12.9698, 77.7500),
    "Marathahalli": (12.9569, 77.7011),
    "Bellandur": (12.9304, 77.6784),
    "Malleshwaram": (13.0035, 77.5709),
    "Basavanagudi": (12.9406, 77.5738),
    "MG Road": (12.9756, 77.6067),
    "Church Street": (12.9750, 77.6040),
    "Frazer Town": (12.9980, 77.6150),
    "Residency Road": (12.9680, 77.6090),
    "Richmond Town": (12.9614, 77.6027),
    "Domlur": (12.9610, 77.6387),
    "Ulsoor": (12.9817, 77.6210),
    "Lavelle Road": (12.9700, 77.5970),
    "Sarjapur Road": (12.9100, 77.6850),
    "Electronic City": (12.8452, 77.6602),
}

# (id, label, addressLine, locality)
ADDRESSES: tuple[tuple[str, str, str, str], ...] = (
    (
        "addr_home_indiranagar",
        "Home",
        "Flat 402, Lakeview Residency, 12th Main, HAL 2nd Stage, Indiranagar, Bengaluru 560038",
        "Indiranagar",
    ),
    (
        "addr_work_koramangala",
        "Work",
        "4th Floor, Tower B, Prestige Cube, 80 Feet Road, Koramangala 4th Block, Bengaluru 560034",
        "Koramangala",
    ),
    (
        "addr_other_jayanagar",
        "Other",
        "No. 27, 9th Cross, Jayanagar 4th Block, Bengaluru 560011",
        "Jayanagar",
    ),
)

# Add-on groups: key → (group name, max choices, [(choice, price ₹, isVeg)])
ADDONS: dict[str, tuple[str, int, list[tuple[str, int, bool]]]] = {
    "dips": ("Dips", 2, [("Mint Chutney", 20, True), ("Garlic Mayo", 30, True)]),
    "biryani": ("Extras", 3, [("Raita", 30, True), ("Extra Salan", 25, True), ("Egg", 20, False)]),
    "pizza": ("Toppings", 3, [("Extra Cheese", 60, True), ("Jalapeños", 40, True)]),
    "dosa": ("Add-ons", 2, [("Extra Chutney", 15, True), ("Extra Ghee", 25, True)]),
    "burger": ("Make it a meal", 2, [("Cheese Slice", 30, True), ("Fries & Coke", 99, True)]),
}

# Variant groups: key → (group name, [(option, extra ₹, default)]); *_v2 keys use variantsV2.
VARIANTS: dict[str, tuple[str, list[tuple[str, int, bool]]]] = {
    "half_full": ("Portion", [("Half", 0, True), ("Full", 120, False)]),
    "dry_gravy": ("Style", [("Dry", 0, True), ("Gravy", 20, False)]),
    "size_v2": ("Size", [("Regular", 0, True), ("Large", 110, False)]),
    "pizza_v2": (
        "Size",
        [('Regular 7"', 0, True), ('Medium 10"', 200, False), ('Large 13"', 380, False)],
    ),
    "cake_v2": ("Weight", [("500 g", 0, True), ("1 kg", 550, False)]),
}


class GroceryRow(NamedTuple):
    category: str
    name: str
    brands: tuple[str, ...]
    packs: Packs
    nutrition: tuple[float, ...] | None
    tags: str


class BeautyRow(NamedTuple):
    sub_category: str
    brand: str
    name: str
    packs: Packs
    tags: str


class DishRow(NamedTuple):
    menu: str
    category: str
    name: str
    price: int
    is_veg: bool
    description: str
    customisation: str


class RestaurantRow(NamedTuple):
    name: str
    cuisines: tuple[str, ...]
    locality: str
    menu: str
    price_factor: float
    rating: float
    veg_only: bool
    hours: tuple[str, str]
    specials: tuple[str, ...]


class VenueRow(NamedTuple):
    name: str
    cuisines: tuple[str, ...]
    locality: str
    cost_for_two: int
    rating: float
    tags: tuple[str, ...]
    meals: tuple[str, ...]
    offer_percent: int
    address: str


def _rows(name: str) -> list[list[str]]:
    lines = (SEEDS_DIR / name).read_text(encoding="utf-8").splitlines()
    return [[c.strip() for c in line.split("|")] for line in lines if line and line[0] != "#"]


def _items(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip() and part != "-")


def _packs(text: str) -> Packs:
    pairs = (part.rsplit("=", 1) for part in text.split(";"))
    return tuple((size.strip(), int(mrp)) for size, mrp in pairs)


def _numbers(text: str) -> tuple[float, ...]:
    return tuple(float(x) for x in text.split())


def grocery_rows() -> list[GroceryRow]:
    """Packaged groceries (one row per product line, several brands each)."""
    return [
        GroceryRow(c, n, _items(b), _packs(p), _numbers(nu), t)
        for c, n, b, p, nu, t in _rows("grocery.psv")
    ]


def produce_rows() -> list[tuple[GroceryRow, bool]]:
    """Fresh fruits and vegetables, with whether an organic line exists too."""
    out = []
    for name, pack, nutrition, tags, organic in _rows("produce.psv"):
        category = "fruits" if "fruits" in tags else "vegetables"
        row = GroceryRow(category, name, (), _packs(pack), _numbers(nutrition), tags)
        out.append((row, organic == "yes"))
    return out


def household_rows() -> list[GroceryRow]:
    """Household essentials (no nutrition facts)."""
    return [
        GroceryRow("household", n, _items(b), _packs(p), None, t)
        for n, b, p, t in _rows("household.psv")
    ]


def beauty_rows() -> list[BeautyRow]:
    """Beauty and grooming products."""
    return [BeautyRow(s, b, n, _packs(p), t) for s, b, n, p, t in _rows("beauty.psv")]


def dish_rows() -> list[DishRow]:
    """Menu templates per cuisine."""
    return [
        DishRow(m, c, n, int(p), v == "veg", d, "" if cu == "-" else cu)
        for m, c, n, p, v, d, cu in _rows("menus.psv")
    ]


def restaurant_rows() -> list[RestaurantRow]:
    """Delivery restaurants."""
    out = []
    for name, cuisines, loc, menu, factor, rating, veg, hours, specials in _rows("restaurants.psv"):
        opens, closes = hours.split("-")
        out.append(
            RestaurantRow(
                name,
                _items(cuisines),
                loc,
                menu,
                float(factor),
                float(rating),
                veg == "yes",
                (opens, closes),
                _items(specials),
            )
        )
    return out


def venue_rows() -> list[VenueRow]:
    """Dine-out venues."""
    return [
        VenueRow(n, _items(c), loc, int(cost), float(r), _items(t), _items(m), int(off), addr)
        for n, c, loc, cost, r, t, m, off, addr in _rows("dineout.psv")
    ]
