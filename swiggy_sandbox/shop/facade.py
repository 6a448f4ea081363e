"""The `Shop`: one catalog, one database and one clock shared by the three servers."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from swiggy_core.constants import LOOPBACK_BIND_ADDRESS
from swiggy_sandbox.catalog import Catalog, SavedAddress, load_catalog
from swiggy_sandbox.shop.addresses import AddressBook
from swiggy_sandbox.shop.db import IN_MEMORY_URL, Database
from swiggy_sandbox.shop.dineout import DineoutShop
from swiggy_sandbox.shop.food import FoodShop
from swiggy_sandbox.shop.instamart import InstamartShop

Clock = Callable[[], datetime]
DEFAULT_BASE_URL = f"http://{LOOPBACK_BIND_ADDRESS}:8765"


def system_clock() -> datetime:
    """The real time (tests inject a fixed clock instead)."""
    return datetime.now(UTC)


class Shop:
    """State and behaviour of the sandbox Swiggy, per user."""

    def __init__(
        self,
        *,
        db_url: str = IN_MEMORY_URL,
        clock: Clock = system_clock,
        base_url: str = DEFAULT_BASE_URL,
        catalog: Catalog | None = None,
    ) -> None:
        self.catalog = catalog or load_catalog()
        self.clock = clock
        self.base_url = base_url.rstrip("/")
        self.db = Database(db_url)
        self.addresses = AddressBook(self.db, self.catalog)
        self.instamart = InstamartShop(self.db, self.catalog, self.addresses, clock, self.base_url)
        self.food = FoodShop(self.db, self.catalog, self.addresses, clock, self.base_url)
        self.dineout = DineoutShop(self.db, self.catalog, clock, self.base_url)

    def saved_addresses(self, user_id: str) -> list[SavedAddress]:
        """The user's saved addresses (seeded on first use)."""
        with self.db.tx() as conn:
            return self.addresses.saved(conn, user_id)

    def address(self, user_id: str, address_id: str) -> SavedAddress:
        """One of the user's addresses (ShopError when unknown)."""
        with self.db.tx() as conn:
            return self.addresses.get(conn, user_id, address_id)

    def close(self) -> None:
        """Release the database."""
        self.db.close()
