"""The Food cart: one restaurant at a time, coupons valid for cash, the documented FC shape."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, select

from swiggy_sandbox.catalog import Restaurant, SavedAddress, haversine_km, is_open
from swiggy_sandbox.shop import db
from swiggy_sandbox.shop.errors import ShopError
from swiggy_sandbox.shop.food_orders import FoodOrders
from swiggy_sandbox.shop.food_rules import (
    COUPONS,
    MAX_DELIVERY_KM,
    Coupon,
    Line,
    Pricing,
    coupon_problem,
    price_cart,
    resolve,
)
from swiggy_sandbox.shop.food_wire import restaurant_card

CASH = "Cash"


@dataclass(frozen=True, slots=True)
class CartState:
    """The stored cart resolved against the menu and priced for an address."""

    cart_id: str | None
    restaurant: Restaurant | None
    restaurant_name: str | None
    address: SavedAddress | None
    lines: list[Line]
    pricing: Pricing
    delivery_minutes: int = 0

    @property
    def empty(self) -> bool:
        """True when nothing is in the cart."""
        return not self.lines


def _cart_id(user_id: str, restaurant_id: str) -> str:
    """A stable reference for one user's cart at one restaurant."""
    digest = hashlib.sha256(f"{user_id}:{restaurant_id}".encode()).hexdigest()[:10]
    return f"FC{restaurant_id}-{digest}"


