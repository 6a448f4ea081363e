"""Typed, immutable catalog entities loaded from the shipped JSON data."""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

Entity = TypeVar("Entity", bound="DataclassInstance")
_WORD_START_RE = re.compile(r"_([a-z])")


def from_camel(cls: type[Entity], raw: dict[str, Any], **given: Any) -> Entity:
    """An entity read from its JSON shape, where each field is the camelCase key of its
    name (`avg_rating` ← `avgRating`) and a list is kept as a tuple; `given` fields are
    taken as they are."""
    values = dict(given)
    for field in fields(cls):
        if field.name not in values:
            value = raw[_WORD_START_RE.sub(lambda m: m.group(1).upper(), field.name)]
            values[field.name] = tuple(value) if isinstance(value, list) else value
    return cls(**values)


@dataclass(frozen=True, slots=True)
class Nutrition:
    """Nutrition facts per 100 g (or 100 ml)."""

    energy_kcal: float
    protein_g: float
    carbs_g: float
    fat_g: float
    fibre_g: float

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Nutrition:
        """Build from the JSON shape."""
        return from_camel(cls, raw)


@dataclass(frozen=True, slots=True)
class Variation:
    """One sellable pack of a product (what a cart line points at)."""

    spin_id: str
    sku_id: str
    quantity_description: str
    mrp: int
    offer_price: int
    stock: int
    max_quantity: int


@dataclass(frozen=True, slots=True)
class Product:
    """An Instamart product with its packs."""

    product_id: str
    display_name: str
    brand: str
    category: str
    sub_category: str
    tags: tuple[str, ...]
    skin_types: tuple[str, ...]
    hair_types: tuple[str, ...]
    is_veg: bool | None
    nutrition: Nutrition | None
    variations: tuple[Variation, ...]

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Product:
        """Build from the JSON shape."""
        nutrition = raw.get("nutrition")
        return cls(
            product_id=raw["productId"],
            display_name=raw["displayName"],
            brand=raw["brand"],
            category=raw["category"],
            sub_category=raw["subCategory"],
            tags=tuple(raw["tags"]),
            skin_types=tuple(raw.get("skinTypes", ())),
            hair_types=tuple(raw.get("hairTypes", ())),
            is_veg=raw.get("isVeg"),
            nutrition=Nutrition.from_dict(nutrition) if nutrition else None,
            variations=tuple(from_camel(Variation, v) for v in raw["variations"]),
        )

    @property
    def search_text(self) -> str:
        """Text the search index matches against."""
        parts = [self.display_name, self.brand, self.category, self.sub_category, *self.tags]
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class Dish:
    """A menu item; customisation blocks are kept in their wire shape."""

    id: str
    name: str
    price: int  # paise
    is_veg: bool
    description: str
    category: str
    in_stock: bool
    variants: dict[str, Any] | None
    variants_v2: dict[str, Any] | None
    addons: tuple[dict[str, Any], ...]

    @classmethod
    def from_dict(cls, raw: dict[str, Any], category: str) -> Dish:
        """Build from the JSON shape."""
        return cls(
            id=raw["id"],
            name=raw["name"],
            price=raw["price"],
            is_veg=raw["isVeg"],
            description=raw["description"],
            category=category,
            in_stock=raw.get("inStock", True),
            variants=raw.get("variants"),
            variants_v2=raw.get("variantsV2"),
            addons=tuple(raw.get("addons", ())),
        )


@dataclass(frozen=True, slots=True)
class Restaurant:
    """A delivery restaurant and its menu."""

    id: str
    name: str
    cuisines: tuple[str, ...]
    area_name: str
    lat: float
    lng: float
    avg_rating: float
    total_ratings: int
    cost_for_two: int  # rupees
    veg: bool
    opens_at: str
    closes_at: str
    prep_minutes: int
    dishes: tuple[Dish, ...]

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Restaurant:
        """Build from the JSON shape."""
        dishes = tuple(
            Dish.from_dict(dish, section["category"])
            for section in raw["menu"]
            for dish in section["dishes"]
        )
        return from_camel(cls, raw, dishes=dishes)

    @property
    def search_text(self) -> str:
        """Text the search index matches against."""
        return " ".join([self.name, *self.cuisines, self.area_name])


@dataclass(frozen=True, slots=True)
class Venue:
    """A dine-out restaurant that takes table reservations."""

    id: str
    name: str
    cuisines: tuple[str, ...]
    locality: str
    address: str
    lat: float
    lng: float
    cost_for_two: int  # rupees
    avg_rating: float
    tags: tuple[str, ...]
    meals: tuple[str, ...]
    free_offer_percent: int
    free_ticket_id: str
    prime_ticket_id: str
    prime_price: int  # rupees

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Venue:
        """Build from the JSON shape."""
        return from_camel(cls, raw)

    @property
    def search_text(self) -> str:
        """Text the search index matches against."""
        return " ".join([self.name, *self.cuisines, self.locality, *self.tags])


@dataclass(frozen=True, slots=True)
class SavedAddress:
    """A saved delivery address (seeded into every user's address book)."""

    id: str
    label: str  # Swiggy's addressTag: "Home", "Work", "Gym"
    address_line: str
    locality: str
    lat: float
    lng: float
    category: str = "OTHER"  # addressCategory: HOME, WORK, OFFICE, FRIENDS_AND_FAMILY, OTHER
    phone: str = "9845012345"
    name: str = "Sandbox User"
    city: str = "Bengaluru"
    postal_code: str = ""
