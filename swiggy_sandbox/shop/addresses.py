"""Per-user address books, seeded with the catalog's saved addresses on first use."""

from __future__ import annotations

from sqlalchemy import Connection, func, select

from swiggy_sandbox.catalog import Catalog, SavedAddress, haversine_km
from swiggy_sandbox.shop import db
from swiggy_sandbox.shop.errors import ShopError

CITY_CENTRE = (12.9716, 77.5946)
SERVICE_RADIUS_KM = 40.0
_MAX_ADDRESSES = 20


class AddressBook:
    """Saved addresses per user (shared by all three servers, as on Swiggy)."""

    def __init__(self, database: db.Database, catalog: Catalog) -> None:
        self._db = database
        self._catalog = catalog

    def _ensure_seeded(self, conn: Connection, user_id: str) -> None:
        known = conn.execute(select(db.users.c.user_id).where(db.users.c.user_id == user_id))
        if known.first() is not None:
            return
        conn.execute(db.users.insert().values(user_id=user_id))
        for position, a in enumerate(self._catalog.addresses):
            conn.execute(
                db.addresses.insert().values(
                    user_id=user_id,
                    address_id=a.id,
                    label=a.label,
                    address_line=a.address_line,
                    locality=a.locality,
                    lat=a.lat,
                    lng=a.lng,
                    position=position,
                )
            )

    def saved(self, conn: Connection, user_id: str) -> list[SavedAddress]:
        """The user's addresses in the order they were saved."""
        self._ensure_seeded(conn, user_id)
        rows = conn.execute(
            select(db.addresses)
            .where(db.addresses.c.user_id == user_id)
            .order_by(db.addresses.c.position)
        )
        return [
            SavedAddress(r.address_id, r.label, r.address_line, r.locality, r.lat, r.lng)
            for r in rows
        ]

    def get(self, conn: Connection, user_id: str, address_id: str) -> SavedAddress:
        """One address, or a ShopError worded like Swiggy's (clients match 'address with id')."""
        if not address_id:
            raise ShopError("Missing addressId: call get_addresses and pass one of the ids.")
        for address in self.saved(conn, user_id):
            if address.id == address_id:
                return address
        raise ShopError(
            f"Address with id '{address_id}' not found. Call get_addresses for valid ids."
        )

    def create(
        self, user_id: str, address_line: str, label: str, lat: float, lng: float, locality: str
    ) -> SavedAddress:
        """Save a new address inside the delivery area."""
        if not address_line.strip():
            raise ShopError("Missing addressLine: give the full street address.")
        if haversine_km(lat, lng, *CITY_CENTRE) > SERVICE_RADIUS_KM:
            raise ShopError(
                "Invalid location: the sandbox delivers within Bengaluru only "
                f"({SERVICE_RADIUS_KM:.0f} km of the city centre)."
            )
        with self._db.tx() as conn:
            existing = self.saved(conn, user_id)
            if len(existing) >= _MAX_ADDRESSES:
                raise ShopError(f"You can save at most {_MAX_ADDRESSES} addresses.")
            number = self._db.next_id(conn, "address", 1001)
            position = conn.execute(
                select(func.coalesce(func.max(db.addresses.c.position), -1) + 1).where(
                    db.addresses.c.user_id == user_id
                )
            ).scalar_one()
            address = SavedAddress(
                f"addr_{number}",
                label.strip() or "Other",
                address_line.strip(),
                locality.strip() or "Bengaluru",
                lat,
                lng,
            )
            conn.execute(
                db.addresses.insert().values(
                    user_id=user_id,
                    address_id=address.id,
                    label=address.label,
                    address_line=address.address_line,
                    locality=address.locality,
                    lat=lat,
                    lng=lng,
                    position=position,
                )
            )
        return address

    def delete(self, user_id: str, address_id: str) -> SavedAddress:
        """Remove an address (fails if it does not exist)."""
        with self._db.tx() as conn:
            address = self.get(conn, user_id, address_id)
            conn.execute(
                db.addresses.delete().where(
                    (db.addresses.c.user_id == user_id) & (db.addresses.c.address_id == address_id)
                )
            )
        return address
