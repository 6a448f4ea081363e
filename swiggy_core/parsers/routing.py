"""Routing on meaning: tool-name patterns and payload signals."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Any

from swiggy_core.parsers.records import iter_nodes
from swiggy_core.parsers.shapes import (
    CART_KEYS,
    MENU_KEYS,
    RECORD_KEYS,
    STRONG_RESTAURANT_KEYS,
    is_address_record,
    is_product_record,
    is_restaurant_record,
    is_slot_record,
)
from swiggy_core.shops import find_spender

_NAME_LIMIT = 128
_NAME_CACHE_SIZE = 512  # a session calls a few dozen tools, over and over
_SIGNAL_NODE_BUDGET = 1_500
# A dozen records tell a list's kind; counting hundreds would cost time, not accuracy.
_SIGNAL_RECORD_LIMIT = 8

# Tool-name patterns (short alternations on a length-limited name: no backtracking risk).
_SLOT_RE = re.compile(r"slot|avail|schedule|timeslot", re.IGNORECASE)
_CART_RE = re.compile(
    r"cart|basket|add_item|remove_item|update_item|modify_item|add_to|remove_from", re.IGNORECASE
)
_CLEAR_RE = re.compile(r"clear|flush|empty|reset", re.IGNORECASE)
_ADD_RE = re.compile(r"\badd|^add|_add", re.IGNORECASE)
_REMOVE_RE = re.compile(r"remove|delete", re.IGNORECASE)
# A read verb as the first word ("checkout" is not "check"): the suffix stays case-sensitive.
_READ_RE = re.compile(
    r"^(?i:get|fetch|list|track|search|find|show|view|check|cancel|your|my)(?:[_\-A-Z]|$)"
)
_CONFIRM_RE = re.compile(r"order|place|book|reserve|confirm|checkout|submit", re.IGNORECASE)
_BOOKING_RE = re.compile(r"book|reserve|table", re.IGNORECASE)
_ADDRESS_RE = re.compile(r"address|location", re.IGNORECASE)
_SEARCH_RE = re.compile(
    r"search|find|discover|browse|menu|list|recommend|suggest|go_to"
    r"|get_\w*(?:product|restaurant|item|dish|cuisine)",
    re.IGNORECASE,
)
_ORDER_RECORD_RE = re.compile(r"order|booking", re.IGNORECASE)
_RESTAURANT_RE = re.compile(r"restaurant|dineout", re.IGNORECASE)
_MENU_INTENT_RE = re.compile(r"menu|dish|item", re.IGNORECASE)

_DISH_HINTS = (
    "paneer",
    "chicken",
    "biryani",
    "pizza",
    "burger",
    "dosa",
    "idli",
    "thali",
    "naan",
    "roti",
    "masala",
    "tikka",
    "noodles",
    "momo",
    "pasta",
    "curry",
    "kebab",
    "sandwich",
    "wrap",
    "roll",
)


class Route(StrEnum):
    """What a tool's name says it returns."""

    SEARCH = "search"
    CART = "cart"
    SLOTS = "slots"
    ADDRESS = "address"
    CONFIRM = "confirm"
    NONE = "none"


def route_for(tool_name: str) -> Route:
    """The route a tool name points to (slots, cart, confirm, address, search, none).

    A shop's own spending tool answers with a confirmation, whatever its name says.
    """
    name = _name(tool_name)
    if find_spender(name) is not None:
        return Route.CONFIRM
    return _route(name)


@lru_cache(maxsize=_NAME_CACHE_SIZE)
def _route(name: str) -> Route:
    if _SLOT_RE.search(name):
        return Route.SLOTS
    if _CART_RE.search(name):
        return Route.CART
    if _CONFIRM_RE.search(name) and not _READ_RE.search(name):
        return Route.CONFIRM
    if _ADDRESS_RE.search(name):
        return Route.ADDRESS
    if _SEARCH_RE.search(name):
        return Route.SEARCH
    return Route.NONE


def _name(tool_name: str) -> str:
    return tool_name[:_NAME_LIMIT] if isinstance(tool_name, str) else ""


def is_booking_tool(tool_name: str) -> bool:
    """Confirm tools that book a table rather than place an order: a shop says so of its
    own spending tools; any other tool's name is read."""
    name = _name(tool_name)
    found = find_spender(name)
    if found is not None:
        return found[1].result == "booking"
    return _is_booking_name(name)


@lru_cache(maxsize=_NAME_CACHE_SIZE)
def _is_booking_name(name: str) -> bool:
    return bool(_BOOKING_RE.search(name))


def is_clear_tool(tool_name: str) -> bool:
    """Tools that empty a cart (`clear_cart`, `flush_food_cart`)."""
    name = _name(tool_name)
    return bool(_CART_RE.search(name) and _CLEAR_RE.search(name))


def is_read_tool(tool_name: str) -> bool:
    """Tools that only read (`get_cart`, `fetch_...`)."""
    return bool(_READ_RE.search(_name(tool_name)))