class FoodCart(FoodOrders):
    """Cart, coupons and placing orders."""

    def _nearby(self, address: SavedAddress, restaurant: Restaurant) -> bool:
        km = haversine_km(address.lat, address.lng, restaurant.lat, restaurant.lng)
        return km <= MAX_DELIVERY_KM

    def _restaurant(self, restaurant_id: str) -> Restaurant:
        restaurant = self._catalog.restaurant(str(restaurant_id))
        if restaurant is None:
            raise ShopError(f"Invalid restaurantId '{restaurant_id}': use an id from search.")
        return restaurant

    def _open(self, restaurant: Restaurant) -> bool:
        return is_open(restaurant.opens_at, restaurant.closes_at, self._clock())

    def update_cart(
        self,
        user_id: str,
        restaurant_id: str,
        address_id: str,
        items: list[dict[str, Any]],
        restaurant_name: str | None,
    ) -> tuple[dict[str, Any], str]:
        """Set the cart to `items` from one restaurant; another restaurant's cart is flushed."""
        restaurant = self._restaurant(restaurant_id)
        if not self._open(restaurant):
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
            state = self._state(conn, user_id, address_id)
        message = "Cart updated." if lines else "Your cart is empty."
        if switched and previous is not None:
            message = (
                f"Your cart from {previous.restaurant_name} was flushed: a cart holds one "
                f"restaurant, so it now has {restaurant.name}."
            )
        return self.cart_payload(state), message

    def cart_state(self, user_id: str, address_id: str | None) -> CartState:
        """The cart priced for the given (or the cart's own) address."""
        with self._db.tx() as conn:
            return self._state(conn, user_id, address_id)

    def cart(self, user_id: str, address_id: str | None) -> dict[str, Any]:
        """The Food cart (FC) priced for the address."""
        return self.cart_payload(self.cart_state(user_id, address_id))

    def flush(self, user_id: str) -> None:
        """Empty the cart."""
        with self._db.tx() as conn:
            conn.execute(db.food_carts.delete().where(db.food_carts.c.user_id == user_id))

    def coupon_list(
        self, user_id: str, restaurant_id: str, address_id: str
    ) -> list[tuple[Coupon, str | None, bool]]:
        """(coupon, why it does not apply or None, applied) for each coupon valid for cash."""
        state = self.cart_state(user_id, address_id)
        self._restaurant(restaurant_id)
        same = state.restaurant is not None and state.restaurant.id == str(restaurant_id)
        total = state.pricing.item_total if same else 0
        out = []
        for coupon in COUPONS.values():
            if coupon.online_only:
                continue  # never offered: the order is paid in cash (Swiggy issue #17)
            problem = coupon_problem(coupon, total) if total else "Add items to use this."
            out.append((coupon, problem, state.pricing.coupon == coupon))
        return out

    def apply_coupon(
        self, user_id: str, code: str, address_id: str, cart_id: str | None
    ) -> CartState:
        """Apply a coupon to the cart (replacing any other)."""
        coupon: Coupon | None = COUPONS.get(code.strip().upper())
        if coupon is None:
            raise ShopError(f"Invalid coupon code '{code}'. Call fetch_food_coupons for options.")
        with self._db.tx() as conn:
            state = self._state(conn, user_id, address_id)
            if state.empty:
                raise ShopError("Your cart is empty: add dishes before applying a coupon.")
            if cart_id and cart_id != state.cart_id:
                raise ShopError(f"Invalid cartId '{cart_id}': read the cart again.")
            problem = coupon_problem(coupon, state.pricing.item_total)
            if problem:
                raise ShopError(problem)
            conn.execute(
                db.food_carts.update()
                .where(db.food_carts.c.user_id == user_id)
                .values(coupon_code=coupon.code)
            )
            return self._state(conn, user_id, address_id)

    def _orderable(self, conn: Connection, user_id: str, address_id: str) -> CartState:
        """The cart, when it can be ordered now to this address (else ShopError)."""
        state = self._state(conn, user_id, address_id)
        if state.empty or state.restaurant is None or state.address is None:
            raise ShopError("Your cart is empty: add dishes with update_food_cart first.")
        if not self._open(state.restaurant):
            raise ShopError(f"{state.restaurant.name} has closed; the order was not placed.")
        if not self._nearby(state.address, state.restaurant):
            name, label = state.restaurant.name, state.address.label
            raise ShopError(f"{name} does not deliver to {label}.")
        return state

    def place_order(self, user_id: str, address_id: str, note: str | None) -> dict[str, Any]:
        """Place a cash order for the cart and empty it (orders cannot be cancelled)."""
        with self._db.tx() as conn:
            state = self._orderable(conn, user_id, address_id)
            order = self._record_order(conn, user_id, state, CASH, note)
            conn.execute(db.food_carts.delete().where(db.food_carts.c.user_id == user_id))
            return order

    def cart_payload(self, state: CartState) -> dict[str, Any]:
        """The Food cart (FC) as update_food_cart and get_food_cart nest it under `data`."""
        restaurant = None
        if state.restaurant is not None:
            restaurant = {
                "id": state.restaurant.id,
                "name": state.restaurant_name,
                "area": state.restaurant.area_name,
                "deliverySubtitle": f"Delivery in {state.delivery_minutes} mins",
            }
        return {
            "cart_id": state.cart_id,
            "restaurant": restaurant,
            "items": [line.cart_item(self._base_url) for line in state.lines],
            "item_count": sum(line.quantity for line in state.lines),
            "pricing": state.pricing.cart_pricing(),
            "offers": state.pricing.cart_offers(),
        }

    def _cart_row(self, conn: Connection, user_id: str) -> Any:
        return conn.execute(select(db.food_carts).where(db.food_carts.c.user_id == user_id)).first()

    def _state(self, conn: Connection, user_id: str, address_id: str | None) -> CartState:
        row = self._cart_row(conn, user_id)
        if row is None:
            if address_id:  # an unknown address is an error even for an empty cart
                self._addresses.get(conn, user_id, address_id)
            return CartState(None, None, None, None, [], price_cart(0, 0, None))
        restaurant = self._restaurant(row.restaurant_id)
        address = self._addresses.get(conn, user_id, address_id or row.address_id)
        lines = [resolve(restaurant, stored) for stored in row.lines]
        km = haversine_km(address.lat, address.lng, restaurant.lat, restaurant.lng)
        coupon = COUPONS.get(row.coupon_code or "")
        item_total = sum(line.total for line in lines)
        if coupon and coupon_problem(coupon, item_total):
            coupon = None  # the cart shrank below the coupon's minimum
        card = restaurant_card(
            restaurant, self._base_url, (address.lat, address.lng), self._clock()
        )
        return CartState(
            cart_id=_cart_id(user_id, restaurant.id),
            restaurant=restaurant,
            restaurant_name=row.restaurant_name,
            address=address,
            lines=lines,
            pricing=price_cart(item_total, km, coupon),
            delivery_minutes=card["deliveryTimeMinutes"],
        )
