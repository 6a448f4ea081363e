"""The sandbox catalog: groceries, beauty, restaurants with menus, dine-out venues, addresses."""

from swiggy_sandbox.catalog.geo import haversine_km, is_open
from swiggy_sandbox.catalog.images import IMAGE_KINDS, render_svg
from swiggy_sandbox.catalog.loader import Catalog, load_catalog
from swiggy_sandbox.catalog.models import (
    Dish,
    Nutrition,
    Product,
    Restaurant,
    SavedAddress,
    Variation,
    Venue,
)
from swiggy_sandbox.catalog.slots import BOOKING_WINDOW_DAYS, Slot, find_slot, slots_for_day

__all__ = [
    "BOOKING_WINDOW_DAYS",
    "IMAGE_KINDS",
    "Catalog",
    "Dish",
    "Nutrition",
    "Product",
    "Restaurant",
    "SavedAddress",
    "Slot",
    "Variation",
    "Venue",
    "find_slot",
    "haversine_km",
    "is_open",
    "load_catalog",
    "render_svg",
    "slots_for_day",
]
