"""Build restaurants (with menus), dine-out venues and addresses for generate.py."""

from __future__ import annotations

from typing import Any

from swiggy_sandbox.catalog import seeds
from swiggy_sandbox.catalog._ids import hash_int


def _variant_block(dish_id: str, key: str, is_veg: bool) -> tuple[str, dict[str, Any]]:
    """A variants (legacy) or variantsV2 block; option prices are paise added to the dish."""
    group_name, options = seeds.VARIANTS[key]
    group_id = f"{dish_id}1"
    variations = [
        {
            "id": f"{group_id}{i}",
            "name": name,
            "price": extra * 100,
            "default": default,
            "inStock": True,
            "isVeg": is_veg,
        }
        for i, (name, extra, default) in enumerate(options)
    ]
    group = {"groupId": group_id, "name": group_name, "variations": variations}
    return ("variantsV2" if key.endswith("_v2") else "variants"), {"variantGroups": [group]}


def _addon_block(dish_id: str, key: str) -> dict[str, Any]:
    name, max_addons, choices = seeds.ADDONS[key]
    group_id = f"{dish_id}9"
    return {
        "groupId": group_id,
        "groupName": name,
        "maxAddons": max_addons,
        "minAddons": 0,
        "choices": [
            {"id": f"{group_id}{i}", "name": choice, "price": price * 100, "isVeg": veg}
            for i, (choice, price, veg) in enumerate(choices)
        ],
    }


def _dish(dish_id: str, row: seeds.DishRow, factor: float) -> dict[str, Any]:
    dish: dict[str, Any] = {
        "id": dish_id,
        "name": row.name,
        "price": round(row.price * factor) * 100,
        "isVeg": row.is_veg,
        "description": row.description,
        "inStock": hash_int(dish_id) % 30 != 0,
    }
    variant_key, *addon_keys = row.customisation.split("+") if row.customisation else ("",)
    if variant_key:
        field, block = _variant_block(dish_id, variant_key, row.is_veg)
        dish[field] = block
    if addon_keys:
        dish["addons"] = [_addon_block(dish_id, key) for key in addon_keys]
    return dish


def _menu(rest_id: str, spec: seeds.RestaurantRow, templates: list[seeds.DishRow]) -> list[Any]:
    rows = [r for r in templates if r.menu == spec.menu and (r.is_veg or not spec.veg_only)]
    lead = rows[0]
    specials = [
        lead._replace(category="Recommended", name=name, price=round(lead.price * 1.2))
        for name in spec.specials
    ]
    sections: dict[str, list[dict[str, Any]]] = {}
    for index, row in enumerate(specials + rows):
        dish = _dish(f"{rest_id}{index:03d}", row, spec.price_factor)
        sections.setdefault(row.category, []).append(dish)
    return [{"category": name, "dishes": dishes} for name, dishes in sections.items()]


def build_restaurants() -> list[dict[str, Any]]:
    """Delivery restaurants with full menus (prices in paise)."""
    templates = seeds.dish_rows()
    out = []
    for spec in seeds.restaurant_rows():
        rest_id = str(100000 + hash_int(spec.name) % 900000)
        lat, lng = seeds.LOCALITIES[spec.locality]
        seed = hash_int(rest_id)
        out.append(
            {
                "id": rest_id,
                "name": spec.name,
                "cuisines": list(spec.cuisines),
                "areaName": spec.locality,
                # Spread restaurants of one locality over a few hundred metres.
                "lat": round(lat + (seed % 41 - 20) / 10000, 6),
                "lng": round(lng + (seed // 41 % 41 - 20) / 10000, 6),
                "avgRating": spec.rating,
                "totalRatings": 500 + seed % 20000,
                "costForTwo": int(round(spec.price_factor * 400, -1)),
                "veg": spec.veg_only,
                "opensAt": spec.hours[0],
                "closesAt": spec.hours[1],
                "prepMinutes": 12 + seed % 14,
                "menu": _menu(rest_id, spec, templates),
            }
        )
    return out


def build_venues() -> list[dict[str, Any]]:
    """Dine-out venues (slots are computed at run time from the clock)."""
    out = []
    for spec in seeds.venue_rows():
        venue_id = str(200000 + hash_int(f"dineout|{spec.name}") % 700000)
        lat, lng = seeds.LOCALITIES[spec.locality]
        out.append(
            {
                "id": venue_id,
                "name": spec.name,
                "cuisines": list(spec.cuisines),
                "locality": spec.locality,
                "address": f"{spec.address}, Bengaluru",
                "lat": lat,
                "lng": lng,
                "costForTwo": spec.cost_for_two,
                "avgRating": spec.rating,
                "tags": list(spec.tags),
                "meals": list(spec.meals),
                "freeOfferPercent": spec.offer_percent,
                # Real item ids look like "<restaurantId>-<ticketId>".
                "freeTicketId": f"{venue_id}-{venue_id[-3:]}1",
                "primeTicketId": f"{venue_id}-{venue_id[-3:]}2",
                "primePrice": 100 + spec.cost_for_two // 20,
            }
        )
    return out


def build_addresses() -> list[dict[str, Any]]:
    """The three saved addresses every sandbox user starts with."""
    out = []
    for address_id, label, line, locality in seeds.ADDRESSES:
        lat, lng = seeds.LOCALITIES[locality]
        out.append(
            {
                "id": address_id,
                "label": label,
                "addressLine": line,
                "locality": locality,
                "lat": lat,
                "lng": lng,
            }
        )
    return out
