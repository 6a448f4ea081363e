"""Food delivery: restaurants, dishes and menus near an address, and ordering by UPI."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from swiggy_sandbox.catalog import Dish, Restaurant, SavedAddress
from swiggy_sandbox.shop.common import page, require_offset
from swiggy_sandbox.shop.errors import ShopError
from swiggy_sandbox.shop.food_cart import FoodCart
from swiggy_sandbox.shop.food_order_wire import pending_extras
from swiggy_sandbox.shop.food_rules import PAISE
from swiggy_sandbox.shop.food_wire import (
    dish_hit,
    flat_menu,
    menu_item,
    menu_restaurant,
    restaurant_card,
)
from swiggy_sandbox.shop.upi import NewPayment, start_payment
from swiggy_sandbox.shop.upi_request import UpiChoice

_BOLT_KM = 3.0
_STORE_99_PAISE = 99 * PAISE
_HEALTHY_CUISINES = frozenset({"Healthy Food", "Salads", "Bowls"})
_SHOWN_DISHES = 10


def _healthy(restaurant: Restaurant, card: dict[str, Any]) -> bool:
    return bool(_HEALTHY_CUISINES & set(restaurant.cuisines))


def _bolt(restaurant: Restaurant, card: dict[str, Any]) -> bool:
    return bool(card["distanceKm"] <= _BOLT_KM)


def _budget(restaurant: Restaurant, card: dict[str, Any]) -> bool:
    return any(dish.price <= _STORE_99_PAISE for dish in restaurant.dishes)


# Swiggy's collections: EatRight (healthy), Bolt (nearby, fast) and the ₹99 store.
_COLLECTIONS: dict[str, Callable[[Restaurant, dict[str, Any]], bool]] = {
    "EATRIGHT": _healthy,
    "BOLT": _bolt,
    "STORE_99": _budget,
}


def _query(query: str) -> str:
    if not query.strip():
        raise ShopError("Missing query: give a dish, cuisine or restaurant name.")
    return query.strip()


class FoodShop(FoodCart):
    """Swiggy Food behaviour over the shared database."""

    def _address(self, user_id: str, address_id: str) -> SavedAddress:
        with self._db.tx() as conn:
            return self._addresses.get(conn, user_id, address_id)

    def search_restaurants(
        self, user_id: str, address_id: str, query: str, offset: int, collection: str | None
    ) -> dict[str, Any]:
        """Restaurants delivering to the address (open ones first) and matching dishes."""
        require_offset(offset)
        query = _query(query)
        keep = _COLLECTIONS.get(collection or "", lambda _r, _c: True)
        address = self._address(user_id, address_id)
        origin, now = (address.lat, address.lng), self._clock()
        found = [
            (r, restaurant_card(r, self._base_url, origin, now))
            for r in self._catalog.search_restaurants(query)
            if self._nearby(address, r)
        ]
        cards = [card for r, card in found if keep(r, card)]
        # Like Swiggy, places that can deliver now come first; closed ones sink (stable).
        cards.sort(key=lambda card: card["availabilityStatus"] != "OPEN")
        shown, next_offset = page(cards, offset)
        listed = {card["id"] for card in cards}
        dishes = [
            dish_hit(r, d, self._base_url, origin)
            for r, d in self._catalog.search_dishes(query)
            if r.id in listed and (collection != "STORE_99" or d.price <= _STORE_99_PAISE)
        ][:_SHOWN_DISHES]
        return {
            "restaurants": shown,
            "dishes": dishes,
            "nextOffset": next_offset,
            "query": query,
            "totalRestaurants": len(cards),
            "hasMore": next_offset is not None,
        }

    def search_menu(
        self,
        user_id: str,
        address_id: str,
        query: str,
        restaurant_id: str | None,
        veg_only: bool,
        offset: int,
    ) -> dict[str, Any]:
        """Dishes (with every customisation) matching a query, optionally in one restaurant."""
        require_offset(offset)
        query = _query(query)
        if restaurant_id:
            self._restaurant(restaurant_id)
        address = self._address(user_id, address_id)
        hits: list[tuple[Restaurant, Dish]] = [
            (r, d)
            for r, d in self._catalog.search_dishes(query)
            if (not restaurant_id or r.id == str(restaurant_id))
            and (d.is_veg or not veg_only)
            and self._nearby(address, r)
        ]
        shown, next_offset = page(hits, offset)
        data: dict[str, Any] = {
            "items": [menu_item(r, d, self._base_url) for r, d in shown],
            "query": query,
            "totalItems": len(hits),
            "hasMore": next_offset is not None,
        }
        if restaurant_id:
            data["restaurantIdOfAddedItem"] = str(restaurant_id)
        if next_offset is not None:
            data["nextOffset"] = next_offset
        return data

    def menu(self, user_id: str, address_id: str, restaurant_id: str) -> dict[str, Any]:
        """The browse menu: a flat list of unique dishes with category labels (price in paise)."""
        restaurant = self._restaurant(restaurant_id)
        address = self._address(user_id, address_id)
        info = menu_restaurant(restaurant, (address.lat, address.lng), self._clock())
        return {"restaurant": info, **flat_menu(restaurant)}

    def start_upi_order(
        self, user_id: str, address_id: str, note: str | None, choice: UpiChoice
    ) -> dict[str, Any]:
        """Start a UPI payment for the cart: the order is placed (and the cart emptied) only
        once the payment succeeds and is confirmed."""
        with self._db.tx() as conn:
            state = self._orderable(conn, user_id, address_id)
            payload = self._order_payload(conn, state, "UPI", note)
            amount = float(payload["pricing"]["to_pay"])
            new = NewPayment(
                user_id, "food", payload["orderId"], amount, payload["placedAt"], payload, choice
            )
            pending = start_payment(self._db, conn, new, self._base_url)
        return {**pending, **pending_extras(payload, state.cart_id)}