def changes_cart(tool_name: str) -> bool:
    """True for tools that write a cart (update, add, remove, clear): not reads."""
    return route_for(tool_name) is Route.CART and not is_read_tool(tool_name)


def is_add_tool(tool_name: str) -> bool:
    """Incremental add-style cart tools (their snapshots may be partial)."""
    return bool(_ADD_RE.search(_name(tool_name)))


def is_remove_tool(tool_name: str) -> bool:
    """Incremental remove-style cart tools."""
    return bool(_REMOVE_RE.search(_name(tool_name)))


@dataclass(frozen=True, slots=True)
class PayloadSignals:
    """What a bounded scan of a payload found."""

    products: int = 0
    restaurants: int = 0
    weak_restaurants: int = 0
    slots: int = 0
    addresses: int = 0
    menu: bool = False
    cart: bool = False
    dish_names: bool = False

    @property
    def strong_restaurant(self) -> bool:
        """Records with cuisine/cost/sla-like keys were seen (not only ratings)."""
        return self.restaurants > 0


def food_search_signals(tool_name: str, payload: Any) -> PayloadSignals:
    """What `prefer_products_for_food` needs of a FeedMe search payload, and no more.

    A restaurant-discovery name is settled by the first strong restaurant record (a
    restaurant list, whatever else it holds): the scan stops there.
    """
    name = _name(tool_name)
    discovery = bool(_RESTAURANT_RE.search(name)) and not _is_menu_name(name)
    return scan_signals(payload, stop_at_strong_restaurant=discovery)


def scan_signals(payload: Any, *, stop_at_strong_restaurant: bool = False) -> PayloadSignals:
    """Count record kinds and markers in the first nodes of a payload."""
    counts = {"products": 0, "restaurants": 0, "weak": 0, "slots": 0, "addresses": 0}
    menu = cart = dish = False
    # Ids of the dicts classified as records; iter_nodes consults it after each yield,
    # so records are counted but not descended into.
    records: set[int] = set()
    for node in iter_nodes(payload, _SIGNAL_NODE_BUDGET, is_leaf=lambda n: id(n) in records):
        menu = menu or not MENU_KEYS.isdisjoint(node)
        cart = cart or not CART_KEYS.isdisjoint(node)
        kind = _record_kind(node)
        if kind is None:
            continue
        records.add(id(node))
        counts[kind] += 1
        dish = dish or (kind == "products" and _dish_named(node))
        if len(records) >= _SIGNAL_RECORD_LIMIT or (
            stop_at_strong_restaurant and kind == "restaurants"
        ):
            break
    return PayloadSignals(
        products=counts["products"],
        restaurants=counts["restaurants"],
        weak_restaurants=counts["weak"],
        slots=counts["slots"],
        addresses=counts["addresses"],
        menu=menu,
        cart=cart,
        dish_names=dish,
    )


def _record_kind(node: dict[str, Any]) -> str | None:
    if RECORD_KEYS.isdisjoint(node):
        return None  # most nodes: no key any record kind needs
    if is_product_record(node):
        return "products"
    if is_restaurant_record(node):
        return "weak" if STRONG_RESTAURANT_KEYS.isdisjoint(node) else "restaurants"
    if is_slot_record(node):
        return "slots"
    if is_address_record(node):
        return "addresses"
    return None


def _dish_named(record: dict[str, Any]) -> bool:
    name = record.get("name")
    if not isinstance(name, str):
        return False
    lowered = name[:_NAME_LIMIT].lower()
    return any(hint in lowered for hint in _DISH_HINTS)


def is_order_record_tool(tool_name: str) -> bool:
    """Reads of past orders and bookings: their items and bills are not the cart."""
    return _is_order_record_name(_name(tool_name))


@lru_cache(maxsize=_NAME_CACHE_SIZE)
def _is_order_record_name(name: str) -> bool:
    return bool(_ORDER_RECORD_RE.search(name))


def is_menu_tool(tool_name: str) -> bool:
    """Tool names that ask for dishes (`search_menu`, `get_restaurant_menu`)."""
    return _is_menu_name(_name(tool_name))


@lru_cache(maxsize=_NAME_CACHE_SIZE)
def _is_menu_name(name: str) -> bool:
    return bool(_MENU_INTENT_RE.search(name))


def prefer_products_for_food(tool_name: str, signals: PayloadSignals) -> bool | None:
    """FeedMe: True for menus, False for restaurant lists, None when still unsure (seed 004)."""
    name = _name(tool_name)
    menu_intent = bool(_MENU_INTENT_RE.search(name))
    discovery = bool(_RESTAURANT_RE.search(name)) and not menu_intent
    weak_only = signals.weak_restaurants > 0 and not signals.strong_restaurant
    if discovery and signals.strong_restaurant:
        return False  # a restaurant search listing dishes too still lists restaurants
    if (
        menu_intent
        or signals.menu
        or (signals.products and not signals.strong_restaurant)
        or (weak_only and (not discovery or signals.dish_names))
    ):
        return True
    if signals.strong_restaurant:
        return False
    return None
