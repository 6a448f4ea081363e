"""The wiring every part of the shop shares: database, catalog, addresses, clock, base URL."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from swiggy_sandbox.catalog import Catalog
from swiggy_sandbox.shop import db
from swiggy_sandbox.shop.addresses import AddressBook


class ShopPart:
    """Base of the Instamart and Food shop parts (one place for their shared state)."""

    def __init__(
        self,
        database: db.Database,
        catalog: Catalog,
        addresses: AddressBook,
        clock: Callable[[], datetime],
        base_url: str,
    ) -> None:
        self._db, self._catalog, self._addresses = database, catalog, addresses
        self._clock, self._base_url = clock, base_url
