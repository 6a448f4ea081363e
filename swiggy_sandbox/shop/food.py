"""Food delivery: restaurant and dish search, one-restaurant cart, coupons, COD orders, tracking."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection, select

from swiggy_sandbox.catalog import Restaurant, SavedAddress, haversine_km, is_open
from swiggy_sandbox.catalog.wire import address_wire, dish_info, restaurant_wire
from swiggy_sandbox.shop import db
from swiggy_sandbox.shop.common import page, require_cod, require_offset
from swiggy_sandbox.shop.errors import ShopError
from swiggy_sandbox.shop.food_orders import FoodOrders
from swiggy_sandbox.shop.food_rules import COUPONS, MAX_DELIVERY_KM, bill, coupon_problem, resolve

# collection → (restaurant wire) predicate; other collections are treated as extra query words.
_COLLECTIONS: dict[str, Callable[[dict[str, Any]], bool]] = {
    "pure veg": lambda r: r["veg"],
    "veg": lambda r: r["veg"],
    "top rated": lambda r: r["avgRating"] >= 4.3,
    "fast delivery": lambda r: r["sla"]["deliveryTime"] <= 30,
    "open now": lambda r: r["isOpen"],
}


class FoodShop(FoodOrders):
    """Swiggy Food behaviour over the shared database."""

    def _nearby(self, address: SavedAddress, restaurant: Restaurant) -> bool:
        km = haversine_km(address.lat, address.lng, restaurant.lat, restaurant.lng)
        return km <= MAX_DELIVERY_KM

    def _restaurant(self, restaurant_id: str) -> Restaurant:
        restaurant = self._catalog.restaurant(str(restaurant_id))
        if restaurant is None:
            raise ShopError(f"Invalid restaurantId '{restaurant_id}': use an id from search.")
        return restaurant

    def search_restaurants(
        self, user_id: str, address_id: str, query: str, offset: int, collection: str | None
    ) -> dict[str, Any]:
        """Restaurants delivering to the address, best match first."""
        require_offset(offset)
        key = (collection or "").strip().lower()
        words = f"{query} {key}" if key and key not in _COLLECTIONS else query
        if not words.strip():
            raise ShopError("Missing query: give a dish, cuisine or restaurant name.")
        with self._db.tx() as conn:
            address = self._addresses.get(conn, user_id, address_id)
        origin, now = (address.lat, address.lng), self._clock()
        cards = [
            restaurant_wire(r, self._base_url, origin, now)
            for r in self._catalog.search_restaurants(words)
            if self._nearby(address, r)
        ]
        if key in _COLLECTIONS:
            cards = [c for c in cards if _COLLECTIONS[key](c)]
        # Like Swiggy, places that can deliver now come first; closed ones sink (stable).
        cards.sort(key=lambda card: not card["isOpen"])
        shown, next_offset = page(cards, offset)
        return {"restaurants": shown, "nextOffset": next_offset, "totalResults": len(cards)}

    def search_menu(
        self,
        user_id: str,
        address_id: str,
        query: str,
        restaurant_id: str | None,
        veg_only: bool,
        offset: int,
    ) -> dict[str, Any]:
        """Dishes matching a query, optionally locked to one restaurant."""
        require_offset(offset)
        if restaurant_id:
            self._restaurant(restaurant_id)
        with self._db.tx() as conn:
            address = self._addresses.get(conn, user_id, address_id)
        origin, now = (address.lat, address.lng), self._clock()
        hits = [
            (r, d)
            for r, d in self._catalog.search_dishes(query)
            if (not restaurant_id or r.id == str(restaurant_id))
            and (d.is_veg or not veg_only)
            and self._nearby(address, r)
        ]
        shown, next_offset = page(hits, offset)
        dishes = [
            {
                "card": {"info": dish_info(d, self._base_url)},
                "restaurant": restaurant_wire(r, self._base_url, origin, now),
            }
            for r, d in shown
        ]
        return {"dishes": dishes, "nextOffset": next_offset, "totalResults": len(hits)}

    def menu(self, user_id: str, address_id: str, restaurant_id: str) -> dict[str, Any]:
        """The full menu: categories of `itemCards[].card.info` (prices in paise)."""
        restaurant = self._restaurant(restaurant_id)
        with self._db.tx() as conn:
            address = self._addresses.get(conn, user_id, address_id)
        categories: dict[str, list[dict[str, Any]]] = {}
        for dish in restaurant.dishes:
            card = {"card": {"info": dish_info(dish, self._base_url)}}
            categories.setdefault(dish.category, []).append(card)
        return {
            "restaurant": restaurant_wire(
                restaurant, self._base_url, (address.lat, address.lng), self._clock()
            ),
            "menu": {
                "categories": [{"title": t, "itemCards": cards} for t, cards in categories.items()]
            },
        }

    def update_cart(
        self,
        user_id: str,
        restaurant_id: str,
        address_id: str,
        items: list[dict[str, Any]],
        restaurant_name: str | None,
    ) -> tuple[dict[str, Any], str]:
        """Set the cart to `items` from one restaurant; another restaurant's cart is replaced."""
        restaurant = self._restaurant(restaurant_id)
        if not is_open(restaurant.opens_at, restaurant.closes_at, self._clock()):
            raise ShopError(f"{restaurant.name} is closed now; it opens at {restaurant.opens_at}.")
        with self._db.tx() as conn:
            address = self._addresses.get(conn, user_id, address_id)
            if not self._nearby(address, restaurant):
                raise ShopError(f"{restaurant.name} does not deliver to {address.label}.")
            lines = [line for line in (resolve(restaurant, raw) for raw in items) if line.quantity]
            previous = self._cart_row(conn, user_id)
            switched = previous is not None and previous.restaurant_id != restaurant.id
            keep_coupon = previous.coupon_code if previous is not None and not switched else None
            conn.execute(db.food_carts.delete().where(db.food_carts.c.user_id == user_id))
            if lines:
                conn.execute(
                    db.food_carts.insert().values(
                        user_id=user_id,
                        restaurant_id=restaurant.id,
                        restaurant_name=restaurant_name or restaurant.name,
                        address_id=address.id,
                        lines=[line.stored() for line in lines],
                        coupon_code=keep_coupon,
                    )
                )
            view = self._cart_view(conn, user_id, address_id)
        message = "Cart updated."
        if switched and previous is not None:
            message = (
                f"Your cart from {previous.restaurant_name} was replaced with {restaurant.name}."
            )
        return view, message

    def cart(self, user_id: str, address_id: str | None) -> dict[str, Any]:
        """The cart with a bill for the given (or the cart's) address."""
        with self._db.tx() as conn:
            return self._cart_view(conn, user_id, address_id)

    def flush(self, user_id: str) -> dict[str, Any]:
        """Empty the cart."""
        with self._db.tx() as conn:
            conn.execute(db.food_carts.delete().where(db.food_carts.c.user_id == user_id))
            return self._cart_view(conn, user_id, None)

    def coupons(self, user_id: str) -> dict[str, Any]:
        """Coupons and whether each applies to the current cart."""
        with self._db.tx() as conn:
            view = self._cart_view(conn, user_id, None)
        total = view["billBreakdown"]["itemTotal"]
        out = []
        for coupon in COUPONS.values():
            problem = coupon_problem(coupon, total) if total else "Your cart is empty."
            out.append(
                {
                    "code": coupon.code,
                    "description": coupon.description,
                    "minOrderValue": coupon.min_order,
                    "isApplicable": problem is None,
                    **({"reason": problem} if problem else {}),
                }
            )
        return {"coupons": out, "appliedCoupon": view["appliedCoupon"]}

    def apply_coupon(self, user_id: str, code: str, address_id: str | None) -> dict[str, Any]:
        """Apply a coupon to the cart (replacing any other)."""
        coupon = COUPONS.get(code.strip().upper())
        if coupon is None:
            raise ShopError(f"Invalid coupon code '{code}'. Call fetch_food_coupons for options.")
        with self._db.tx() as conn:
            view = self._cart_view(conn, user_id, address_id)
            if not view["items"]:
                raise ShopError("Your cart is empty: add dishes before applying a coupon.")
            problem = coupon_problem(coupon, view["billBreakdown"]["itemTotal"])
            if problem:
                raise ShopError(problem)
            conn.execute(
                db.food_carts.update()
                .where(db.food_carts.c.user_id == user_id)
                .values(coupon_code=coupon.code)
            )
            return self._cart_view(conn, user_id, address_id)

    def place_order(
        self, user_id: str, address_id: str, payment_method: str | None, note: str | None
    ) -> dict[str, Any]:
        """Place a COD order for the cart and empty it (orders cannot be cancelled)."""
        method = require_cod(payment_method)
        with self._db.tx() as conn:
            address = self._addresses.get(conn, user_id, address_id)
            view = self._cart_view(conn, user_id, address_id)
            if not view["items"]:
                raise ShopError("Your cart is empty: add dishes with update_food_cart first.")
            restaurant = self._restaurant(view["restaurantId"])
            if not is_open(restaurant.opens_at, restaurant.closes_at, self._clock()):
                raise ShopError(f"{restaurant.name} has closed; the order was not placed.")
            if not self._nearby(address, restaurant):
                raise ShopError(f"{restaurant.name} does not deliver to {address.label}.")
            order = self._record_order(conn, user_id, view, address_wire(address), method, note)
            conn.execute(db.food_carts.delete().where(db.food_carts.c.user_id == user_id))
            return order

    def _cart_row(self, conn: Connection, user_id: str) -> Any:
        return conn.execute(select(db.food_carts).where(db.food_carts.c.user_id == user_id)).first()

    def _cart_view(self, conn: Connection, user_id: str, address_id: str | None) -> dict[str, Any]:
        row = self._cart_row(conn, user_id)
        if row is None:
            return {
                "restaurantId": None,
                "restaurantName": None,
                "addressId": address_id,
                "items": [],
                "itemCount": 0,
                "appliedCoupon": None,
                "billBreakdown": bill(0, 0, None),
            }
        restaurant = self._restaurant(row.restaurant_id)
        address = self._addresses.get(conn, user_id, address_id or row.address_id)
        lines = [resolve(restaurant, stored) for stored in row.lines]
        km = haversine_km(address.lat, address.lng, restaurant.lat, restaurant.lng)
        coupon = COUPONS.get(row.coupon_code or "")
        item_total = sum(line.unit_paise * line.quantity for line in lines) / 100
        if coupon and coupon_problem(coupon, item_total):
            coupon = None  # the cart shrank below the coupon's minimum
        card = restaurant_wire(
            restaurant, self._base_url, (address.lat, address.lng), self._clock()
        )
        return {
            "restaurantId": restaurant.id,
            "restaurantName": row.restaurant_name,
            "addressId": address.id,
            "items": [line.wire() for line in lines],
            "itemCount": sum(line.quantity for line in lines),
            "appliedCoupon": coupon.code if coupon else None,
            "sla": card["sla"],
            "billBreakdown": bill(item_total, km, coupon),
        }
