"""Sandbox shop state, per user: carts, orders, bookings and addresses, in memory or in a
database (SQLite file, PostgreSQL) that several processes share."""

from swiggy_sandbox.shop.db import IN_MEMORY_URL, Database
from swiggy_sandbox.shop.errors import ShopError
from swiggy_sandbox.shop.facade import DEFAULT_BASE_URL, Clock, Shop, system_clock
from swiggy_sandbox.shop.instamart import CartLine

__all__ = [
    "DEFAULT_BASE_URL",
    "IN_MEMORY_URL",
    "CartLine",
    "Clock",
    "Database",
    "Shop",
    "ShopError",
    "system_clock",
]
