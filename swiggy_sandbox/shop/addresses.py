"""Per-user address books, seeded with the catalog's saved addresses on first use.

Shared by the three servers, as on Swiggy. Listings follow the documented get_addresses
shape (`addresses` plus `pagination`); create_address takes Swiggy's documented fields and
geocodes an address given without coordinates to a point in Bengaluru.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass, fields, replace
from typing import Any

from sqlalchemy import Column, Connection, String, func, select

from swiggy_sandbox.catalog import Catalog, SavedAddress, haversine_km
from swiggy_sandbox.catalog.seeds import LOCALITIES
from swiggy_sandbox.catalog.wire import address_wire
from swiggy_sandbox.shop import db
from swiggy_sandbox.shop.errors import ShopError

CITY_CENTRE = (12.9716, 77.5946)
SERVICE_RADIUS_KM = 40.0
MAX_PAGE_SIZE = 10
ADDRESS_CATEGORIES = ("HOME", "WORK", "OFFICE", "FRIENDS_AND_FAMILY", "OTHER")
_CITY_NAMES = frozenset({"bengaluru", "bangalore"})
_BENGALURU_PIN_PREFIX = "560"
_PHONE_RE = re.compile(r"^(?:\+?91)?([6-9]\d{9})$")
_PIN_RE = re.compile(r"^\d{6}$")
_MAX_ADDRESSES = 20
# An address with no known locality lands this far (at most) from the city centre.
_GEOCODE_SPREAD_DEGREES = 0.04

# What Swiggy keeps beyond the line and the point: category, contact, city, PIN code.
address_details = db.table(
    "address_details",
    Column("user_id", String, primary_key=True),
    Column("address_id", String, primary_key=True),
    Column("category", String, nullable=False),
    Column("phone", String, nullable=False),
    Column("name", String, nullable=False),
    Column("city", String, nullable=False),
    Column("postal_code", String, nullable=False),
)


@dataclass(frozen=True, slots=True)
class NewAddress:
    """create_address's documented arguments (required ones first)."""

    full_address: str
    address_line: str
    address_line2: str
    city: str
    postal_code: str
    category: str
    user_name: str
    user_phone: str
    locality: str = ""
    latitude: float | None = None
    longitude: float | None = None
    tag: str = ""
    receiver_name: str = ""
    receiver_phone: str = ""


def category_for(label: str) -> str:
    """The addressCategory a plain label implies ("Home" → HOME, "Gym" → OTHER)."""
    upper = label.strip().upper().replace(" ", "_")
    return upper if upper in ADDRESS_CATEGORIES else "OTHER"


def _postal_code(text: str) -> str:
    match = re.search(r"\b(\d{6})\b", text)
    return match.group(1) if match else ""


