"""Generate swiggy_sandbox/data/*.json from data/seeds/ (deterministic: same seeds, same bytes).

Run: python -m swiggy_sandbox.catalog.generate
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from swiggy_sandbox.catalog import seeds
from swiggy_sandbox.catalog._ids import hash_int, stable_id
from swiggy_sandbox.catalog._places import build_addresses, build_restaurants, build_venues

DATA_DIR = Path(__file__).resolve().parent.parent / "data"

_SKIN = (
    "very dry skin", "oily skin", "dry skin", "sensitive skin", "combination skin",
    "normal skin", "all skin types",
)  # fmt: skip
_HAIR = (
    "dry hair", "damaged hair", "frizzy hair", "oily hair", "oily scalp", "sensitive scalp",
    "itchy scalp", "all hair types",
)  # fmt: skip
_PHRASES = (
    *_SKIN, *_HAIR, "acne prone", "acne marks", "dark spots", "dull skin", "tan removal",
    "anti ageing", "fine lines", "hair fall", "beard growth", "patchy beard", "dry lips",
    "barrier repair", "gentle cleanser", "spf 50", "roll on", "high protein", "full cream",
    "cottage cheese", "healthy snack", "dry fruits", "leafy greens", "soft drink",
    "health drink", "green tea", "south indian", "ready to cook", "washing machine",
)  # fmt: skip
_DISCOUNTS = (0, 0, 5, 8, 10, 12, 15, 20)
_BRAND_FACTORS = (0.92, 0.96, 1.0, 1.04, 1.08)
_ORGANIC = ("Organic Tattva", 1.6)


def _tags(text: str) -> list[str]:
    """Split a tag string into known phrases first, then single words."""
    rest, found = f" {text} ", []
    for phrase in _PHRASES:
        if f" {phrase} " in rest:
            found.append(phrase)
            rest = rest.replace(f" {phrase} ", " ")
    return list(dict.fromkeys(found + rest.split()))


def _variations(product_id: str, packs: seeds.Packs, factor: float, max_qty: int) -> list[Any]:
    """Packs with deterministic offer prices and stock (about 1 in 25 sold out)."""
    out = []
    for index, (size, mrp) in enumerate(packs):
        key = f"{product_id}:{index}"
        seed = hash_int(key)
        price = max(1, round(mrp * factor))
        discount = _DISCOUNTS[seed % len(_DISCOUNTS)]
        # Everyday low-price staples (milk, bread) are rarely discounted much.
        offer = round(price * (100 - (min(discount, 5) if price < 60 else discount)) / 100)
        out.append(
            {
                "spinId": stable_id("SPN", key),
                "skuId": stable_id("SKU", key, 10),
                "quantityDescription": size,
                "mrp": price,
                "offerPrice": offer,
                "stock": 0 if seed % 25 == 0 else 12 + seed % 48,
                "maxQuantity": max_qty,
            }
        )
    return out


def _nutrition(values: tuple[float, ...] | None) -> dict[str, float] | None:
    if values is None:
        return None
    keys = ("energyKcal", "proteinG", "carbsG", "fatG", "fibreG")
    return {key: (int(v) if v == int(v) else v) for key, v in zip(keys, values, strict=True)}


def _product(
    row: seeds.GroceryRow | seeds.BeautyRow, brand: str, category: str, factor: float
) -> dict[str, Any]:
    product_id = stable_id("P", f"{brand}|{row.name}")
    sub = row.sub_category if isinstance(row, seeds.BeautyRow) else row.name.split("(")[0]
    tags = _tags(f"{sub} {row.tags}" if category == "beauty" else row.tags)
    max_qty = 2 if "whey" in row.tags else 3 if category == "beauty" else 5
    item: dict[str, Any] = {
        "productId": product_id,
        "displayName": f"{brand} {row.name}",
        "brand": brand,
        "category": category,
        "subCategory": sub.strip().lower(),
        "tags": tags,
        "isVeg": None if category in ("beauty", "household") else "non-veg" not in row.tags,
        "nutrition": _nutrition(getattr(row, "nutrition", None)),
        "variations": _variations(product_id, row.packs, factor, max_qty),
    }
    if category == "beauty":
        item["skinTypes"] = [t for t in tags if t in _SKIN]
        item["hairTypes"] = [t for t in tags if t in _HAIR]
    return item


def _factor(brand: str, brands: tuple[str, ...]) -> float:
    """Competing brands price the same product a little differently."""
    return _BRAND_FACTORS[hash_int(brand) % len(_BRAND_FACTORS)] if len(brands) > 1 else 1.0


def build_products() -> list[dict[str, Any]]:
    """Groceries (with nutrition), fresh produce, household and beauty items."""
    products = [
        _product(row, brand, row.category, _factor(brand, row.brands))
        for row in seeds.grocery_rows() + seeds.household_rows()
        for brand in row.brands
    ]
    for row, organic in seeds.produce_rows():
        lines = [("Instamart Fresh", 1.0), *([_ORGANIC] if organic else [])]
        fresh = row._replace(name=row.name, tags=f"{row.category} {row.tags}")
        products += [_product(fresh, brand, "fruits & veg", f) for brand, f in lines]
    products += [_product(row, row.brand, "beauty", 1.0) for row in seeds.beauty_rows()]
    return products


def render_all() -> dict[str, str]:
    """File name → JSON text for every generated data file."""
    payloads = {
        "products.json": build_products(),
        "restaurants.json": build_restaurants(),
        "dineout.json": build_venues(),
        "addresses.json": build_addresses(),
    }
    return {
        name: json.dumps(data, ensure_ascii=False, indent=1) + "\n"
        for name, data in payloads.items()
    }


def main() -> None:
    """Write the data files next to the package."""
    for name, text in render_all().items():
        (DATA_DIR / name).write_text(text, encoding="utf-8")
        print(f"wrote {DATA_DIR / name} ({len(text) // 1024} KiB)")


if __name__ == "__main__":
    main()