class AddressBook:
    """Saved addresses per user."""

    def __init__(self, database: db.Database, catalog: Catalog) -> None:
        self._db = database
        self._catalog = catalog

    def _ensure_seeded(self, conn: Connection, user_id: str) -> None:
        known = conn.execute(select(db.users.c.user_id).where(db.users.c.user_id == user_id))
        if known.first() is not None:
            return
        conn.execute(db.users.insert().values(user_id=user_id))
        for position, seed in enumerate(self._catalog.addresses):
            address = replace(
                seed,
                category=category_for(seed.label),
                postal_code=_postal_code(seed.address_line),
            )
            self._insert(conn, user_id, address, position)

    def _insert(self, conn: Connection, user_id: str, a: SavedAddress, position: int) -> None:
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
        conn.execute(
            address_details.insert().values(
                user_id=user_id,
                address_id=a.id,
                category=a.category,
                phone=a.phone,
                name=a.name,
                city=a.city,
                postal_code=a.postal_code,
            )
        )

    def saved(self, conn: Connection, user_id: str) -> list[SavedAddress]:
        """The user's addresses in the order they were saved."""
        self._ensure_seeded(conn, user_id)
        a, d = db.addresses, address_details
        joined = a.outerjoin(d, (d.c.user_id == a.c.user_id) & (d.c.address_id == a.c.address_id))
        rows = conn.execute(
            select(a, d.c.category, d.c.phone, d.c.name, d.c.city, d.c.postal_code)
            .select_from(joined)
            .where(a.c.user_id == user_id)
            .order_by(a.c.position)
        )
        out = []
        for r in rows:
            address = SavedAddress(r.address_id, r.label, r.address_line, r.locality, r.lat, r.lng)
            if r.category is None:  # saved before details were kept: derive them
                address = replace(address, category=category_for(r.label))
            else:
                address = replace(
                    address,
                    category=r.category,
                    phone=r.phone,
                    name=r.name,
                    city=r.city,
                    postal_code=r.postal_code,
                )
            out.append(address)
        return out

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

    def listing(
        self, user_id: str, page: int = 1, page_size: int = MAX_PAGE_SIZE
    ) -> dict[str, Any]:
        """One page of the documented get_addresses payload."""
        if page < 1:
            raise ShopError(f"Invalid page {page}: pages start at 1.")
        if not 1 <= page_size <= MAX_PAGE_SIZE:
            raise ShopError(f"Invalid pageSize {page_size}: use 1 to {MAX_PAGE_SIZE}.")
        with self._db.tx() as conn:
            every = self.saved(conn, user_id)
        start = (page - 1) * page_size
        total_pages = max(1, -(-len(every) // page_size))
        return {
            "addresses": [address_wire(a) for a in every[start : start + page_size]],
            "pagination": {
                "page": page,
                "pageSize": page_size,
                "total": len(every),
                "totalPages": total_pages,
                "hasMore": start + page_size < len(every),
            },
        }

    def create(self, user_id: str, new: NewAddress) -> SavedAddress:
        """Save a new address inside the delivery area (geocoded when no point is given)."""
        checked = _checked(new)
        lat, lng, locality = _locate(checked)
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
                id=f"addr_{number}",
                label=checked.tag or checked.category.replace("_", " ").capitalize(),
                address_line=checked.full_address,
                locality=locality,
                lat=lat,
                lng=lng,
                category=checked.category,
                phone=_phone(checked.receiver_phone or checked.user_phone),
                name=checked.receiver_name or checked.user_name,
                city=checked.city,
                postal_code=checked.postal_code,
            )
            self._insert(conn, user_id, address, position)
        return address

    def delete(self, user_id: str, address_id: str) -> SavedAddress:
        """Remove an address (fails if it does not exist)."""
        with self._db.tx() as conn:
            address = self.get(conn, user_id, address_id)
            for table in (db.addresses, address_details):
                conn.execute(
                    table.delete().where(
                        (table.c.user_id == user_id) & (table.c.address_id == address_id)
                    )
                )
        return address


def _checked(new: NewAddress) -> NewAddress:
    """The arguments trimmed and validated, or a ShopError naming the first bad one."""
    texts: dict[str, Any] = {
        f.name: getattr(new, f.name).strip()
        for f in fields(new)
        if isinstance(getattr(new, f.name), str)
    }
    trimmed = replace(new, **texts)
    required = {
        "fullAddress": trimmed.full_address,
        "addressLine": trimmed.address_line,
        "city": trimmed.city,
        "postalCode": trimmed.postal_code,
        "userName": trimmed.user_name,
        "userPhone": trimmed.user_phone,
    }
    for name, value in required.items():
        if not value:
            raise ShopError(f"Missing {name}: it is required to save an address.")
    if trimmed.category not in ADDRESS_CATEGORIES:
        allowed = ", ".join(ADDRESS_CATEGORIES)
        raise ShopError(f"Invalid addressCategory '{trimmed.category}': use one of {allowed}.")
    for name, phone in (
        ("userPhone", trimmed.user_phone),
        ("receiverPhone", trimmed.receiver_phone),
    ):
        if phone and not _PHONE_RE.match(re.sub(r"[\s-]", "", phone)):
            raise ShopError(f"Invalid {name} '{phone}': give a 10-digit Indian mobile number.")
    if not _PIN_RE.match(trimmed.postal_code):
        raise ShopError(f"Invalid postalCode '{trimmed.postal_code}': use the 6-digit PIN code.")
    outside = "the sandbox delivers within Bengaluru only"
    if trimmed.city.lower() not in _CITY_NAMES:
        raise ShopError(f"Invalid city '{trimmed.city}': {outside}.")
    if not trimmed.postal_code.startswith(_BENGALURU_PIN_PREFIX):
        raise ShopError(f"Invalid postalCode '{trimmed.postal_code}': {outside} (560xxx).")
    if (trimmed.latitude is None) != (trimmed.longitude is None):
        raise ShopError("Invalid location: give both latitude and longitude, or neither.")
    return trimmed


def _phone(text: str) -> str:
    match = _PHONE_RE.match(re.sub(r"[\s-]", "", text))
    return match.group(1) if match else text


def _locate(new: NewAddress) -> tuple[float, float, str]:
    """The address's point and locality: as given, else from a known locality, else near the
    centre (a stable spot per PIN code)."""
    text = " ".join((new.locality, new.address_line2, new.full_address, new.address_line)).lower()
    known = next((name for name in LOCALITIES if name.lower() in text), None)
    if new.latitude is not None and new.longitude is not None:
        lat, lng = new.latitude, new.longitude
        if haversine_km(lat, lng, *CITY_CENTRE) > SERVICE_RADIUS_KM:
            raise ShopError(
                "Invalid location: the sandbox delivers within Bengaluru only "
                f"({SERVICE_RADIUS_KM:.0f} km of the city centre)."
            )
        return lat, lng, new.locality or known or new.city
    if known is not None:
        lat, lng = LOCALITIES[known]
        return lat, lng, new.locality or known
    seed = zlib.crc32(new.postal_code.encode())
    dlat = ((seed % 1000) / 1000 - 0.5) * 2 * _GEOCODE_SPREAD_DEGREES
    dlng = (((seed // 1000) % 1000) / 1000 - 0.5) * 2 * _GEOCODE_SPREAD_DEGREES
    lat, lng = CITY_CENTRE[0] + dlat, CITY_CENTRE[1] + dlng
    return round(lat, 6), round(lng, 6), new.locality or new.city
